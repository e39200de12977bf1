import type { ModelMessage } from 'ai'

// What a conversation shows, item by item; the model's own view is `messages`.

export interface ToolError {
  code: string
  message: string
  path?: string
}

export type ToolState = 'waiting' | 'running' | 'done' | 'failed' | 'denied'

export interface ToolItem {
  kind: 'tool'
  id: string // the model's tool call id
  name: string
  input: Record<string, unknown>
  state: ToolState
  output?: unknown
  error?: ToolError
  live?: string // a command's output while it runs
  asks?: HostAskItem[] // hosts the running command waited to reach (allow-list mode), asked live
  diff?: string // an edit's diff against the snapshot taken before it
  undone?: boolean
  preview?: string // while an edit waits for approval: the diff it would make (its dry run)
  edited?: boolean // the user changed the proposed text before allowing it
  parent?: string // a subagent's call: the id of the spawn_agent call it works for
}

// HostAskItem is a question about a host a running command waited to reach, at port (what an answer covers; the
// same host at another port is another question): ask is its token (answerHost's),
// wait_ms how long the command waited for the answer, ended why it stopped waiting unanswered (the backend's
// 'host_ended': 'timeout', 'ended', 'left').
export interface HostAskItem {
  call: string
  host: string
  port?: number
  ask?: string
  wait_ms?: number
  ended?: string
}

export type Item =
  // snapshot is the one taken before the first change of this request's turn (what Rewind code restores);
  // at is how many model messages there were before it (where Rewind conversation cuts).
  | { kind: 'user'; id: string; text: string; attached?: string[]; snapshot?: string; at?: number }
  | { kind: 'assistant'; id: string; text: string }
  // steer is what the user sent while the turn worked, given to the model at its next step.
  | { kind: 'steer'; id: string; text: string }
  | { kind: 'reasoning'; id: string; text: string }
  | ToolItem
  // undo, on a restore's notice, is the snapshot the restore took first (what *Undo* puts back); undone once it has.
  | { kind: 'notice'; id: string; text: string; tone: 'error' | 'info'; undo?: string; undone?: boolean }
  | { kind: 'compaction'; id: string; summary: string; before: number; after: number; summarised: number }

// PlanItem is one step of the plan the model keeps with update_plan.
export interface PlanItem {
  step: string
  status: 'pending' | 'in_progress' | 'done'
}

// ContextUse is how full the model's context window was at the last request, by the provider's count.
export interface ContextUse {
  used: number
  window: number
  calibration?: number // the provider's count over Rooted's estimate, carried from turn to turn
}

export interface Usage {
  input: number
  output: number
  cached?: number // input tokens the provider read from its prompt cache
  last?: { input: number; output: number; cached: number; cost?: number } // the last request
  // cost is the US dollars of the requests whose cost is known (reported by the provider or priced in
  // Settings); costUnknown counts the requests whose cost is not.
  cost?: number
  costUnknown?: number
}

// Halt is why the last turn stopped before the model was done, for the panel to offer Continue.
export interface Halt {
  kind: 'step-limit' | 'repeated'
  reason: string
}

export interface Conversation {
  id: string
  title: string
  items: Item[]
  messages: ModelMessage[]
  usage: Usage
  // notes are told to the model with the next request (the user undid an edit, ...).
  notes?: string[]
  // comments are the user's on lines of a review (`path:line: text`), sent with the next request.
  comments?: string[]
  plan?: PlanItem[]
  context?: ContextUse
  halt?: Halt
  // planMode: the agent may only read and plan (Start switches to acting).
  planMode?: boolean
  // rewound keeps what Rewind conversation cut off, newest last: never deleted.
  rewound?: { at: string; items: Item[]; messages: ModelMessage[] }[]
}

export type UserItem = Extract<Item, { kind: 'user' }>

// snapshotBefore is the snapshot to restore for Rewind code to just before the request at index i: that of the
// first request from it on that changed anything ('' when nothing changed since).
export function snapshotBefore(items: Item[], i: number): string {
  for (const it of items.slice(i)) if (it.kind === 'user' && it.snapshot) return it.snapshot
  return ''
}

// cutBefore returns the conversation as it was before the request at index i, and what was cut off. Undefined
// when its messages can no longer be cut there (a compaction since replaced them).
export function cutBefore(c: Conversation, i: number): { kept: Conversation; cut: { items: Item[]; messages: ModelMessage[] } } | undefined {
  const it = c.items[i]
  if (it?.kind !== 'user' || it.at === undefined || it.at > c.messages.length) return undefined
  if (c.items.slice(i).some((x) => x.kind === 'compaction')) return undefined
  const cut = { items: c.items.slice(i), messages: c.messages.slice(it.at) }
  return { kept: { ...c, items: c.items.slice(0, i), messages: c.messages.slice(0, it.at), halt: undefined }, cut }
}

export function newConversation(): Conversation {
  return { id: `c${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`, title: '', items: [], messages: [], usage: { input: 0, output: 0 }, notes: [] }
}

// titleFrom makes a conversation's title from its first request.
export function titleFrom(text: string): string {
  const line = text.trim().split('\n')[0] ?? ''
  return line.length > 60 ? `${line.slice(0, 57)}…` : line || 'New conversation'
}

// errorOf returns the tool error in a result, if it is one.
export function errorOf(output: unknown): ToolError | undefined {
  if (typeof output !== 'object' || output === null || !('error' in output)) return undefined
  const e = (output as { error: unknown }).error
  if (typeof e === 'object' && e !== null && typeof (e as ToolError).code === 'string') return e as ToolError
  return undefined
}

// restore rebuilds a conversation from what was saved, marking calls cut off by a crash or a restart.
export function restore(id: string, title: string, body: unknown): Conversation {
  const b = (body ?? {}) as Partial<Conversation>
  const items = (b.items ?? []).map((it): Item => (it.kind === 'tool' && (it.state === 'running' || it.state === 'waiting') ? { ...it, state: 'failed', error: { code: 'interrupted', message: 'Rooted stopped before this call finished.' } } : it))
  return { id, title, items, messages: b.messages ?? [], usage: b.usage ?? { input: 0, output: 0 }, notes: b.notes ?? [], plan: b.plan ?? [], context: b.context, halt: b.halt, planMode: b.planMode, rewound: b.rewound, comments: b.comments }
}
