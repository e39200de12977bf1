import type { Item, ToolItem } from './conversation'

// Progress is the status row under the log: the step the turn is on, in words, and when it began (so the row can
// say how long it has taken). key changes when the step does; label may change within a step (a countdown).
export interface Progress {
  key: string
  label: string
  elapsed: boolean // whether the row shows the step's elapsed time (a countdown says its own)
}

export interface TurnActivity {
  provider: string // the provider's name: "Waiting for Anthropic"
  // retry, while the provider's SDK waits to try again after a failure: until when, and why.
  retry?: { until: number; attempt: number; status?: number }
  checking?: string[] // the files the post-edit check runs on, while it runs
  compacting?: boolean
}

const short = (s: string, n = 80) => (s.length > n ? `${s.slice(0, n - 1)}…` : s)
const str = (v: unknown) => (typeof v === 'string' ? v : '')

// toolLabel names what a call does, as a person would say it.
export function toolLabel(t: Pick<ToolItem, 'name' | 'input'>): string {
  const i = t.input
  switch (t.name) {
    case 'exec_shell':
      return `Running ${short(str(i.command))}`
    case 'read_file':
      return `Reading ${str(i.path)}`
    case 'write_file':
      return `Writing ${str(i.path)}`
    case 'patch_file':
      return `Editing ${str(i.path)}`
    case 'search_files':
      return `Searching for “${short(str(i.query), 40)}”`
    case 'find_files':
      return 'Finding files'
    case 'list_directory':
      return `Listing ${str(i.path) || 'the project'}`
    case 'restore_snapshot':
      return 'Restoring a snapshot'
    case 'spawn_agent':
      return `Subagent: ${short(str(i.label), 60)}`
    case 'job_output':
      return 'Reading a background job’s output'
    default:
      return `Running ${t.name}`
  }
}

// progress says what the turn is doing now. Items are the conversation's; only the current request's count.
export function progress(items: Item[], a: TurnActivity, now: number): Progress {
  let start = items.length
  while (start > 0 && items[start - 1].kind !== 'user') start--
  const turn = items.slice(start)
  const tools = turn.filter((it): it is ToolItem => it.kind === 'tool')
  const waiting = tools.find((t) => t.state === 'waiting')
  if (waiting) {
    if (waiting.name === 'ask_user') return { key: `ask ${waiting.id}`, label: 'Waiting for your answer', elapsed: true }
    return { key: `approve ${waiting.id}`, label: `Needs your approval: ${toolLabel(waiting)}`, elapsed: true }
  }
  if (a.checking?.length) {
    const files = a.checking.length === 1 ? a.checking[0] : `${a.checking.length} files`
    return { key: `check ${a.checking.join(' ')}`, label: `Checking ${files} after the edit (the project’s diagnostics)`, elapsed: true }
  }
  // A subagent's own running calls are named under it; the row names the outermost work.
  const running = tools.filter((t) => t.state === 'running')
  const top = running.filter((t) => !t.parent)
  const shown = top.find((t) => t.name === 'spawn_agent' && running.some((r) => r.parent === t.id)) ? running.filter((t) => t.parent)[0] : top[0]
  if (shown) {
    const more = running.length - 1
    return { key: `tool ${shown.id}`, label: more > 0 && shown.parent === undefined ? `${toolLabel(shown)} (and ${more} more)` : toolLabel(shown), elapsed: true }
  }
  if (a.compacting) return { key: 'compacting', label: 'Summarising the older part of the conversation', elapsed: true }
  if (a.retry && a.retry.until > now) {
    const secs = Math.ceil((a.retry.until - now) / 1000)
    const why = a.retry.status ? ` (HTTP ${a.retry.status})` : ' (no connection)'
    return { key: `retry ${a.retry.attempt}`, label: `Waiting for ${a.provider}${why} · retry in ${secs} s`, elapsed: false }
  }
  const last = turn.at(-1)
  if (last?.kind === 'assistant') return { key: `write ${last.id}`, label: `${a.provider} is answering`, elapsed: true }
  if (last?.kind === 'reasoning') return { key: `think ${last.id}`, label: `${a.provider} is thinking`, elapsed: true }
  return { key: `wait ${last?.id ?? ''}`, label: `Waiting for ${a.provider}`, elapsed: true }
}

// elapsedText is a step's time so far: "12 s", "1 min 5 s".
export function elapsedText(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000))
  return s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${s % 60} s`
}

// attentionNeeded says what a person away from the window should know: a call waits for their approval or answer,
// or the turn ended. Undefined when nothing waits.
export function attentionNeeded(items: Item[], running: boolean, wasRunning: boolean): string | undefined {
  const waiting = items.find((it) => it.kind === 'tool' && it.state === 'waiting')
  if (waiting && waiting.kind === 'tool') return waiting.name === 'ask_user' ? 'Needs your answer' : 'Needs approval'
  if (wasRunning && !running) {
    const last = items.at(-1)
    return last?.kind === 'notice' && last.tone === 'error' ? 'Stopped with an error' : 'Finished'
  }
  return undefined
}

// AgentState is what a project's agent is doing, in a word, for the list of open projects: working, waiting for
// the user (an approval or an answer), just done or just stopped with an error; '' when there is nothing to say.
export type AgentState = '' | 'working' | 'waiting' | 'done' | 'failed'

// agentState is the agent's state now, from its conversation and whether a turn runs (wasRunning: whether one ran
// at the last look, so the end of a turn is seen once).
export function agentState(items: Item[], running: boolean, wasRunning: boolean): AgentState {
  if (items.some((it) => it.kind === 'tool' && it.state === 'waiting')) return 'waiting'
  if (running) return 'working'
  if (!wasRunning) return ''
  const last = items.at(-1)
  return last?.kind === 'notice' && last.tone === 'error' ? 'failed' : 'done'
}
