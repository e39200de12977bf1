import { useState } from 'react'
import type { Project } from '../bridge'
import { FileTree } from '../components/file-tree'
import { FilePane } from './file-pane'

interface Props {
  project: Project
  onClose: () => void
}

// Workbench is the open-project screen: the tree on the left, the file on the right.
export function Workbench({ project, onClose }: Props) {
  const [selected, setSelected] = useState<string | null>(null)
  return (
    <div className="workbench">
      <aside className="sidebar">
        <header className="sidebar-header">
          <span className="project-name" data-testid="project-name" title={project.root}>{project.name}</span>
          <button className="link-button" onClick={onClose} title="Open another folder">Switch…</button>
        </header>
        <FileTree key={project.root} root={project.root} selected={selected} onOpenFile={setSelected} />
      </aside>
      <FilePane root={project.root} rel={selected} />
    </div>
  )
}
