import { describe, expect, it } from 'vitest'
import { capText, modelOutput } from './model-text'

describe('modelOutput', () => {
  it('gives the model the text form, not the JSON', async () => {
    const out = await modelOutput('read_file', { path: 'a.go', content: 'x\n' }, async (name, o) => `${name}:${(o as { path: string }).path}`)
    expect(out).toEqual({ type: 'text', value: 'read_file:a.go' })
  })
  it('falls back to the JSON when the text form cannot be had', async () => {
    const out = await modelOutput('read_file', { path: 'a.go' }, () => Promise.reject(new Error('gone')))
    expect(out).toEqual({ type: 'text', value: '{"path":"a.go"}' })
  })
  it('caps a huge text, keeping its head and tail and saying how to read on', () => {
    const text = 'HEAD' + 'x'.repeat(100_000) + 'TAIL'
    const out = capText('read_file', text, 1000)
    expect(out.value.length).toBeLessThan(1200)
    expect(out.value.startsWith('HEAD')).toBe(true)
    expect(out.value.endsWith('TAIL')).toBe(true)
    expect(out.value).toMatch(/were left out\. To see them, read a line range with offset and limit/)
  })
})
