import type { ModelMessage } from 'ai'
import { describe, expect, it } from 'vitest'
import { capOutput, compactedMessages, defaultWindow, elideOld, splitForCompaction, windowFromListing } from './context'

const call = (id: string): ModelMessage => ({ role: 'assistant', content: [{ type: 'tool-call', toolCallId: id, toolName: 'read_file', input: { path: 'a.go' } }] })
const result = (id: string, text: string): ModelMessage => ({ role: 'tool', content: [{ type: 'tool-result', toolCallId: id, toolName: 'read_file', output: { type: 'json', value: { content: text } } }] })
const user = (text: string): ModelMessage => ({ role: 'user', content: text })

describe('context', () => {
  it('caps a huge result to head and tail with a note on how to get the rest, and leaves small ones alone', () => {
    const small = { content: 'hello' }
    expect(capOutput('read_file', small)).toEqual({ type: 'json', value: small })
    const big = { content: `HEAD${'x'.repeat(100_000)}TAIL` }
    const out = capOutput('read_file', big)
    expect(out.type).toBe('text')
    const text = out.value as string
    expect(text.length).toBeLessThan(30_000 + 400)
    expect(text).toContain('HEAD')
    expect(text).toContain('TAIL')
    expect(text).toMatch(/100,0\d\d characters; .* were left out\. To see them, read a line range with offset and limit/)
  })

  it('elides bulky results of old turns only, and keeps the conversation otherwise intact', () => {
    const bulky = 'y'.repeat(5000)
    const msgs = [user('one'), call('1'), result('1', bulky), user('two'), call('2'), result('2', 'short'), user('three'), call('3'), result('3', bulky), user('four')]
    const out = elideOld(msgs, 3)
    expect(out).toHaveLength(msgs.length)
    expect(JSON.stringify(out[2])).toContain('was elided from the conversation')
    expect(out[5]).toBe(msgs[5]) // small
    expect(out[8]).toBe(msgs[8]) // recent
    expect(msgs[2]).toEqual(result('1', bulky)) // the input is not changed
  })

  it('splits before a user message, never between a call and its result', () => {
    const msgs = [user('one'), call('1'), result('1', 'a'), user('two'), call('2'), result('2', 'b'), user('three'), call('3'), result('3', 'c')]
    const { older, recent } = splitForCompaction(msgs, 2)
    expect(older).toEqual(msgs.slice(0, 3))
    expect(recent[0]).toEqual(user('two'))
    // One long turn: split after a tool result.
    const long = [user('only'), call('1'), result('1', 'a'), call('2'), result('2', 'b'), call('3'), result('3', 'c')]
    const s = splitForCompaction(long, 2)
    expect(s.older.at(-1)?.role).toBe('tool')
    expect(s.recent[0].role).toBe('assistant')
    expect(s.older.length + s.recent.length).toBe(long.length)
    // Alternation holds after compaction.
    const c = compactedMessages('the summary', recent)
    expect(c.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant', 'tool', 'user', 'assistant', 'tool'])
  })

  it('knows context windows from model lists and model families', () => {
    expect(windowFromListing({ id: 'x', context_length: 4096 })).toBe(4096)
    expect(windowFromListing({ id: 'x', max_model_len: 8192 })).toBe(8192)
    expect(windowFromListing({ id: 'x' })).toBeUndefined()
    expect(defaultWindow('claude-sonnet-4-5')).toBe(200_000)
    expect(defaultWindow('gpt-4o-mini')).toBe(128_000)
    expect(defaultWindow('my-local-model')).toBe(32_768)
  })
})
