import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react'
import type { AgentState } from '../agent/progress'
import { ProjectScopeContext, useProjectScope, type ProjectScope } from '../stores/project-scope'
import { keepSlot, projectState, type Slot } from '../agent/slots'
import { ConversationList, type ConversationMark } from './conversation-list'
import { ConversationPane, type AgentProps, type PaneHandle, type PaneInfo } from './conversation-pane'

// AgentPanel holds a project's conversations with the agent. Any number run at once: each conversation that runs,
// waits for the user or has news not yet seen keeps a pane of its own mounted (its own session: turn, approvals,
// cards, queue, Stop), the one in view shown and the others hidden, as the window keeps every open project's view.
// Each pane has a scope of its own inside the project's, so keys, approvals and notifications go to the pane in
// view, and the project's state on the rail is the sum of its conversations' (needs you if any needs approval).
export function AgentPanel(props: AgentProps) {
  const parent = useProjectScope()
  const seq = useRef(0)
  const [slots, setSlots] = useState<Slot[]>(() => [{ key: 's0' }])
  const [shownKey, setShownKey] = useState('s0')
  const [info, setInfo] = useState<Record<string, PaneInfo>>({})
  const [states, setStates] = useState<Record<string, AgentState>>({})
  const [reasons, setReasons] = useState<Record<string, string>>({})
  // What the list knows of conversations whose pane has gone (idle and seen): their cost this session.
  const [costs, setCosts] = useState<Record<string, number>>({})
  const [showList, setShowList] = useState(false)
  const handles = useRef(new Map<string, PaneHandle>())

  const { report: reportProject, unsaved: unsavedProject, shown: projectShown } = parent
  // The rail shows the project's state: needs you if any conversation does, else working if any works; a
  // conversation's done or failed counts there only while the project is out of sight (in sight, the list says it).
  const setState = useCallback(
    (key: string, f: (old: AgentState) => AgentState) =>
      setStates((all) => {
        const next = f(all[key] ?? '')
        return next === (all[key] ?? '') ? all : { ...all, [key]: next }
      }),
    [],
  )
  const aggregate = projectState(Object.values(states), projectShown)
  useEffect(() => reportProject(() => aggregate), [aggregate, reportProject])
  // The first reason any conversation is not saved is the project's.
  const setReason = useCallback((key: string, reason: string) => setReasons((all) => ((all[key] ?? '') === reason ? all : { ...all, [key]: reason })), [])
  const firstReason = Object.values(reasons).find(Boolean) ?? ''
  useEffect(() => unsavedProject(firstReason), [firstReason, unsavedProject])

  const onInfo = useCallback((key: string, i: PaneInfo) => {
    setInfo((all) => ({ ...all, [key]: i }))
    if (i.cost !== undefined) setCosts((all) => (all[i.id] === i.cost ? all : { ...all, [i.id]: i.cost as number }))
  }, [])
  const onHandle = useCallback((key: string, h: PaneHandle) => {
    handles.current.set(key, h)
  }, [])

  // show puts slot key in view; the panes that need nobody (idle, seen, saved) go, their conversations saved.
  const show = useCallback(
    (key: string, add?: Slot) => {
      setShownKey(key)
      const kept = (add ? [...slots, add] : slots).filter((s) => keepSlot(s.key, key, info[s.key], states[s.key], reasons[s.key]))
      setSlots(kept)
      // What the panes that go reported goes with them (a state left behind would stay on the rail).
      const keys = new Set(kept.map((s) => s.key))
      const only = <T,>(all: Record<string, T>) => Object.fromEntries(Object.entries(all).filter(([k]) => keys.has(k)))
      setInfo(only)
      setStates(only)
      setReasons(only)
      for (const k of [...handles.current.keys()]) if (!keys.has(k)) handles.current.delete(k)
    },
    [slots, info, states, reasons],
  )
  const slotOf = useCallback((id: string) => slots.find((s) => (info[s.key]?.id ?? s.initial?.id) === id), [slots, info])

  const open = useCallback(
    (id: string, title: string) => {
      const have = slotOf(id)
      if (have) {
        show(have.key)
        handles.current.get(have.key)?.focus()
      } else {
        const key = `s${++seq.current}`
        show(key, { key, initial: { id, title }, focus: true })
      }
      setShowList(false)
    },
    [slotOf, show],
  )
  // startNew reads the panel's state through a ref, so it keeps its identity and the panes (memoised) are not
  // rendered again each time one of them reports.
  const latest = useRef({ info, shownKey, show })
  useEffect(() => {
    latest.current = { info, shownKey, show }
  })
  const startNew = useCallback(() => {
    const { info, shownKey, show } = latest.current
    const now = info[shownKey]
    // The conversation in view is new and empty: it is the new one.
    if (now && !now.started && now.loaded) {
      handles.current.get(shownKey)?.focus()
      return
    }
    const key = `s${++seq.current}`
    show(key, { key, focus: true })
    setShowList(false)
  }, [])

  // The list: every saved conversation (as the freshest pane read them), with a new one not yet saved on top.
  const shownInfo = info[shownKey]
  const list = useMemo(() => {
    const saved = Object.values(info).reduce((best, i) => (i.list.length >= best.length ? i.list : best), shownInfo?.list ?? [])
    const unsavedNew = slots
      .map((s) => info[s.key])
      .filter((i): i is PaneInfo => !!i && i.started && !saved.some((m) => m.id === i.id))
      .map((i) => ({ id: i.id, title: i.title || 'New conversation', created: new Date().toISOString(), updated: new Date().toISOString() }))
    return [...unsavedNew, ...saved]
  }, [info, shownInfo, slots])
  const marks = useMemo(() => {
    const out: Record<string, ConversationMark> = {}
    for (const s of slots) {
      const i = info[s.key]
      if (!i) continue
      out[i.id] = { state: states[s.key] ?? '', running: i.running, cost: i.cost }
    }
    for (const [id, cost] of Object.entries(costs)) out[id] ??= { state: '', running: false, cost }
    return out
  }, [slots, info, states, costs])
  // The strip of conversations at work: those running, waiting, with news, or not saved yet (kept open until they are).
  const live = slots.filter((s) => info[s.key] && (s.key === shownKey || info[s.key].running || states[s.key] || reasons[s.key]))

  const toggleList = useCallback(() => setShowList((v) => !v), [])
  const rename = useCallback(
    (id: string, title: string) => {
      const s = slotOf(id)
      const h = handles.current.get(s?.key ?? shownKey)
      return h ? h.rename(id, title) : Promise.resolve()
    },
    [slotOf, shownKey],
  )
  const remove = useCallback(
    (id: string) => {
      const s = slotOf(id)
      if (s && info[s.key]?.running) return // Stop it first: the list offers no delete for it
      void handles.current.get(s?.key ?? shownKey)?.remove(id)
    },
    [slotOf, info, shownKey],
  )

  return (
    <section className="agent-panel" data-testid="agent-panel">
      {showList ? (
        <ConversationList list={list} selected={shownInfo?.id ?? ''} marks={marks} onOpen={(id) => open(id, list.find((m) => m.id === id)?.title ?? '')} onRename={rename} onRemove={remove} />
      ) : null}
      {live.length > 1 ? (
        <nav className="live-conversations" aria-label="Conversations at work" data-testid="live-conversations">
          {live.map((s) => {
            const i = info[s.key]
            const st = states[s.key] ?? ''
            return (
              <button
                key={s.key}
                className={`live-conversation${s.key === shownKey ? ' selected' : ''}`}
                onClick={() => {
                  show(s.key)
                  handles.current.get(s.key)?.focus()
                }}
                aria-current={s.key === shownKey ? 'true' : undefined}
                title={`${i.title || 'New conversation'}${st ? `: ${stateWords[st]}` : ''}`}
                data-testid="live-conversation"
                data-id={i.id}
                data-state={st}
              >
                {st ? <span className={`conversation-state ${st}`} role="img" aria-label={stateWords[st]} /> : null}
                <span className="live-conversation-title">{i.title || 'New conversation'}</span>
              </button>
            )
          })}
        </nav>
      ) : null}
      {slots.map((s) => (
        <PaneScope key={s.key} slot={s.key} shown={projectShown && s.key === shownKey} parent={parent} report={setState} unsaved={setReason} onInfo={onInfo} onHandle={onHandle}>
          {(info, handle) => <ConversationPane {...props} initial={s.initial} focus={s.focus} projectShown={projectShown} onInfo={info} handle={handle} onNew={startNew} onToggleList={toggleList} />}
        </PaneScope>
      ))}
    </section>
  )
}

const stateWords: Record<Exclude<AgentState, ''>, string> = {
  working: 'working',
  waiting: 'needs you',
  done: 'done',
  failed: 'stopped with an error',
}

interface PaneScopeProps {
  slot: string
  shown: boolean
  parent: ProjectScope
  report: (key: string, f: (old: AgentState) => AgentState) => void
  unsaved: (key: string, reason: string) => void
  onInfo: (key: string, i: PaneInfo) => void
  onHandle: (key: string, h: PaneHandle) => void
  children: (onInfo: (i: PaneInfo) => void, handle: (h: PaneHandle) => void) => ReactNode
}

// PaneScope is a conversation pane's own scope: the project's bridge, shown only while the project is shown and
// the pane is in view, its state, save failures and news reported under its slot (through callbacks that keep
// their identity, as the pane's effects depend on them).
function PaneScope({ slot, shown, parent, report, unsaved, onInfo, onHandle, children }: PaneScopeProps) {
  const reportMine = useCallback((f: (old: AgentState) => AgentState) => report(slot, f), [report, slot])
  const unsavedMine = useCallback((reason: string) => unsaved(slot, reason), [unsaved, slot])
  const infoMine = useCallback((i: PaneInfo) => onInfo(slot, i), [onInfo, slot])
  const handleMine = useCallback((h: PaneHandle) => onHandle(slot, h), [onHandle, slot])
  const scope = useMemo<ProjectScope>(() => ({ bridge: parent.bridge, shown, report: reportMine, unsaved: unsavedMine }), [parent.bridge, shown, reportMine, unsavedMine])
  return <ProjectScopeContext.Provider value={scope}>{children(infoMine, handleMine)}</ProjectScopeContext.Provider>
}
