import { memo, useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react'
import { ImageChips, usePastedImages } from './image-chips'
import { setActiveProvider, type ConversationMeta, type Project } from '../bridge'
import { useProjectScope } from '../stores/project-scope'
import { mentionAt } from '../agent/mentions'
import { commandAt, commandOptions } from '../agent/commands'
import { formatCost } from '../llm/cost'
import { contextWindow, listModels } from '../llm/providers'
import { useAgentSession } from '../stores/agent-session'
import { setStepLimit, stepLimit } from '../stores/step-limit'
import { AgentLog } from './agent-log'
import { Composer, type ComposerHandle } from './composer'
import { SetupCard, useProviderCheck } from './setup-card'
import { useShortcut } from './shortcuts'
import { TurnStatus, useAttention } from './turn-status'
import { conversationRange, turnRange } from '../agent/turn-review'
import { titleFrom } from '../agent/conversation'
import type { ReviewRequest } from '../views/review-pane'

interface Props {
  project: Project
  onOpen: (rel: string, line?: number) => void
  onSettings: () => void
  // settingsSeq changes when the settings screen saved something; the panel reloads providers and settings.
  settingsSeq: number
  // mention, when its seq changes, is added to the request box (the file pane's selected lines).
  mention?: { text: string; seq: number } | null
  // onReview opens a turn's review in the centre pane.
  onReview?: (r: Omit<ReviewRequest, 'seq'>) => void
  // initial is the saved conversation this pane opens when it mounts (none: a new one).
  initial?: { id: string; title: string }
  focus?: boolean // the request box takes the focus as the pane mounts
  // projectShown says whether the pane's project is the one shown (its own scope's shown says whether the pane is).
  projectShown: boolean
  // onInfo hears what the conversation list shows of this pane: its conversation, state and cost.
  onInfo: (info: PaneInfo) => void
  // handle receives what the list does to the conversation this pane holds (rename, delete).
  handle: (h: PaneHandle) => void
  onNew: () => void
  onToggleList: () => void
}

// PaneInfo is a pane's conversation as the list of conversations shows it.
export interface PaneInfo {
  id: string
  title: string
  items: number
  running: boolean
  cost?: number
  list: ConversationMeta[] // the project's saved conversations, as this pane's store last read them
  unsaved: boolean
  loaded: boolean // the saved conversation it opens is shown (always true for a new one)
}

export interface PaneHandle {
  rename: (id: string, title: string) => Promise<void>
  remove: (id: string) => Promise<void>
  focus: () => void // the request box, once the pane is in view
}

// ConversationPane is one conversation with the agent: the request box, the streamed answer, a card per tool call
// with its approval, Stop, and the tokens used. Each conversation that runs has a pane of its own, mounted whether
// it is shown or not (AgentPanel keeps them): its own session, so its turn, approvals and queue are its own.
export const ConversationPane = memo(function ConversationPane({ project, onOpen, onSettings, settingsSeq, mention, onReview, initial, focus, projectShown, onInfo, handle, onNew, onToggleList }: Props) {
  const { bridge, shown } = useProjectScope()
  const { callTool } = bridge
  const s = useAgentSession(project)
  const title = s.conv.title || 'New conversation'
  // A conversation out of sight in the project shown is named by its title; in a project not shown, by the project.
  useAttention(s.conv.items, s.running, s.conv.title || project.name, projectShown ? title : project.name)
  const review = useCallback(
    (i: number) => {
      const it = s.conv.items[i]
      onReview?.({
        root: project.root,
        title: it?.kind === 'user' ? titleFrom(it.text) : 'this turn',
        turn: turnRange(s.conv.items, i),
        conversation: conversationRange(s.conv.items),
        scope: 'turn',
        actions: { restore: s.restoreFiles, comment: s.addComment, tell: s.tell },
      })
    },
    [s, onReview, project.root],
  )
  // The saved conversation the pane was made for is loaded once, as it mounts.
  const [loaded, setLoaded] = useState(!initial)
  const openRef = useRef(s.open)
  const initialRef = useRef(initial)
  useEffect(() => {
    const first = initialRef.current
    if (!first) return
    let live = true
    openRef.current(first.id, first.title)
      .catch(() => false)
      .finally(() => {
        if (live) setLoaded(true)
      })
    return () => {
      live = false
    }
  }, [])
  const cost = s.conv.usage.cost
  const { running, list, saveError, rename, remove } = s
  useEffect(() => {
    onInfo({ id: s.conv.id, title: s.conv.title, items: s.conv.items.length, running, cost, list, unsaved: saveError !== null, loaded })
  }, [onInfo, s.conv.id, s.conv.title, s.conv.items.length, running, cost, list, saveError, loaded])
  // The text typed is the composer's own state (a key renders the box alone); the pane knows only whether the box
  // holds anything, for Send.
  const composer = useRef<ComposerHandle>(null)
  const input = useRef<HTMLTextAreaElement>(null)
  const [filled, setFilled] = useState(false)
  const setText = (next: string | ((t: string) => string)) => composer.current?.setText(next)
  // The log's callbacks keep their identity, so the memoised log is not rendered again when the pane is.
  const editResend = useCallback((t: string) => {
    composer.current?.setText(t)
    input.current?.focus()
  }, [])
  // Focus waits a frame: the pane just put in view is hidden until its render lands.
  useEffect(() => {
    handle({ rename, remove, focus: () => requestAnimationFrame(() => input.current?.focus()) })
  }, [handle, rename, remove])
  // A pane the user asked for takes the focus as it lands (before it paints, so the first key typed is in the box).
  const focusFirst = useRef(focus)
  useLayoutEffect(() => {
    if (focusFirst.current) input.current?.focus()
  }, [])
  const [models, setModels] = useState<string[] | null>(null) // the active provider's, listed on first use
  // The @mention being typed and the project paths that complete it.
  const [complete, setComplete] = useState<{ start: number; query: string; options: string[]; index: number; sigil?: '/' } | null>(null)
  const lookup = useRef(0)
  const closeComplete = useCallback(() => setComplete(null), [])
  const suggest = (value: string, caret: number) => {
    const cmd = commandAt(value, caret) // a /command's name, completed from the commands and skills found
    if (cmd) {
      const options = commandOptions(cmd.query, s.extra?.commands ?? [], s.extra?.skills?.skills ?? [])
      return setComplete(options.length ? { ...cmd, options, index: 0, sigil: '/' } : null)
    }
    const at = mentionAt(value, caret)
    if (!at) return setComplete(null)
    const seq = ++lookup.current
    const q = at.query.replace(/[*?[\]{}]/g, '')
    const glob = q.includes('/') ? [`${q}*`, `**/${q}*`] : [`**/*${q}*`]
    callTool('find_files', { glob, path: '.', limit: 8 })
      .then((r) => {
        if (seq === lookup.current) setComplete({ ...at, options: r.files.map((f) => f.path), index: 0 })
      })
      .catch(() => setComplete(null))
  }
  const pick = (path: string) => {
    if (!complete) return
    const text = composer.current?.text() ?? ''
    // The word as typed now: keys typed after the options were listed (a fast typist's last letters) belong to
    // it and go with it, rather than staying behind the completion.
    const caretNow = input.current?.selectionStart ?? text.length
    const at = (complete.sigil ? commandAt : mentionAt)(text, caretNow)
    const start = at && at.start === complete.start ? at.start : complete.start
    const end = at && at.start === complete.start ? caretNow : complete.start + 1 + complete.query.length
    const next = `${text.slice(0, start)}${complete.sigil ?? '@'}${path} ${text.slice(end)}`
    setText(next)
    setComplete(null)
    requestAnimationFrame(() => {
      const pos = start + path.length + 2
      input.current?.setSelectionRange(pos, pos)
      input.current?.focus()
    })
  }
  const { refreshProviders, refreshSettings } = s
  useEffect(() => {
    if (settingsSeq > 0) {
      refreshProviders()
      refreshSettings()
    }
  }, [settingsSeq, refreshProviders, refreshSettings])
  // The step limit is a setting (settings.json); the box under the request shows and changes it.
  const [steps, setSteps] = useState('')
  useEffect(() => {
    let live = true
    stepLimit()
      .then((n) => {
        if (live) setSteps(String(n))
      })
      .catch(() => undefined)
    return () => {
      live = false
    }
  }, [settingsSeq])
  const changeSteps = (value: string) => {
    setSteps(value)
    const n = Number(value)
    if (Number.isInteger(n) && n > 0) void setStepLimit(n).catch(() => undefined)
  }

  // A new mention is added to the request by the composer (only the pane shown takes it), then the box takes focus.
  const shownRef = useRef(shown)
  useEffect(() => {
    shownRef.current = shown
  })
  useEffect(() => {
    if (mention && shownRef.current) input.current?.focus()
  }, [mention])

  const active = s.providers?.providers.find((p) => p.id === s.providers?.active)
  const activeId = active?.id
  // The context window the chosen model runs with (for Ollama, the num_ctx each request carries), shown before the
  // first request says how full it is.
  const windowKey = active?.model ? `${active.id} ${active.base_url} ${active.model} ${active.context_window}` : ''
  const [inForce, setInForce] = useState<{ key: string; tokens: number } | null>(null)
  useEffect(() => {
    if (!active?.model) return
    let live = true
    contextWindow(active, active.model)
      .then((tokens) => {
        if (live) setInForce({ key: windowKey, tokens })
      })
      .catch(() => undefined)
    return () => {
      live = false
    }
  }, [active, windowKey])
  const windowNow = inForce && inForce.key === windowKey ? inForce.tokens : undefined
  const [modelsFor, setModelsFor] = useState(activeId)
  if (modelsFor !== activeId) {
    setModelsFor(activeId)
    setModels(null) // another provider's list is asked for again on first use
  }
  // The first run: a provider that does not answer blocks Send, with the reason and a card to fix it; the typed
  // request stays in the box.
  const setup = useProviderCheck(active, s.providers !== null, s.refreshProviders)
  const blocked = setup.blocked ?? (active && !active.model && !setup.checking ? `Choose a model for ${active.name} in the picker below` : null)
  // Esc stops a turn (an approval card waiting takes Esc first, as Deny; an open @-file list closes first);
  // Ctrl+N starts a conversation; Ctrl+L goes to the request box.
  // Stop puts what was queued back in the request box, to send again or not.
  const stop = () => {
    s.stop()
    const back = s.takeQueue()
    if (back.length) setText((t) => [t.trim(), ...back].filter(Boolean).join('\n\n'))
  }
  useShortcut('Esc', () => {
    if (!s.running || document.querySelector('[data-testid="mention-list"]')) return false
    stop()
  })
  // A new conversation opens beside this one, which goes on if it runs.
  useShortcut('Ctrl+N', () => onNew())
  useShortcut('Ctrl+L', () => input.current?.focus())
  const pasted = usePastedImages(active?.text_only ?? false)
  // While the agent works, Enter queues the message: given to the model at its next step unless the user makes
  // it the next request.
  const submit = () => {
    const t = (composer.current?.text() ?? '').trim()
    if (t && s.running) {
      s.enqueue(t)
      setText('')
      return
    }
    if (!t || s.running || !s.ready || blocked) return
    setText('')
    const sent = pasted.images
    pasted.clear()
    // The focus stays in the request box (not on Stop, where Enter would stop the turn an approval waits in).
    input.current?.focus()
    void s.send(t, sent.length ? { images: sent } : {})
  }
  return (
    <section className="conversation-pane" data-testid="conversation-pane" data-conversation={s.conv.id} hidden={!shown}>
      <header className="agent-header">
        <button className="link-button" onClick={onToggleList} data-testid="conversations-toggle" title="Conversations">
          ☰
        </button>
        <span className="agent-title" data-testid="conversation-title">{title}</span>
        <button className="link-button" onClick={() => void s.compactNow()} disabled={s.running || s.conv.messages.length < 3} data-testid="compact" title="Summarise the older part of the conversation to free context">
          Compact
        </button>
        <button className="link-button" onClick={onNew} data-testid="new-conversation" title="A new conversation (Ctrl+N); one that runs goes on">New</button>
        <button className="link-button" onClick={onSettings} data-testid="open-settings" title="Settings">⚙</button>
      </header>
      <SetupCard
        check={setup}
        taken={s.providers?.providers ?? []}
        onAdded={() => {
          s.refreshProviders()
          input.current?.focus() // the request typed before setting up is ready to send
        }}
      />
      {s.extra && s.extra.files.length + (s.extra.user ? 1 : 0) > 0 ? (
        <div className="agent-instructions muted" data-testid="agent-instructions" title={s.extra.files.map((f) => `${f.path}: ${f.size} bytes${f.truncated ? ' (cut)' : ''}`).join('\n')}>
          Instructions: {[...s.extra.files.map((f) => f.path + (f.truncated ? ' (cut)' : '')), ...(s.extra.user ? ['yours'] : [])].join(', ')}
        </div>
      ) : null}
      {s.extra?.skills && s.extra.skills.skills.length + (s.extra.skills.problems?.length ?? 0) > 0 ? (
        <div
          className="agent-instructions muted"
          data-testid="agent-skills"
          title={[...s.extra.skills.skills.map((k) => `${k.name}: ${k.path}`), ...(s.extra.skills.problems ?? []).map((p) => `left out: ${p.path}: ${p.reason}`)].join('\n')}
        >
          Skills: {s.extra.skills.skills.map((k) => k.name).join(', ') || 'none'}
          {s.extra.skills.problems?.length ? ` (${s.extra.skills.problems.length} left out)` : ''}
        </div>
      ) : null}
      {s.conv.plan && s.conv.plan.length > 0 ? (
        <ol className="agent-plan" data-testid="plan">
          {s.conv.plan.map((p, i) => (
            <li key={i} className={`plan-${p.status}`} data-testid="plan-step" data-status={p.status}>
              <span className="plan-mark">{p.status === 'done' ? '✓' : p.status === 'in_progress' ? '▸' : '○'}</span> {p.step}
            </li>
          ))}
        </ol>
      ) : null}
      <AgentLog
        s={s}
        placeholder={active ? `Ask ${active.name}${active.model ? ` (${active.model})` : ''} to work on ${project.name}.` : 'Set up a model provider in Settings.'}
        onOpen={onOpen}
        onEditResend={editResend}
        onReview={review}
      />
      {s.running ? <TurnStatus items={s.conv.items} activity={s.activity} /> : null}
      <footer className="agent-footer">
        {complete && complete.options.length > 0 ? (
          <ul className="mention-list" role="listbox" data-testid="mention-list">
            {complete.options.map((o, i) => (
              <li key={o} role="option" aria-selected={i === complete.index} className={i === complete.index ? 'selected' : ''} onMouseDown={(e) => { e.preventDefault(); pick(o) }} data-testid="mention-option">
                {o}
              </li>
            ))}
          </ul>
        ) : null}
        {s.queue.length > 0 ? (
          <ul className="queued" data-testid="queued" aria-label="Messages sent while the agent works">
            {s.queue.map((p) => (
              <li key={p.id} data-testid="queued-message">
                <input value={p.text} onChange={(e) => s.editQueued(p.id, { text: e.target.value })} aria-label="Queued message" data-testid="queued-text" />
                <select value={p.mode} onChange={(e) => s.editQueued(p.id, { mode: e.target.value as 'step' | 'next' })} aria-label="When it goes" data-testid="queued-mode" title="When the agent gets this message">
                  <option value="step">at its next step</option>
                  <option value="next">as the next request</option>
                </select>
                <button className="link-button" onClick={() => s.removeQueued(p.id)} aria-label="Remove this queued message" data-testid="queued-remove">
                  ✕
                </button>
              </li>
            ))}
          </ul>
        ) : null}
        {s.conv.comments && s.conv.comments.length > 0 ? (
          <ul className="review-comments" data-testid="pending-comments" aria-label="Comments that go with your next request">
            {s.conv.comments.map((c, k) => (
              <li key={`${k} ${c}`} data-testid="pending-comment">
                <code>{c}</code>
                <button className="link-button" onClick={() => s.removeComment(k)} aria-label={`Remove the comment ${c}`} title="Remove this comment">
                  ✕
                </button>
              </li>
            ))}
          </ul>
        ) : null}
        <ImageChips images={pasted.images} error={pasted.error} remove={pasted.remove} />
        <Composer
          handle={composer}
          input={input}
          onFilled={setFilled}
          onInput={suggest}
          onBlur={closeComplete}
          onKeyDown={(e) => {
            if (complete && complete.options.length > 0) {
              if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
                e.preventDefault()
                const n = complete.options.length
                setComplete({ ...complete, index: (complete.index + (e.key === 'ArrowDown' ? 1 : n - 1)) % n })
                return
              }
              if (e.key === 'Enter' || e.key === 'Tab') {
                e.preventDefault()
                pick(complete.options[complete.index])
                return
              }
              if (e.key === 'Escape') {
                setComplete(null)
                return
              }
            }
            if (e.key === 'Enter' && !e.shiftKey) {
              e.preventDefault()
              submit()
            }
          }}
          onPaste={pasted.onPaste}
          onDrop={pasted.onDrop}
          placeholder={s.running ? 'The agent is working: Enter queues a message for it (given at its next step)' : 'Ask the agent (Enter to send, Shift+Enter for a new line, @ to attach a file, / for a command)'}
          mention={mention}
          shown={shown}
        />
        {blocked ? (
          <div className="send-blocked" data-testid="send-blocked" role="status">
            Send is off: {blocked}
          </div>
        ) : null}
        <div className="agent-options" style={{ display: 'flex', gap: 12, fontSize: 12, alignItems: 'center' }}>
          <label className="agent-plan-mode" title="Plan mode: the agent may only read and plan; Start lets it act">
            <input type="checkbox" checked={!!s.conv.planMode} onChange={(e) => s.setPlanMode(e.target.checked)} disabled={s.running} data-testid="plan-mode" />
            plan
          </label>
          <label className="agent-steps" title="Most model calls one request may take before the agent stops and asks whether to go on">
            steps
            <input
              type="number"
              min={1}
              max={10000}
              value={steps}
              onChange={(e) => changeSteps(e.target.value)}
              data-testid="agent-step-limit"
              style={{ width: '4.5em', marginLeft: 4 }}
              aria-label="Step limit"
            />
          </label>
        </div>
        <div className="agent-actions">
          <span className="agent-model" data-testid="agent-model">{active ? `${active.name} · ${active.model || 'no model'}` : 'no provider'}</span>
          {active ? (
            <select
              className="agent-model-pick"
              value={active.model}
              aria-label="Model"
              title="Model"
              data-testid="agent-model-pick"
              disabled={s.running}
              onFocus={() => {
                if (models === null) {
                  listModels(active)
                    .then(setModels)
                    .catch(() => setModels([]))
                }
              }}
              onChange={(e) => {
                void setActiveProvider(active.id, e.target.value).then(() => s.refreshProviders())
              }}
            >
              {active.model ? null : <option value="">choose a model…</option>}
              {[...new Set([active.model, ...(models ?? [])])].filter(Boolean).map((m) => (
                <option key={m} value={m}>
                  {m}
                </option>
              ))}
            </select>
          ) : null}
          {s.conv.context ? (
            <span
              className={`agent-context${s.conv.context.used > 0.8 * s.conv.context.window ? ' full' : ''}`}
              data-testid="agent-context"
              title="How full the model's context window was at the last request (the provider's count); older parts are summarised before it overflows"
            >
              context {compact(s.conv.context.used)} / {compact(s.conv.context.window)} ({Math.round((100 * s.conv.context.used) / s.conv.context.window)}%)
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
              s.conv.usage.last
                ? `Tokens used by this conversation. Last request: ${s.conv.usage.last.input.toLocaleString()} in (${s.conv.usage.last.cached.toLocaleString()} from the provider's cache), ${s.conv.usage.last.output.toLocaleString()} out`
                : 'Tokens used by this conversation'
            }
          >
            {s.conv.usage.input.toLocaleString()} in{s.conv.usage.cached ? <span data-testid="agent-cached"> ({s.conv.usage.cached.toLocaleString()} cached)</span> : null} · {s.conv.usage.output.toLocaleString()} out
            {s.conv.usage.cost !== undefined ? (
              <span
                data-testid="agent-cost"
                title={`US dollars this conversation cost, as the provider reported it or at the price set for the model${s.conv.usage.costUnknown ? `; ${s.conv.usage.costUnknown} request(s) of unknown cost are not counted` : ''}`}
              >
                {' '}
                · {formatCost(s.conv.usage.cost)}
                {s.conv.usage.costUnknown ? '+' : ''}
                {s.conv.usage.last?.cost !== undefined ? <span data-testid="agent-cost-last"> (last {formatCost(s.conv.usage.last.cost)})</span> : null}
              </span>
            ) : null}
          </span>
          {s.running ? (
            <button key="stop" className="danger" onClick={stop} data-testid="agent-stop" title="Stop the agent (Esc); what you queued goes back in the box">Stop</button>
          ) : (
            <button key="send" onClick={submit} disabled={!filled || !s.ready || !!blocked} title={blocked ? `Send is off: ${blocked}` : undefined} data-testid="agent-send">Send</button>
          )}
        </div>
      </footer>
    </section>
  )
})

function compact(n: number): string {
  return n >= 1000 ? `${(n / 1000).toFixed(n >= 10_000 ? 0 : 1)}k` : String(n)
}
