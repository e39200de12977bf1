import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react'
import type { Project, Snapshot } from '../bridge'
import { FileTree } from '../components/file-tree'
import { HistoryPanel } from '../components/history-panel'
import { RunPanel } from '../components/run-panel'
import { SearchPanel } from '../components/search-panel'
import { FilePane } from './file-pane'
import { SnapshotPane } from './snapshot-pane'
import { ReviewPane, type ReviewRequest } from './review-pane'
import { useLiveProject } from '../stores/live-project'
import { WatchBadge, WatchNotice } from '../components/watch-badge'
import { AgentPanel } from '../components/agent-panel'
import { SettingsScreen } from './settings-screen'
import { QuickOpen } from '../components/quick-open'
import { ShortcutsHelp, useShortcut } from '../components/shortcuts'
import { Splitter } from '../components/splitter'
import { clampWidth, loadWidth, saveWidth } from '../lib/panel-width'

// narrowBelow is the window width (px) under which the three areas become tabs, one shown at a time.
const narrowBelow = 1100
type Area = 'side' | 'main' | 'agent'
const areaNames: Record<Area, string> = { side: 'Project', main: 'Editor', agent: 'Agent' }

// useNarrow follows whether the window is narrower than narrowBelow.
function useNarrow(): boolean {
  const query = `(max-width: ${narrowBelow - 1}px)`
  const [narrow, setNarrow] = useState(() => window.matchMedia(query).matches)
  useEffect(() => {
    const m = window.matchMedia(query)
    const on = () => setNarrow(m.matches)
    m.addEventListener('change', on)
    return () => m.removeEventListener('change', on)
  }, [query])
  return narrow
}

interface Props {
  project: Project
  onClose: () => void
  headerExtra?: ReactNode // beside the project's name (the worktree menu)
}

type Tab = 'files' | 'search' | 'run' | 'history'

// Target is what the viewer shows: a file, and a line to reveal when it came from a search hit. seq makes a
// second click on the same hit reveal it again.
export interface Target {
  rel: string
  line?: number
  seq: number
}

// Workbench is the open-project screen: files or search on the left, the file on the right.
export function Workbench({ project, onClose, headerExtra }: Props) {
  const [tab, setTab] = useState<Tab>('files')
  // The layout: the agent panel's width (kept across restarts); in a narrow window, the area shown.
  const narrow = useNarrow()
  const [area, setArea] = useState<Area>('main')
  const [width, setWidth] = useState(() => loadWidth(globalThis.localStorage))
  const bench = useRef<HTMLDivElement>(null)
  const side = useRef<HTMLElement>(null)
  const room = useCallback(() => (bench.current?.clientWidth ?? window.innerWidth) - (side.current?.offsetWidth ?? 0), [])
  useEffect(() => {
    // A smaller window narrows the panel for as long as it has to, without forgetting the width chosen.
    const fit = () => setWidth(clampWidth(loadWidth(globalThis.localStorage), room()))
    fit()
    window.addEventListener('resize', fit)
    return () => window.removeEventListener('resize', fit)
  }, [room, narrow])
  const [target, setTarget] = useState<Target | null>(null)
  const [snapshot, setSnapshot] = useState<Snapshot | null>(null)
  // review is a turn's changes shown in the centre pane, in place of the file.
  const [review, setReview] = useState<ReviewRequest | null>(null)
  const showReview = useCallback((r: Omit<ReviewRequest, 'seq'>) => {
    setSnapshot(null)
    setArea('main')
    setReview((old) => ({ ...r, seq: (old?.seq ?? 0) + 1 }))
  }, [])
  const [historySeq, setHistorySeq] = useState(0)
  const live = useLiveProject(project.root)
  const [settingsOpen, setSettingsOpen] = useState(false)
  const [settingsSeq, setSettingsSeq] = useState(0)
  // mention is text the file pane hands to the request box (the selected lines as @path:a-b).
  const [mention, setMention] = useState<{ text: string; seq: number } | null>(null)
  const mentionLines = useCallback((text: string) => setMention((m) => ({ text, seq: (m?.seq ?? 0) + 1 })), [])
  const open = useCallback((rel: string, line?: number) => {
    setSnapshot(null)
    setReview(null)
    setArea('main')
    setTarget((t) => ({ rel, line, seq: (t?.seq ?? 0) + 1 }))
  }, [])
  const showTab = (t: Tab) => {
    setTab(t)
    if (t === 'history') setHistorySeq((n) => n + 1)
  }
  // The window's shortcuts (the agent panel has its own: Esc, Ctrl+N, Ctrl+L); Ctrl+/ lists them all.
  const [quickOpen, setQuickOpen] = useState(false)
  const [help, setHelp] = useState(false)
  useShortcut('Ctrl+,', () => setSettingsOpen(true))
  useShortcut('Ctrl+P', () => setQuickOpen(true))
  useShortcut('Ctrl+/', () => setHelp((h) => !h))
  useShortcut('Ctrl+Shift+F', () => {
    showTab('search')
    requestAnimationFrame(() => bench.current?.querySelector<HTMLInputElement>('[data-testid="search-input"]')?.focus())
  })
  return (
    <div className={`workbench${narrow ? ' narrow' : ''}`} ref={bench}>
      {narrow ? (
        <nav className="area-tabs" role="tablist" aria-label="Areas" data-testid="area-tabs">
          {(Object.keys(areaNames) as Area[]).map((a) => (
            <button key={a} role="tab" aria-selected={area === a} className={area === a ? 'active' : ''} onClick={() => setArea(a)} data-testid={`area-${a}`}>
              {areaNames[a]}
            </button>
          ))}
        </nav>
      ) : null}
      <div className="workbench-row">
        <aside className="sidebar" ref={side} hidden={narrow && area !== 'side'}>
          <header className="sidebar-header">
            <span className="project-name" data-testid="project-name" title={project.root}>{project.name}</span>
            <WatchBadge status={live.status} />
            {headerExtra}
            <button className="link-button" onClick={onClose} title="Open another folder">Switch…</button>
          </header>
          <nav className="tabs" role="tablist">
            <button role="tab" aria-selected={tab === 'files'} className={tab === 'files' ? 'active' : ''} onClick={() => showTab('files')} data-testid="tab-files">Files</button>
            <button role="tab" aria-selected={tab === 'search'} className={tab === 'search' ? 'active' : ''} onClick={() => showTab('search')} data-testid="tab-search">Search</button>
            <button role="tab" aria-selected={tab === 'run'} className={tab === 'run' ? 'active' : ''} onClick={() => showTab('run')} data-testid="tab-run">Run</button>
            <button role="tab" aria-selected={tab === 'history'} className={tab === 'history' ? 'active' : ''} onClick={() => showTab('history')} data-testid="tab-history">History</button>
          </nav>
          <WatchNotice status={live.status} />
          {/* Both stay mounted so switching tabs keeps the tree's expansion and the search's results. */}
          <div className="tab-body" hidden={tab !== 'files'}>
            <FileTree key={project.root} root={project.root} selected={target?.rel ?? null} onOpenFile={open} feed={live.feed} />
          </div>
          <div className="tab-body" hidden={tab !== 'search'}>
            <SearchPanel key={project.root} root={project.root} onOpen={open} feed={live.feed} />
          </div>
          <div className="tab-body" hidden={tab !== 'run'}>
            <RunPanel key={project.root} onSettings={() => setSettingsOpen(true)} />
          </div>
          <div className="tab-body" hidden={tab !== 'history'}>
            <HistoryPanel
              key={project.root}
              root={project.root}
              selected={snapshot?.id ?? null}
              onSelect={(snap) => {
                setReview(null)
                setSnapshot(snap)
              }}
              refresh={historySeq}
            />
          </div>
        </aside>
        <div className="centre-slot" hidden={narrow && area !== 'main'}>
          {snapshot ? (
            <SnapshotPane key={snapshot.id} snapshot={snapshot} onRestored={() => setHistorySeq((n) => n + 1)} />
          ) : review ? (
            <ReviewPane req={review} onClose={() => setReview(null)} />
          ) : (
            <FilePane root={project.root} target={target} feed={live.feed} onMention={mentionLines} />
          )}
        </div>
        {narrow ? null : (
          <Splitter width={width} room={room} onChange={setWidth} onDone={(w) => saveWidth(globalThis.localStorage, w)} />
        )}
        <div className="agent-slot" style={narrow ? undefined : { width }} hidden={narrow && area !== 'agent'} data-testid="agent-slot">
          <AgentPanel key={project.root} project={project} onOpen={open} onSettings={() => setSettingsOpen(true)} settingsSeq={settingsSeq} mention={mention} onReview={showReview} />
        </div>
      </div>
      {quickOpen ? <QuickOpen onOpen={open} onClose={() => setQuickOpen(false)} /> : null}
      {help ? <ShortcutsHelp onClose={() => setHelp(false)} /> : null}
      {settingsOpen ? (
        <SettingsScreen
          onClose={(changed) => {
            setSettingsOpen(false)
            if (changed) setSettingsSeq((n) => n + 1)
          }}
        />
      ) : null}
    </div>
  )
}
