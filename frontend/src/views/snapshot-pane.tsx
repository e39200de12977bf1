import { useEffect, useState } from 'react'
import { toBackendError, type BackendError, type RestoreResult, type Snapshot } from '../bridge'
import { useBridge } from '../stores/project-scope'
import { CodeViewer } from '../components/code-viewer'
import { ErrorNotice } from '../components/error-notice'

interface Props {
  snapshot: Snapshot
  onRestored: (r: RestoreResult) => void
}

// SnapshotPane shows what changed since a snapshot and restores it on request (the restore is itself backed up).
export function SnapshotPane({ snapshot, onRestored }: Props) {
  const { callTool } = useBridge()
  const [diff, setDiff] = useState<string | null>(null)
  const [error, setError] = useState<BackendError | null>(null)
  const [done, setDone] = useState<RestoreResult | null>(null)
  const [busy, setBusy] = useState(false)

  // A different snapshot starts afresh (set while rendering, as React advises, rather than in an effect).
  const [shownId, setShownId] = useState(snapshot.id)
  if (shownId !== snapshot.id) {
    setShownId(snapshot.id)
    setDiff(null)
    setDone(null)
    setError(null)
  }

  useEffect(() => {
    let live = true
    callTool('diff_snapshot', { id: snapshot.id })
      .then((r) => live && setDiff(r.diff))
      .catch((e: unknown) => live && setError(toBackendError(e)))
    return () => {
      live = false
    }
  }, [callTool, snapshot.id])

  const restore = async () => {
    if (!window.confirm(`Put the project back as it was before "${snapshot.reason}"? The present state is saved first, so this can be undone.`)) return
    setBusy(true)
    try {
      const r = await callTool('restore_snapshot', { id: snapshot.id })
      setDone(r)
      onRestored(r)
      setDiff('')
    } catch (e) {
      setError(toBackendError(e))
    } finally {
      setBusy(false)
    }
  }

  return (
    <section className="file-pane" data-testid="snapshot-pane">
      <header className="file-header">
        <span className="file-name">{snapshot.reason}</span>
        <span className="file-meta">
          {new Date(snapshot.time).toLocaleString()} · {snapshot.id.slice(0, 12)}
          <button className="primary restore" onClick={() => void restore()} disabled={busy || diff === ''} data-testid="snapshot-restore">
            Restore
          </button>
        </span>
      </header>
      {done ? (
        <div className="file-banner" data-testid="snapshot-restored">
          Restored: {done.written.length} written, {done.removed.length} removed. The state before is saved as {done.backup.slice(0, 12)}.
        </div>
      ) : null}
      {error ? <ErrorNotice error={error} /> : null}
      {diff === null && !error ? <div className="placeholder">Loading…</div> : null}
      {diff === '' && !done ? <div className="placeholder" data-testid="snapshot-same">Nothing changed since this snapshot.</div> : null}
      {diff ? <CodeViewer fileName="changes.diff" text={diff} /> : null}
    </section>
  )
}
