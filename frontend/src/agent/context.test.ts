import type { ModelMessage } from 'ai'
import { describe, expect, it, vi } from 'vitest'
import { capOutput, compactedMessages, defaultWindow, elideOld, estimateTokens, splitForCompaction, windowFromListing } from './context'

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

  // recount is the estimate measured from scratch: the whole conversation's JSON, an image counted as 6,400
  // characters.
  const recount = (ms: ModelMessage[]) => Math.ceil(JSON.stringify(ms, (k, v: unknown) => (k === 'data' && typeof v === 'string' && v.length > 6400 ? 'x'.repeat(6400) : v)).length / 4)
  const image = (id: string): ModelMessage => ({ role: 'tool', content: [{ type: 'tool-result', toolCallId: id, toolName: 'read_file', output: { type: 'content', value: [{ type: 'image-data', data: 'A'.repeat(200_000), mediaType: 'image/png' }] } }] })

  it('estimates a conversation as a full recount would, through steps, edits, compaction and a removed message', () => {
    const bulky = 'é'.repeat(3000)
    let ms: ModelMessage[] = []
    expect(estimateTokens(ms)).toBe(recount(ms))
    // A turn's steps: each adds messages, and the estimate is asked of what is sent (old bulky results elided).
    for (const add of [[user('one')], [call('1'), result('1', bulky)], [call('2'), image('2')], [user('two')], [call('3'), result('3', 'short')], [user('three'), call('4'), result('4', bulky)], [user('four')]]) {
      ms = [...ms, ...add]
      const sent = elideOld(ms)
      expect(estimateTokens(ms)).toBe(recount(ms))
      expect(estimateTokens(sent)).toBe(recount(sent))
    }
    // An edit replaces a message by a new one of another size.
    ms = ms.map((m, i) => (i === 3 ? result('2', 'z'.repeat(777)) : m))
    expect(estimateTokens(ms)).toBe(recount(ms))
    expect(estimateTokens(elideOld(ms))).toBe(recount(elideOld(ms)))
    // Compaction puts a summary before the recent part.
    const { recent } = splitForCompaction(ms)
    ms = compactedMessages('what was done so far', recent)
    expect(estimateTokens(ms)).toBe(recount(ms))
    // A removed message.
    ms = ms.filter((_, i) => i !== 1)
    expect(estimateTokens(ms)).toBe(recount(ms))
    expect(estimateTokens([ms[0]])).toBe(recount([ms[0]]))
    expect(estimateTokens('four chars each')).toBe(4)
  })

  it('measures each message once: a step of a long turn costs only its new messages', () => {
    const ms: ModelMessage[] = [user('one')]
    for (let i = 0; i < 40; i++) ms.push(call(`${i}`), result(`${i}`, 'x'.repeat(5000)))
    ms.push(user('two'), user('three'), user('four'))
    estimateTokens(elideOld(ms))
    const spy = vi.spyOn(JSON, 'stringify')
    try {
      const next = [...ms, call('new'), result('new', 'fresh')]
      expect(estimateTokens(elideOld(next))).toBe(recount(elideOld(next)))
      // Two new messages measured by the estimate (the recount above is the test's own, one call).
      expect(spy).toHaveBeenCalledTimes(3)
      // The old results are elided to the same objects as before, so nothing old is measured again.
      expect(elideOld(next)[2]).toBe(elideOld(ms)[2])
    } finally {
      spy.mockRestore()
    }
  })
})
