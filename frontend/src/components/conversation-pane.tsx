import { memo, useCallback, useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react'
import { ImageChips, usePastedImages } from './image-chips'
import { setActiveProvider, type ConversationMeta, type Project, type ProviderView } from '../bridge'
import { useProjectScope } from '../stores/project-scope'
import { mentionAt } from '../agent/mentions'
import { commandAt, commandOptions } from '../agent/commands'
import { contextWindow, listModels } from '../llm/providers'
import { useAgentSession } from '../stores/agent-session'
import { setStepLimit, stepLimit } from '../stores/step-limit'
import { AgentLog } from './agent-log'
import { Composer, type ComposerHandle } from './composer'
import { SetupCard, useProviderCheck } from './setup-card'
import { useShortcut } from './shortcuts'
import { TurnStatus, useAttention } from './turn-status'
import { PaneActions, PaneHeader, PaneNotes, PaneOptions, PendingComments, PlanSteps, QueuedMessages, useHandler } from './pane-parts'
import { useStable } from '../lib/use-stable'
import { useSequence } from '../lib/use-sequence'
import { conversationRange, turnRange } from '../agent/turn-review'
import { titleFrom } from '../agent/conversation'
import type { ReviewRequest } from '../views/review-pane'

// AgentProps is what the workbench gives a project's agent panel, which passes it as it is to each of its panes.
export interface AgentProps {
  project: Project
  onOpen: (rel: string, line?: number) => void
  onSettings: () => void
  // settingsSeq changes when the settings screen saved something; the panel reloads providers and settings.
  settingsSeq: number
  // mention, when its seq changes, is added to the request box (the file pane's selected lines).
  mention?: { text: string; seq: number } | null
  // onReview opens a turn's review in the centre pane.
  onReview?: (r: Omit<ReviewRequest, 'seq'>) => void
}

interface Props extends AgentProps {
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
  // started: it holds anything (a request, a notice). Not the number of items, which grows with every call and
  // would render the whole panel for each.
  started: boolean
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
  const started = s.conv.items.length > 0
  useEffect(() => {
    onInfo({ id: s.conv.id, title: s.conv.title, started, running, cost, list, unsaved: saveError !== null, loaded })
  }, [onInfo, s.conv.id, s.conv.title, started, running, cost, list, saveError, loaded])
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
  // The active provider's models, listed on first use; kept with the provider they are of, so a list answering after
  // another provider was made active (in Settings) is not offered as its models.
  const [listed, setModels] = useState<{ of: string; models: string[] } | null>(null)
  // The @mention being typed and the project paths that complete it.
  const [complete, setComplete] = useState<{ start: number; query: string; options: string[]; index: number; sigil?: '/' } | null>(null)
  const nextLookup = useSequence()
  // Closing the list (a pick, Escape) drops the lookups still on their way: one answering late (a key typed
  // before the pick) must not open the list again, where the next Enter would pick instead of sending.
  const closeComplete = useCallback(() => {
    nextLookup()
    setComplete(null)
  }, [nextLookup])
  const suggest = useHandler((value: string, caret: number) => {
    const fresh = nextLookup() // every key makes the lookups before it stale
    const cmd = commandAt(value, caret) // a /command's name, completed from the commands and skills found
    if (cmd) {
      const options = commandOptions(cmd.query, s.extra?.commands ?? [], s.extra?.skills?.skills ?? [])
      return setComplete(options.length ? { ...cmd, options, index: 0, sigil: '/' } : null)
    }
    const at = mentionAt(value, caret)
    if (!at) return setComplete(null)
    const q = at.query.replace(/[*?[\]{}]/g, '')
    const glob = q.includes('/') ? [`${q}*`, `**/${q}*`] : [`**/*${q}*`]
    callTool('find_files', { glob, path: '.', limit: 8 })
      .then((r) => {
        if (fresh()) setComplete({ ...at, options: r.files.map((f) => f.path), index: 0 })
      })
      .catch(() => {
        if (fresh()) setComplete(null)
      })
  })
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
    closeComplete()
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
  const changeSteps = useHandler((value: string) => {
    setSteps(value)
    const n = Number(value)
    if (Number.isInteger(n) && n > 0) void setStepLimit(n).catch(() => undefined)
  })

  // A new mention is added to the request by the composer (only the pane shown takes it), then the box takes focus.
  const shownRef = useRef(shown)
  useEffect(() => {
    shownRef.current = shown
  })
  useEffect(() => {
    if (mention && shownRef.current) input.current?.focus()
  }, [mention])

  const active = s.providers?.providers.find((p) => p.id === s.providers?.active)
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
  const modelsOf = active ? `${active.id} ${active.base_url}` : ''
  const models = listed && listed.of === modelsOf ? listed.models : null // another provider's is asked for again on first use
  // The first run: a provider that does not answer blocks Send, with the reason and a card to fix it; the typed
  // request stays in the box.
  const setup = useProviderCheck(active, s.providers !== null, s.refreshProviders)
  const setupCheck = useStable(setup)
  const setupAdded = useHandler(() => {
    s.refreshProviders()
    input.current?.focus() // the request typed before setting up is ready to send
  })
  const blocked = setup.blocked ?? (active && !active.model && !setup.checking ? `Choose a model for ${active.name} in the picker below` : null)
  // Esc stops a turn (an approval card waiting takes Esc first, as Deny; an open @-file list closes first);
  // Ctrl+N starts a conversation; Ctrl+L goes to the request box.
  // Stop puts what was queued back in the request box, to send again or not.
  const stop = useHandler(() => {
    s.stop()
    const back = s.takeQueue()
    if (back.length) setText((t) => [t.trim(), ...back].filter(Boolean).join('\n\n'))
  })
  useShortcut('Esc', () => {
    if (!s.running || document.querySelector('[data-testid="mention-list"]')) return false
    stop()
  })
  // A new conversation opens beside this one, which goes on if it runs.
  useShortcut('Ctrl+N', () => onNew())
  useShortcut('Ctrl+L', () => input.current?.focus())
  const pasted = usePastedImages(active?.text_only ?? false)
  const paste = useHandler(pasted.onPaste)
  const drop = useHandler(pasted.onDrop)
  const removeImage = useHandler(pasted.remove)
  // While the agent works, Enter queues the message: given to the model at its next step unless the user makes
  // it the next request.
  const submit = useHandler(() => {
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
  })
  const keyDown = useHandler((e: KeyboardEvent<HTMLTextAreaElement>) => {
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
        closeComplete()
        return
      }
    }
    if (e.key === 'Enter' && !e.shiftKey) {
      e.preventDefault()
      submit()
    }
  })
  const compactNow = useHandler(() => void s.compactNow())
  // The model picker lists the provider's models the first time it is opened.
  const listTheModels = useHandler(() => {
    if (models === null && active) {
      const of = modelsOf
      listModels(active)
        .then((models) => setModels({ of, models }))
        .catch(() => setModels({ of, models: [] }))
    }
  })
  const pickModel = useHandler((model: string) => {
    if (active) void setActiveProvider(active.id, model).then(() => s.refreshProviders())
  })
  const placeholder = active ? `Ask ${active.name}${active.model ? ` (${active.model})` : ''} to work on ${project.name}.` : 'Set up a model provider in Settings.'
  return (
    <section className="conversation-pane" data-testid="conversation-pane" data-conversation={s.conv.id} hidden={!shown}>
      <PaneHeader title={title} canCompact={!s.running && s.conv.messages.length >= 3} onCompact={compactNow} onNew={onNew} onToggleList={onToggleList} onSettings={onSettings} />
      <MemoSetupCard check={setupCheck} taken={s.providers?.providers ?? noProviders} onAdded={setupAdded} />
      <PaneNotes extra={s.extra} />
      <PlanSteps plan={s.conv.plan} />
      <AgentLog s={s} placeholder={placeholder} onOpen={onOpen} onEditResend={editResend} onReview={review} />
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
        <QueuedMessages queue={s.queue} edit={s.editQueued} remove={s.removeQueued} />
        <PendingComments comments={s.conv.comments} remove={s.removeComment} />
        <ImageChips images={pasted.images} error={pasted.error} remove={removeImage} />
        <Composer
          handle={composer}
          input={input}
          onFilled={setFilled}
          onInput={suggest}
          onBlur={closeComplete}
          onKeyDown={keyDown}
          onPaste={paste}
          onDrop={drop}
          placeholder={s.running ? 'The agent is working: Enter queues a message for it (given at its next step)' : 'Ask the agent (Enter to send, Shift+Enter for a new line, @ to attach a file, / for a command)'}
          mention={mention}
          shown={shown}
        />
        {blocked ? (
          <div className="send-blocked" data-testid="send-blocked" role="status">
            Send is off: {blocked}
          </div>
        ) : null}
        <PaneOptions planMode={!!s.conv.planMode} running={s.running} steps={steps} onPlanMode={s.setPlanMode} onSteps={changeSteps} />
        <PaneActions
          active={active}
          models={models}
          running={s.running}
          context={s.conv.context}
          windowNow={windowNow}
          usage={s.conv.usage}
          canSend={filled && s.ready && !blocked}
          blocked={blocked}
          onStop={stop}
          onSend={submit}
          onListModels={listTheModels}
          onPickModel={pickModel}
        />
      </footer>
    </section>
  )
})

// noProviders is the setup card's list before the providers are read: the same array each time, so the card's
// props stay equal.
const noProviders: ProviderView[] = []

// The setup card shows only while a provider does not answer; memoised, it leaves the pane's renders alone.
const MemoSetupCard = memo(SetupCard)
