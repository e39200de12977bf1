import { describe, expect, it } from 'vitest'
import { presets, providerId, startingModel } from './presets'

describe('provider presets', () => {
  it('offers the providers a newcomer names, and any OpenAI-compatible server', () => {
    expect(presets.map((p) => p.name)).toEqual(['Anthropic', 'OpenAI', 'OpenRouter', 'Ollama', 'Other (OpenAI-compatible)'])
    expect(presets.find((p) => p.id === 'ollama')).toMatchObject({ kind: 'ollama', baseURL: 'http://localhost:11434', key: 'none' })
    for (const p of presets.filter((p) => p.key === 'required')) expect(p.baseURL).toMatch(/^https:\/\//)
  })
  it('starts with a preferred model when the provider lists one, else the first', () => {
    const anthropic = presets[0]
    expect(startingModel(anthropic, ['claude-3-haiku', 'claude-sonnet-4-5', 'claude-opus-4'])).toBe('claude-sonnet-4-5')
    expect(startingModel(anthropic, ['x', 'y'])).toBe('x')
    expect(startingModel(anthropic, [])).toBe('')
  })
  it('names a new provider so it replaces none already saved', () => {
    expect(providerId(presets[0], '', [])).toBe('anthropic')
    expect(providerId(presets[0], '', [{ id: 'anthropic' }, { id: 'anthropic-2' }])).toBe('anthropic-3')
    expect(providerId(presets[4], 'http://127.0.0.1:8080/v1', [])).toBe('127.0.0.1-8080')
    expect(providerId(presets[4], 'not a url', [])).toBe('custom')
  })
})
