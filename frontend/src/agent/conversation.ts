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
  diff?: string // an edit's diff against the snapshot taken before it
  undone?: boolean
}

export type Item =
  | { kind: 'user'; id: string; text: string; attached?: string[] }
  | { kind: 'assistant'; id: string; text: string }
  | { kind: 'reasoning'; id: string; text: string }
  | ToolItem
  | { kind: 'notice'; id: string; text: string; tone: 'error' | 'info' }
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
}

export interface Conversation {
  id: string
  title: string
  items: Item[]
  messages: ModelMessage[]
  usage: Usage
  // notes are told to the model with the next request (the user undid an edit, ...).
  notes?: string[]
  plan?: PlanItem[]
  context?: ContextUse
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
  return { id, title, items, messages: b.messages ?? [], usage: b.usage ?? { input: 0, output: 0 }, notes: b.notes ?? [], plan: b.plan ?? [], context: b.context }
}
