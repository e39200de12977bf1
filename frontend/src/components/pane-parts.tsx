import { memo, useCallback, useLayoutEffect, useRef } from 'react'
import type { Instructions, ProviderView } from '../bridge'
import type { ContextUse, PlanItem, Usage } from '../agent/conversation'
import type { Pending } from '../stores/agent-session'
import { formatCost } from '../llm/cost'

// The conversation pane's parts that do not show the log: its header, what sits above the log (instructions,
// skills, the plan) and the footer's rows. The pane renders for every change of its conversation (each streamed
// piece, each tool call's card and result); these are memoised and take only what they show, with callbacks that
// keep their identity (useHandler), so such a change renders the log and leaves them alone.

// useHandler returns a function that keeps its identity for the component's life and calls the latest fn given: a
// memoised part handed it is not rendered again because the pane made a new closure. It is for event handlers, not
// for calling during a render.
export function useHandler<A extends unknown[], R>(fn: (...args: A) => R): (...args: A) => R {
  const latest = useRef(fn)
  useLayoutEffect(() => {
    latest.current = fn
  })
  return useCallback((...args: A) => latest.current(...args), [])
}

export const PaneHeader = memo(function PaneHeader(p: { title: string; canCompact: boolean; onCompact: () => void; onNew: () => void; onToggleList: () => void; onSettings: () => void }) {
  return (
    <header className="agent-header">
      <button className="link-button" onClick={p.onToggleList} data-testid="conversations-toggle" title="Conversations">
        ☰
      </button>
      <span className="agent-title" data-testid="conversation-title">{p.title}</span>
      <button className="link-button" onClick={p.onCompact} disabled={!p.canCompact} data-testid="compact" title="Summarise the older part of the conversation to free context">
        Compact
      </button>
      <button className="link-button" onClick={p.onNew} data-testid="new-conversation" title="A new conversation (Ctrl+N); one that runs goes on">New</button>
      <button className="link-button" onClick={p.onSettings} data-testid="open-settings" title="Settings">⚙</button>
    </header>
  )
})

// PaneNotes names the instruction files and skills the last request carried.
export const PaneNotes = memo(function PaneNotes({ extra }: { extra: Instructions | null }) {
  if (!extra) return null
  const skills = extra.skills
  return (
    <>
      {extra.files.length + (extra.user ? 1 : 0) > 0 ? (
        <div className="agent-instructions muted" data-testid="agent-instructions" title={extra.files.map((f) => `${f.path}: ${f.size} bytes${f.truncated ? ' (cut)' : ''}`).join('\n')}>
          Instructions: {[...extra.files.map((f) => f.path + (f.truncated ? ' (cut)' : '')), ...(extra.user ? ['yours'] : [])].join(', ')}
        </div>
      ) : null}
      {skills && skills.skills.length + (skills.problems?.length ?? 0) > 0 ? (
        <div
          className="agent-instructions muted"
          data-testid="agent-skills"
          title={[...skills.skills.map((k) => `${k.name}: ${k.path}`), ...(skills.problems ?? []).map((p) => `left out: ${p.path}: ${p.reason}`)].join('\n')}
        >
          Skills: {skills.skills.map((k) => k.name).join(', ') || 'none'}
          {skills.problems?.length ? ` (${skills.problems.length} left out)` : ''}
        </div>
      ) : null}
    </>
  )
})

export const PlanSteps = memo(function PlanSteps({ plan }: { plan?: PlanItem[] }) {
  if (!plan || plan.length === 0) return null
  return (
    <ol className="agent-plan" data-testid="plan">
      {plan.map((p, i) => (
        <li key={i} className={`plan-${p.status}`} data-testid="plan-step" data-status={p.status}>
          <span className="plan-mark">{p.status === 'done' ? '✓' : p.status === 'in_progress' ? '▸' : '○'}</span> {p.step}
        </li>
      ))}
    </ol>
  )
})

// QueuedMessages are the messages sent while the agent works, each editable and removable.
export const QueuedMessages = memo(function QueuedMessages({ queue, edit, remove }: { queue: Pending[]; edit: (id: string, change: Partial<Omit<Pending, 'id'>>) => void; remove: (id: string) => void }) {
  if (queue.length === 0) return null
  return (
    <ul className="queued" data-testid="queued" aria-label="Messages sent while the agent works">
      {queue.map((p) => (
        <li key={p.id} data-testid="queued-message">
          <input value={p.text} onChange={(e) => edit(p.id, { text: e.target.value })} aria-label="Queued message" data-testid="queued-text" />
          <select value={p.mode} onChange={(e) => edit(p.id, { mode: e.target.value as 'step' | 'next' })} aria-label="When it goes" data-testid="queued-mode" title="When the agent gets this message">
            <option value="step">at its next step</option>
            <option value="next">as the next request</option>
          </select>
          <button className="link-button" onClick={() => remove(p.id)} aria-label="Remove this queued message" data-testid="queued-remove">
            ✕
          </button>
        </li>
      ))}
    </ul>
  )
})

// PendingComments are the comments on a review's lines that go with the next request.
export const PendingComments = memo(function PendingComments({ comments, remove }: { comments?: string[]; remove: (k: number) => void }) {
  if (!comments || comments.length === 0) return null
  return (
    <ul className="review-comments" data-testid="pending-comments" aria-label="Comments that go with your next request">
      {comments.map((c, k) => (
        <li key={`${k} ${c}`} data-testid="pending-comment">
          <code>{c}</code>
          <button className="link-button" onClick={() => remove(k)} aria-label={`Remove the comment ${c}`} title="Remove this comment">
            ✕
          </button>
        </li>
      ))}
    </ul>
  )
})

// PaneOptions are plan mode and the step limit (a setting in settings.json).
export const PaneOptions = memo(function PaneOptions(p: { planMode: boolean; running: boolean; steps: string; onPlanMode: (on: boolean) => void; onSteps: (value: string) => void }) {
  return (
    <div className="agent-options" style={{ display: 'flex', gap: 12, fontSize: 12, alignItems: 'center' }}>
      <label className="agent-plan-mode" title="Plan mode: the agent may only read and plan; Start lets it act">
        <input type="checkbox" checked={p.planMode} onChange={(e) => p.onPlanMode(e.target.checked)} disabled={p.running} data-testid="plan-mode" />
        plan
      </label>
      <label className="agent-steps" title="Most model calls one request may take before the agent stops and asks whether to go on">
        steps
        <input type="number" min={1} max={10000} value={p.steps} onChange={(e) => p.onSteps(e.target.value)} data-testid="agent-step-limit" style={{ width: '4.5em', marginLeft: 4 }} aria-label="Step limit" />
      </label>
    </div>
  )
})

interface ActionsProps {
  active?: ProviderView
  models: string[] | null // the active provider's, once listed
  running: boolean
  context?: ContextUse
  windowNow?: number // the model's context window, before the first request says how full it is
  usage: Usage
  canSend: boolean
  blocked: string | null
  onStop: () => void
  onSend: () => void
  onListModels: () => void
  onPickModel: (model: string) => void
}

// PaneActions is the footer's last row: the model and its picker, how full the context is, the tokens and cost,
// and Send or Stop. Its numbers change once a model call ends, not with each streamed piece.
export const PaneActions = memo(function PaneActions({ active, models, running, context, windowNow, usage, canSend, blocked, onStop, onSend, onListModels, onPickModel }: ActionsProps) {
  return (
    <div className="agent-actions">
      <span className="agent-model" data-testid="agent-model">{active ? `${active.name} · ${active.model || 'no model'}` : 'no provider'}</span>
      {active ? (
        <select className="agent-model-pick" value={active.model} aria-label="Model" title="Model" data-testid="agent-model-pick" disabled={running} onFocus={onListModels} onChange={(e) => onPickModel(e.target.value)}>
          {active.model ? null : <option value="">choose a model…</option>}
          {[...new Set([active.model, ...(models ?? [])])].filter(Boolean).map((m) => (
            <option key={m} value={m}>
              {m}
            </option>
          ))}
        </select>
      ) : null}
      {context ? (
        <span
          className={`agent-context${context.used > 0.8 * context.window ? ' full' : ''}`}
          data-testid="agent-context"
          title="How full the model's context window was at the last request (the provider's count); older parts are summarised before it overflows"
        >
          context {compact(context.used)} / {compact(context.window)} ({Math.round((100 * context.used) / context.window)}%)
        </span>
      ) : windowNow ? (
        <span className="agent-context" data-testid="agent-context" title={active?.kind === 'ollama' ? "The model's context window, sent to Ollama as num_ctx with each request" : "The model's context window"}>
          context {compact(windowNow)}
        </span>
      ) : null}
      <span
        className="agent-usage"
        data-testid="agent-usage"
        title={
          usage.last
            ? `Tokens used by this conversation. Last request: ${usage.last.input.toLocaleString()} in (${usage.last.cached.toLocaleString()} from the provider's cache), ${usage.last.output.toLocaleString()} out`
            : 'Tokens used by this conversation'
        }
      >
        {usage.input.toLocaleString()} in{usage.cached ? <span data-testid="agent-cached"> ({usage.cached.toLocaleString()} cached)</span> : null} · {usage.output.toLocaleString()} out
        {usage.cost !== undefined ? (
          <span
            data-testid="agent-cost"
            title={`US dollars this conversation cost, as the provider reported it or at the price set for the model${usage.costUnknown ? `; ${usage.costUnknown} request(s) of unknown cost are not counted` : ''}`}
          >
            {' '}
            · {formatCost(usage.cost)}
            {usage.costUnknown ? '+' : ''}
            {usage.last?.cost !== undefined ? <span data-testid="agent-cost-last"> (last {formatCost(usage.last.cost)})</span> : null}
          </span>
        ) : null}
      </span>
      {running ? (
        <button key="stop" className="danger" onClick={onStop} data-testid="agent-stop" title="Stop the agent (Esc); what you queued goes back in the box">Stop</button>
      ) : (
        <button key="send" onClick={onSend} disabled={!canSend} title={blocked ? `Send is off: ${blocked}` : undefined} data-testid="agent-send">Send</button>
      )}
    </div>
  )
})

function compact(n: number): string {
  return n >= 1000 ? `${(n / 1000).toFixed(n >= 10_000 ? 0 : 1)}k` : String(n)
}
