import { useEffect, useState } from 'react'
import { useBridge } from '../stores/project-scope'
import { useShortcut } from './shortcuts'
import { useSequence } from '../lib/use-sequence'

// QuickOpen opens a file by a part of its name (Ctrl+P): the project's files whose path holds what is typed, the
// arrows to choose, Enter to open, Esc to close.
export function QuickOpen({ onOpen, onClose }: { onOpen: (rel: string) => void; onClose: () => void }) {
  const { callTool } = useBridge()
  const [query, setQuery] = useState('')
  const [files, setFiles] = useState<string[]>([])
  const [index, setIndex] = useState(0)
  const nextFind = useSequence()
  useShortcut('Esc', () => onClose())
  useEffect(() => {
    const fresh = nextFind()
    const q = query.trim().replace(/[*?[\]{}]/g, '')
    const glob = q === '' ? ['**/*'] : q.includes('/') ? [`**/*${q}*`, `${q}*`] : [`**/*${q}*`]
    callTool('find_files', { glob, path: '.', limit: 50 })
      .then((r) => {
        if (!fresh()) return
        setFiles(r.files.map((f) => f.path))
        setIndex(0)
      })
      .catch(() => fresh() && setFiles([]))
  }, [callTool, query, nextFind])
  const pick = (rel: string | undefined) => {
    if (!rel) return
    onOpen(rel)
    onClose()
  }
  return (
    <div className="dialog-overlay" onClick={onClose}>
      <div className="dialog quick-open" role="dialog" aria-label="Open a file" onClick={(e) => e.stopPropagation()} data-testid="quick-open">
        <input
          autoFocus
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
              e.preventDefault()
              const n = Math.max(1, files.length)
              setIndex((i) => (i + (e.key === 'ArrowDown' ? 1 : n - 1)) % n)
            } else if (e.key === 'Enter') {
              e.preventDefault()
              pick(files[index])
            }
          }}
          placeholder="a file's name or part of its path"
          aria-label="File name"
          spellCheck={false}
          data-testid="quick-open-input"
        />
        <ul className="quick-open-list" role="listbox">
          {files.map((f, i) => (
            <li key={f} role="option" aria-selected={i === index} className={i === index ? 'selected' : ''} onMouseDown={(e) => { e.preventDefault(); pick(f) }} data-testid="quick-open-item" data-path={f}>
              {f}
            </li>
          ))}
          {files.length === 0 ? <li className="tree-empty">no file matches</li> : null}
        </ul>
      </div>
    </div>
  )
}
