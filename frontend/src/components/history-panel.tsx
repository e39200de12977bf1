import { useCallback, useEffect, useMemo, useState } from 'react'
import { toBackendError, type BackendError, type Snapshot, type SnapshotLogEntry } from '../bridge'
import { useBridge } from '../stores/project-scope'
import { relativeTime } from '../lib/relative-time'
import { snapshotNames, webStorage } from '../lib/snapshot-names'
import { ErrorNotice } from './error-notice'
import { readInOrder, useOrdered } from '../lib/use-sequence'

interface Props {
  selected: string | null
  onSelect: (s: Snapshot) => void
  // refresh changes when the project changed through Rooted (an edit, a restore), to reload the list.
  refresh: number
  // root is the project's, whose snapshots the window named after the requests that made them.
  root?: string
}

// HistoryPanel is the timeline of snapshots, newest first, and the log of every backup and restore.
export function HistoryPanel({ selected, onSelect, refresh, root }: Props) {
  const { callTool } = useBridge()
  const [snapshots, setSnapshots] = useState<Snapshot[] | null>(null)
  const [log, setLog] = useState<SnapshotLogEntry[] | null>(null)
  const [showLog, setShowLog] = useState(false)
  const [error, setError] = useState<BackendError | null>(null)

  // Each load (a Reload, a change made through Rooted) makes the lists still on their way stale: one answering
  // late would show the timeline as it was before the change.
  const nextList = useOrdered()
  const nextLog = useOrdered()
  const load = useCallback(() => {
    const list = nextList()
    callTool('list_snapshots', { limit: 200 })
      .then((r) => {
        if (!list()) return
        setSnapshots(r.snapshots ?? [])
        setError(null)
      })
      .catch((e: unknown) => list() && setError(toBackendError(e)))
    readInOrder(nextLog, () => callTool('list_snapshots', { log: true, limit: 200 }).then((r) => r.log ?? []), setLog)
  }, [callTool, nextList, nextLog])
  useEffect(load, [load, refresh])
  // Read again with each listing: the names of snapshots taken since.
  const names = useMemo(() => {
    const st = webStorage()
    return root && st && snapshots ? snapshotNames(st, root) : new Map<string, string>()
  }, [root, snapshots])

  return (
    <div className="history-panel" data-testid="history-panel">
      <div className="history-bar">
        <button className="link-button" onClick={load} title="Reload" data-testid="history-reload">Reload</button>
        <label className="history-toggle">
          <input type="checkbox" checked={showLog} onChange={(e) => setShowLog(e.target.checked)} data-testid="history-show-log" /> log
        </label>
      </div>
      {error ? <ErrorNotice error={error} /> : null}
      {!showLog ? (
        <ul className="history-list">
          {snapshots?.length === 0 ? <li className="muted history-empty">No snapshots yet: one is taken before every change.</li> : null}
          {snapshots?.map((s) => (
            <li key={s.id}>
              <button className={`history-item${selected === s.id ? ' selected' : ''}`} onClick={() => onSelect(s)} data-testid="snapshot" data-id={s.id} title={s.id}>
                <span className="history-reason" title={names.has(s.id) ? s.reason : undefined}>{names.get(s.id) ?? s.reason}</span>
                <span className="history-meta">
                  {relativeTime(s.time)} · {s.paths ? `only ${s.paths.join(', ')}` : `${s.files_changed} ${s.files_changed === 1 ? 'file' : 'files'}`} · {s.id.slice(0, 8)}
                </span>
              </button>
            </li>
          ))}
        </ul>
      ) : (
        <ul className="history-list" data-testid="history-log">
          {log?.map((e, i) => (
            <li key={i} className="log-entry" data-action={e.action}>
              <span className={`log-action ${e.action}`}>{e.action}</span> {relativeTime(e.time)} · {e.id.slice(0, 8)}
              <div className="history-meta">
                {e.action === 'restore' ? `restored${e.paths?.length ? ' ' + e.paths.join(', ') : ' everything'}; the state before is ${e.backup?.slice(0, 8)}` : e.reason}
              </div>
            </li>
          ))}
        </ul>
      )}
    </div>
  )
}
