import { describe, expect, it } from 'vitest'
import { newConversation, type Conversation, type ToolItem } from './conversation'
import type { TurnEvent, TurnResult } from './run-turn'
import { applyTurnEvent, endTurn, newStream, upsertTool, withRequestSnapshot, type NewId, type Stream } from './turn-state'

function counter(): NewId {
  let n = 0
  return (prefix) => `${prefix}${++n}`
}

// play runs events through the reducer as a turn does, returning the conversation and whether it is compacting.
function play(events: TurnEvent[], start: Conversation = newConversation(), window = 8000) {
  const newId = counter()
  let conv = start
  let stream: Stream = newStream()
  let compacting = false
  for (const e of events) {
    const r = applyTurnEvent(conv, stream, e, window, newId)
    conv = r.conv
    stream = r.stream
    if (r.compacting !== undefined) compacting = r.compacting
  }
  return { conv, compacting }
}

const shown = (c: Conversation) => c.items.map((it) => `${it.kind}:${'text' in it ? it.text : it.kind === 'tool' ? `${it.name}/${it.state}` : ''}`)

describe('applyTurnEvent', () => {
  it('streams text into one assistant message until a tool call starts another', () => {
    const { conv } = play([
      { type: 'text', delta: 'Let me ' },
      { type: 'text', delta: 'look.' },
      { type: 'tool-call', id: 't1', name: 'read_file', input: { path: 'a.go' } },
      { type: 'tool-result', id: 't1', output: { content: 'x' } },
      { type: 'text', delta: 'Done' },
      { type: 'text', delta: '.' },
    ])
    expect(shown(conv)).toEqual(['assistant:Let me look.', 'tool:read_file/done', 'assistant:Done.'])
  })

  it('keeps reasoning and the answer apart, and a new thought after text is a new item', () => {
    const { conv } = play([
      { type: 'reasoning', delta: 'hmm' },
      { type: 'reasoning', delta: ', so' },
      { type: 'text', delta: 'Answer' },
      { type: 'reasoning', delta: 'again' },
      { type: 'text', delta: 'More' },
    ])
    expect(shown(conv)).toEqual(['reasoning:hmm, so', 'assistant:Answer', 'reasoning:again', 'assistant:More'])
  })

  it('does not append to an assistant message from an earlier turn', () => {
    const earlier = { ...newConversation(), items: [{ kind: 'assistant' as const, id: 'old', text: 'Before.' }] }
    const { conv } = play([{ type: 'text', delta: 'Now.' }], earlier)
    expect(shown(conv)).toEqual(['assistant:Before.', 'assistant:Now.'])
  })

  it('marks a result with an error as failed, and leaves a call the session settled alone', () => {
    const denied: ToolItem = { kind: 'tool', id: 't2', name: 'exec_shell', input: {}, state: 'denied', output: { error: { code: 'denied', message: 'no' } } }
    const start = { ...newConversation(), items: [denied] }
    const { conv } = play(
      [
        { type: 'tool-call', id: 't1', name: 'patch_file', input: { path: 'a' } },
        { type: 'tool-call', id: 't2', name: 'exec_shell', input: {} },
        { type: 'tool-result', id: 't1', output: { error: { code: 'no_match', message: 'search text not found', path: 'a' } } },
        { type: 'tool-result', id: 't2', output: { exit_code: 0 } },
      ],
      start,
    )
    const tools = conv.items.filter((it): it is ToolItem => it.kind === 'tool')
    expect(tools.map((t) => [t.id, t.state])).toEqual([
      ['t2', 'denied'],
      ['t1', 'failed'],
    ])
    expect(tools[1].error).toEqual({ code: 'no_match', message: 'search text not found', path: 'a' })
    expect(tools[0].output).toEqual({ error: { code: 'denied', message: 'no' } })
    // A result that changes no card leaves the conversation itself as it was: nothing to draw again or to save.
    expect(applyTurnEvent(conv, newStream(), { type: 'tool-result', id: 't2', output: { exit_code: 0 } }, 0).conv).toBe(conv)
  })

  it('adds up usage per step and records the last request and the window', () => {
    const { conv } = play(
      [
        { type: 'step', input: 1000, output: 50, cached: 0 },
        { type: 'step', input: 1200, output: 80, cached: 900 },
      ],
      newConversation(),
      32768,
    )
    expect(conv.usage).toEqual({ input: 2200, output: 130, cached: 900, last: { input: 1200, output: 80, cached: 900 }, costUnknown: 2 })
    expect(conv.context).toEqual({ used: 1280, window: 32768 })
  })

  it('shows a compaction and says when it starts and ends', () => {
    const mid = play([{ type: 'text', delta: 'a' }, { type: 'compacting' }])
    expect(mid.compacting).toBe(true)
    expect(shown(mid.conv)).toEqual(['assistant:a'])
    const done = play([{ type: 'text', delta: 'a' }, { type: 'compacting' }, { type: 'compacted', summary: 'S', before: 9000, after: 1200, summarised: 12 }, { type: 'text', delta: 'b' }])
    expect(done.compacting).toBe(false)
    expect(shown(done.conv)).toEqual(['assistant:a', 'compaction:', 'assistant:b'])
  })

  it('shows an error as a notice', () => {
    const { conv } = play([{ type: 'error', message: 'HTTP 500 from the provider' }])
    expect(conv.items).toEqual([{ kind: 'notice', id: 'n1', tone: 'error', text: 'HTTP 500 from the provider' }])
  })

  it('does not change the conversation it was given', () => {
    const start = newConversation()
    const before = JSON.stringify(start)
    play([{ type: 'text', delta: 'x' }, { type: 'step', input: 1, output: 1, cached: 0 }], start)
    expect(JSON.stringify(start)).toBe(before)
  })
})

describe('upsertTool', () => {
  it('adds a new call as running and patches it in place later', () => {
    let c = upsertTool(newConversation(), 't1', { name: 'write_file', input: { path: 'a' }, state: 'waiting' })
    c = upsertTool(c, 't1', { preview: '+x' })
    c = upsertTool(c, 't1', { state: 'done', output: { bytes: 1 } })
    expect(c.items).toEqual([{ kind: 'tool', id: 't1', name: 'write_file', input: { path: 'a' }, state: 'done', preview: '+x', output: { bytes: 1 } }])
    expect(upsertTool(newConversation(), 't9', {}).items[0]).toMatchObject({ state: 'running', name: '', input: {} })
  })
})

describe('withRequestSnapshot', () => {
  it("records the first change's snapshot on the latest request only", () => {
    const c: Conversation = {
      ...newConversation(),
      items: [
        { kind: 'user', id: 'u1', text: 'first', snapshot: 's0' },
        { kind: 'user', id: 'u2', text: 'second' },
        { kind: 'assistant', id: 'a1', text: 'ok' },
      ],
    }
    const once = withRequestSnapshot(c, 's1')
    expect(once.items.map((it) => (it.kind === 'user' ? it.snapshot : '-'))).toEqual(['s0', 's1', '-'])
    expect(withRequestSnapshot(once, 's2')).toBe(once)
    expect(withRequestSnapshot(newConversation(), 's1').items).toEqual([])
  })
})

describe('endTurn', () => {
  const base = (finish: TurnResult['finish'], extra: Partial<TurnResult> = {}): TurnResult => ({ messages: [{ role: 'assistant', content: 'ok' }], calibration: 1.1, finish, ...extra })
  const start: Conversation = { ...newConversation(), messages: [{ role: 'user', content: 'hi' }], context: { used: 10, window: 100 }, halt: { kind: 'step-limit', reason: 'old' } }

  it('appends the turn and clears an old halt when the model finished', () => {
    const c = endTurn(start, base('done'), 100, counter())
    expect(c.messages).toEqual([
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: 'ok' },
    ])
    expect(c.halt).toBeUndefined()
    expect(c.items).toEqual([])
    expect(c.context).toEqual({ used: 10, window: 100, calibration: 1.1 })
  })

  it('replaces the messages when the turn compacted', () => {
    const c = endTurn(start, base('done', { replaced: [{ role: 'user', content: 'summary' }] }), 100, counter())
    expect(c.messages).toEqual([{ role: 'user', content: 'summary' }])
  })

  it('says Stopped when the user stopped it, without a halt', () => {
    const c = endTurn(start, base('stopped'), 100, counter())
    expect(c.items).toEqual([{ kind: 'notice', id: 'n1', tone: 'info', text: 'Stopped.' }])
    expect(c.halt).toBeUndefined()
  })

  it('halts at the step limit, naming it, so the panel offers Continue', () => {
    const c = endTurn(start, base('step-limit'), 40, counter())
    expect(c.halt?.kind).toBe('step-limit')
    expect(c.halt?.reason).toContain('Stopped after 40 steps')
    expect(c.items).toEqual([{ kind: 'notice', id: 'n1', tone: 'info', text: c.halt?.reason }])
  })

  it('halts on a repeated failure with the reason the loop gave', () => {
    const c = endTurn(start, base('repeated', { reason: 'patch_file failed 3 times in a row with no_match' }), 100, counter())
    expect(c.halt).toEqual({ kind: 'repeated', reason: 'Stopped: patch_file failed 3 times in a row with no_match. Tell the agent how to go on, or Continue.' })
  })

  it('keeps no context when there was none', () => {
    expect(endTurn(newConversation(), base('done'), 100).context).toBeUndefined()
  })
})
