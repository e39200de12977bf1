import type { WatchStatus } from '../bridge'

// WatchBadge says whether the project is followed live. When it is not (fully), it says why and what happens
// instead, so a missing update is never a mystery.
export function WatchBadge({ status }: { status: WatchStatus | null }) {
  if (!status) return null
  if (status.active && !status.degraded) {
    return (
      <span className="watch-badge live" data-testid="watch-status" data-state="live" title={`Changes on disk show up by themselves (${status.watched} folders watched)`}>
        ● live
      </span>
    )
  }
  const why = status.active ? (status.reason ?? 'some folders are not watched') : 'the project is not watched'
  return (
    <span className="watch-badge degraded" data-testid="watch-status" data-state="degraded" title={`${why}. What is on screen is re-read every few seconds instead.`}>
      ⚠ not fully live
    </span>
  )
}

// WatchNotice spells out a degraded watch where the user looks: why, and what Rooted does instead.
export function WatchNotice({ status }: { status: WatchStatus | null }) {
  if (!status || (status.active && !status.degraded)) return null
  const why = status.active ? (status.reason ?? 'Some folders are not watched.') : 'This project is not watched for changes.'
  return (
    <div className="watch-notice" role="status" data-testid="watch-notice">
      <strong>Not fully live.</strong> {why} Rooted re-reads the open folders, file and search every few seconds instead.
    </div>
  )
}
