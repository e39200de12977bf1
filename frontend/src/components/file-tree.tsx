import { useCallback, useEffect, useState } from 'react'
import { toBackendError, type BackendError, type DirEntry } from '../bridge'
import { useBridge } from '../stores/project-scope'
import { dirChanged } from '../lib/fs-changes'
import { absolute, joinRel } from '../lib/paths'
import { useChanges, type ChangeFeed } from '../stores/live-project'
import { ErrorNotice } from './error-notice'

interface Props {
  root: string
  selected: string | null
  onOpenFile: (rel: string) => void
  // feed, when given, keeps every listed directory current with the disk.
  feed?: ChangeFeed
}


// FileTree lists the project lazily: a directory's entries are read when it is first expanded, and again when the
// disk says they changed (expanded folders stay expanded).
export function FileTree({ root, selected, onOpenFile, feed }: Props) {
  return (
    <nav className="file-tree" aria-label="Project files" data-testid="file-tree">
      <DirChildren root={root} rel="." depth={0} selected={selected} onOpenFile={onOpenFile} feed={feed} />
    </nav>
  )
}

interface DirProps extends Props {
  rel: string
  depth: number
}

function DirChildren({ root, rel, depth, selected, onOpenFile, feed }: DirProps) {
  const { callTool } = useBridge()
  const [entries, setEntries] = useState<DirEntry[] | null>(null)
  const [truncated, setTruncated] = useState<{ shown: number; total: number } | null>(null)
  const [error, setError] = useState<BackendError | null>(null)
  const [version, setVersion] = useState(0)
  useChanges(feed, (changes) => {
    if (dirChanged(rel, changes)) setVersion((v) => v + 1)
  })

  useEffect(() => {
    let live = true
    callTool('list_directory', { path: absolute(root, rel), limit: 5000 })
      .then((res) => {
        if (!live) return
        setEntries(res.entries)
        setTruncated(res.truncated ? { shown: res.entries.length, total: res.total } : null)
        setError(null)
      })
      .catch((e: unknown) => live && setError(toBackendError(e)))
    return () => {
      live = false
    }
  }, [root, rel, version, callTool])

  if (error) return <ErrorNotice error={error} />
  if (!entries) return <div className="tree-loading" style={{ paddingLeft: indent(depth) }}>…</div>
  return (
    <ul className="tree-list" role={depth === 0 ? 'tree' : 'group'}>
      {entries.map((e) => (
        <TreeNode key={e.name} entry={e} root={root} rel={joinRel(rel, e.name)} depth={depth} selected={selected} onOpenFile={onOpenFile} feed={feed} />
      ))}
      {entries.length === 0 ? <li className="tree-empty" style={{ paddingLeft: indent(depth) }}>empty</li> : null}
      {truncated ? (
        <li className="tree-empty" style={{ paddingLeft: indent(depth) }}>
          {truncated.total - truncated.shown} more entries not shown
        </li>
      ) : null}
    </ul>
  )
}

interface NodeProps extends Props {
  entry: DirEntry
  rel: string
  depth: number
}

function TreeNode({ entry, root, rel, depth, selected, onOpenFile, feed }: NodeProps) {
  const isDir = entry.kind === 'dir' || entry.target_kind === 'dir'
  const [open, setOpen] = useState(false)
  const activate = useCallback(() => (isDir ? setOpen((o) => !o) : onOpenFile(rel)), [isDir, onOpenFile, rel])
  const onKey = (ev: React.KeyboardEvent) => {
    if (ev.key === 'Enter' || ev.key === ' ') {
      ev.preventDefault()
      activate()
    } else if (isDir && ev.key === 'ArrowRight') setOpen(true)
    else if (isDir && ev.key === 'ArrowLeft') setOpen(false)
  }
  const dangling = entry.kind === 'symlink' && !entry.target_kind
  return (
    <li role="treeitem" aria-expanded={isDir ? open : undefined} aria-selected={selected === rel}>
      <div
        className={`tree-row${selected === rel ? ' selected' : ''}${dangling ? ' dangling' : ''}${entry.ignored ? ' ignored' : ''}`}
        style={{ paddingLeft: indent(depth) }}
        tabIndex={0}
        onClick={activate}
        onKeyDown={onKey}
        data-testid="tree-node"
        data-path={rel}
        data-kind={isDir ? 'dir' : 'file'}
        data-ignored={entry.ignored ? 'true' : undefined}
        title={entry.kind === 'symlink' ? `${rel} → ${entry.target ?? '?'}${dangling ? ' (dangling or outside the project)' : ''}` : rel}
      >
        <span className="tree-twisty">{isDir ? (open ? '▾' : '▸') : ''}</span>
        <span className={`tree-icon ${isDir ? 'dir' : 'file'}`} aria-hidden="true" />
        <span className="tree-name">{entry.name}</span>
        {entry.kind === 'symlink' ? <span className="tree-link">↪</span> : null}
      </div>
      {isDir && open ? <DirChildren root={root} rel={rel} depth={depth + 1} selected={selected} onOpenFile={onOpenFile} feed={feed} /> : null}
    </li>
  )
}

function indent(depth: number): string {
  return `${8 + depth * 14}px`
}
