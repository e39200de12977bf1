import { useEffect, useState } from 'react'
import { callTool, toBackendError, type BackendError, type ReadFileResult } from '../bridge'
import { CodeViewer } from '../components/code-viewer'
import { ErrorNotice } from '../components/error-notice'
import { absolute, baseName, humanSize } from '../lib/paths'
import type { Target } from './workbench'

// previewLines is how much of a file too large for a whole read the viewer shows.
const previewLines = 5000

interface Props {
  root: string
  target: Target | null
}

type State = { kind: 'empty' } | { kind: 'loading' } | { kind: 'file'; file: ReadFileResult; partial: boolean } | { kind: 'error'; error: BackendError }

// FilePane reads the selected file through the backend and shows it, or why it cannot.
export function FilePane({ root, target }: Props) {
  const [state, setState] = useState<State>({ kind: 'empty' })
  const rel = target?.rel ?? null

  useEffect(() => {
    if (!rel) {
      setState({ kind: 'empty' })
      return
    }
    let live = true
    setState({ kind: 'loading' })
    const path = absolute(root, rel)
    callTool('read_file', { path })
      .then((file) => ({ file, partial: false }))
      .catch(async (e: unknown) => {
        const err = toBackendError(e)
        if (err.code !== 'too_large') throw err
        return { file: await callTool('read_file', { path, offset: 1, limit: previewLines }), partial: true }
      })
      .then(({ file, partial }) => live && setState({ kind: 'file', file, partial }))
      .catch((e: unknown) => live && setState({ kind: 'error', error: toBackendError(e) }))
    return () => {
      live = false
    }
  }, [root, rel])

  return (
    <section className="file-pane" data-testid="file-pane">
      <header className="file-header">
        <span className="file-name" data-testid="file-name">{rel ?? ''}</span>
        {state.kind === 'file' ? (
          <span className="file-meta" data-testid="file-meta">
            {humanSize(state.file.size)} · {state.file.total_lines} lines · {state.file.line_ending.toUpperCase()}
          </span>
        ) : null}
      </header>
      {state.kind === 'file' && state.partial ? (
        <div className="file-banner" data-testid="file-partial">
          Large file: showing lines {state.file.start_line}–{state.file.end_line} of {state.file.total_lines}.
        </div>
      ) : null}
      {state.kind === 'empty' ? <div className="placeholder">Select a file in the tree to view it.</div> : null}
      {state.kind === 'loading' ? <div className="placeholder">Loading…</div> : null}
      {state.kind === 'error' ? <ErrorNotice error={state.error} /> : null}
      {state.kind === 'file' ? (
        <CodeViewer fileName={baseName(state.file.path)} text={state.file.content} reveal={target?.line ? { line: target.line, seq: target.seq } : undefined} />
      ) : null}
    </section>
  )
}
