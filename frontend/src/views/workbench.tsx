import { useCallback, useState } from 'react'
import type { Project } from '../bridge'
import { FileTree } from '../components/file-tree'
import { RunPanel } from '../components/run-panel'
import { SearchPanel } from '../components/search-panel'
import { FilePane } from './file-pane'

interface Props {
  project: Project
  onClose: () => void
}

type Tab = 'files' | 'search' | 'run'

// Target is what the viewer shows: a file, and a line to reveal when it came from a search hit. seq makes a
// second click on the same hit reveal it again.
export interface Target {
  rel: string
  line?: number
  seq: number
}

// Workbench is the open-project screen: files or search on the left, the file on the right.
export function Workbench({ project, onClose }: Props) {
  const [tab, setTab] = useState<Tab>('files')
  const [target, setTarget] = useState<Target | null>(null)
  const open = useCallback((rel: string, line?: number) => setTarget((t) => ({ rel, line, seq: (t?.seq ?? 0) + 1 })), [])
  return (
    <div className="workbench">
      <aside className="sidebar">
        <header className="sidebar-header">
          <span className="project-name" data-testid="project-name" title={project.root}>{project.name}</span>
          <button className="link-button" onClick={onClose} title="Open another folder">Switch…</button>
        </header>
        <nav className="tabs" role="tablist">
          <button role="tab" aria-selected={tab === 'files'} className={tab === 'files' ? 'active' : ''} onClick={() => setTab('files')} data-testid="tab-files">Files</button>
          <button role="tab" aria-selected={tab === 'search'} className={tab === 'search' ? 'active' : ''} onClick={() => setTab('search')} data-testid="tab-search">Search</button>
          <button role="tab" aria-selected={tab === 'run'} className={tab === 'run' ? 'active' : ''} onClick={() => setTab('run')} data-testid="tab-run">Run</button>
        </nav>
        {/* Both stay mounted so switching tabs keeps the tree's expansion and the search's results. */}
        <div className="tab-body" hidden={tab !== 'files'}>
          <FileTree key={project.root} root={project.root} selected={target?.rel ?? null} onOpenFile={open} />
        </div>
        <div className="tab-body" hidden={tab !== 'search'}>
          <SearchPanel key={project.root} root={project.root} onOpen={open} />
        </div>
        <div className="tab-body" hidden={tab !== 'run'}>
          <RunPanel key={project.root} />
        </div>
      </aside>
      <FilePane root={project.root} target={target} />
    </div>
  )
}
