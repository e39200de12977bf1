import type { Conversation, ToolItem } from './conversation'
import { errorOf } from './conversation'
import type { TurnEvent, TurnResult } from './run-turn'

// How a conversation changes while the agent works: pure functions of the conversation and what happened, so each
// rule is tested on its own and the session hook only wires them to React and the backend.

// NewId makes an item id with the given one-letter prefix ('a' assistant, 'r' reasoning, 'n' notice, 'k'
// compaction); the window's ids are time-based, tests pass a counter.
export type NewId = (prefix: string) => string

export const timeId: NewId = (prefix) => `${prefix}${Date.now()}${Math.random().toString(36).slice(2, 5)}`

// Stream is what the reducer remembers between events of one turn: the assistant and reasoning items that
// deltas are still appended to ('' when the next delta starts a new item).
export interface Stream {
  textId: string
  thinkId: string
}

export const newStream = (): Stream => ({ textId: '', thinkId: '' })

export interface Applied {
  conv: Conversation
  stream: Stream
  // compacting, when set, is whether a compaction is now in progress (the panel shows it).
  compacting?: boolean
}

// applyTurnEvent is the conversation after one event of a running turn. window is the context window the turn
// runs with (recorded with each step's usage).
export function applyTurnEvent(c: Conversation, s: Stream, e: TurnEvent, window: number, newId: NewId = timeId): Applied {
  switch (e.type) {
    case 'text': {
      const last = c.items[c.items.length - 1]
      if (last?.kind === 'assistant' && last.id === s.textId) {
        return { conv: { ...c, items: [...c.items.slice(0, -1), { ...last, text: last.text + e.delta }] }, stream: { textId: s.textId, thinkId: '' } }
      }
      const id = newId('a')
      return { conv: { ...c, items: [...c.items, { kind: 'assistant', id, text: e.delta }] }, stream: { textId: id, thinkId: '' } }
    }
    case 'reasoning': {
      const last = c.items[c.items.length - 1]
      if (last?.kind === 'reasoning' && last.id === s.thinkId) {
        return { conv: { ...c, items: [...c.items.slice(0, -1), { ...last, text: last.text + e.delta }] }, stream: s }
      }
      const id = newId('r')
      return { conv: { ...c, items: [...c.items, { kind: 'reasoning', id, text: e.delta }] }, stream: { textId: '', thinkId: id } }
    }
    case 'compacting':
      return { conv: c, stream: s, compacting: true }
    case 'compacted':
      return {
        conv: { ...c, items: [...c.items, { kind: 'compaction', id: newId('k'), summary: e.summary, before: e.before, after: e.after, summarised: e.summarised }] },
        stream: { ...s, textId: '' },
        compacting: false,
      }
    case 'tool-call': {
      // A call that needed approval is on the list already (its card appeared when it started waiting).
      const stream = { ...s, textId: '' }
      if (c.items.some((it) => it.kind === 'tool' && it.id === e.id)) return { conv: c, stream }
      return { conv: { ...c, items: [...c.items, { kind: 'tool', id: e.id, name: e.name, input: e.input, state: 'running', ...(e.parent ? { parent: e.parent } : {}) }] }, stream }
    }
    case 'tool-result': {
      // Only a call still running takes the SDK's result: one the session already settled (denied, failed its
      // check, refused in plan mode) keeps what it showed.
      // (A result that changes no card leaves the conversation as it was: nothing to draw or save.)
      const i = c.items.findIndex((it) => it.kind === 'tool' && it.id === e.id && it.state === 'running')
      if (i < 0) return { conv: c, stream: s }
      const err = errorOf(e.output)
      const items = c.items.slice()
      items[i] = { ...(items[i] as ToolItem), state: err ? 'failed' : 'done', output: e.output, error: err }
      return { conv: { ...c, items }, stream: s }
    }
    case 'step':
      return {
        conv: {
          ...c,
          usage: {
            input: c.usage.input + e.input,
            output: c.usage.output + e.output,
            cached: (c.usage.cached ?? 0) + e.cached,
            last: e.sub ? c.usage.last : { input: e.input, output: e.output, cached: e.cached, ...(e.cost === undefined ? {} : { cost: e.cost }) },
            // Money is added only where a request's cost is known; the others are counted, never guessed.
            ...(e.cost === undefined ? { cost: c.usage.cost, costUnknown: (c.usage.costUnknown ?? 0) + 1 } : { cost: (c.usage.cost ?? 0) + e.cost, costUnknown: c.usage.costUnknown }),
          },
          // A subagent's request is not the conversation's: the context stays as the parent's last request left it.
          context: e.sub ? c.context : { ...c.context, used: e.input + e.output, window },
        },
        stream: s,
      }
    case 'error':
      return { conv: withNotice(c, 'error', e.message, newId), stream: s }
  }
}

// withNotice adds a line the panel shows between the messages (the model never sees it).
export function withNotice(c: Conversation, tone: 'error' | 'info', text: string, newId: NewId = timeId): Conversation {
  return { ...c, items: [...c.items, { kind: 'notice', id: newId('n'), tone, text }] }
}

// ToolPatch is what the session learns about a call as it goes (waiting, its preview, running, its result).
export type ToolPatch = Partial<ToolItem> & { name?: string; input?: Record<string, unknown> }

// upsertTool updates the card of the call id, adding it (running, unless the patch says otherwise) if it is new.
export function upsertTool(c: Conversation, id: string, patch: ToolPatch): Conversation {
  const i = c.items.findIndex((it) => it.kind === 'tool' && it.id === id)
  if (i < 0) return { ...c, items: [...c.items, { kind: 'tool', id, name: patch.name ?? '', input: patch.input ?? {}, state: 'running', ...patch } as ToolItem] }
  const items = c.items.slice()
  items[i] = { ...(items[i] as ToolItem), ...patch }
  return { ...c, items }
}

// withRequestSnapshot records backup, the snapshot taken before a change, on the latest request unless it already
// has one: the first change of a request is what Rewind code goes back to.
export function withRequestSnapshot(c: Conversation, backup: string): Conversation {
  let i = c.items.length - 1
  while (i >= 0 && c.items[i].kind !== 'user') i--
  const u = c.items[i]
  if (u?.kind !== 'user' || u.snapshot) return c
  const items = c.items.slice()
  items[i] = { ...u, snapshot: backup }
  return { ...c, items }
}

// endTurn is the conversation once a turn is over: what the model said and the tool results join its messages
// (or replace them, when the turn compacted), and a turn that stopped before the model was done says why and is
// marked halted, so the panel offers Continue.
export function endTurn(c: Conversation, res: TurnResult, stepLimit: number, newId: NewId = timeId): Conversation {
  let next: Conversation = { ...c, halt: undefined, messages: res.replaced ?? [...c.messages, ...res.messages], context: c.context ? { ...c.context, calibration: res.calibration } : c.context }
  if (res.finish === 'stopped') next = withNotice(next, 'info', 'Stopped.', newId)
  let halt: Conversation['halt']
  if (res.finish === 'step-limit') halt = { kind: 'step-limit', reason: `Stopped after ${stepLimit} steps, the step limit. Continue to let the agent go on, or tell it what to do.` }
  if (res.finish === 'repeated') halt = { kind: 'repeated', reason: `Stopped: ${res.reason}. Tell the agent how to go on, or Continue.` }
  if (halt) next = { ...withNotice(next, 'info', halt.reason, newId), halt }
  return next
}
