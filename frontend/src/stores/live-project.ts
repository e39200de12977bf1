import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react'
import { type FsChange, type WatchStatus } from '../bridge'
import { useBridge } from '../stores/project-scope'

export type ChangeListener = (changes: FsChange[]) => void

// ChangeFeed lets a view hear of changes on disk in the open project; subscribe returns the unsubscribe function.
export interface ChangeFeed {
  subscribe: (l: ChangeListener) => () => void
}

// rescanEvery is how often views re-read what they show when the project is not (fully) watched.
const rescanEvery = 3000

const rescanAll: FsChange[] = [{ path: '', op: 'rescan' }]

// useLiveProject follows the open project's changes on disk. When the watcher cannot cover the project (the
// system's watch limit, or no watcher at all) it says so in status and, instead of events, asks every view to
// re-read what it shows every few seconds.
export function useLiveProject(root: string): { status: WatchStatus | null; feed: ChangeFeed } {
  const { onFsChanges, watchStatus } = useBridge()
  const listeners = useRef(new Set<ChangeListener>())
  const [status, setStatus] = useState<WatchStatus | null>(null)
  const publish = (changes: FsChange[]) => {
    for (const l of listeners.current) l(changes)
  }

  useEffect(() => {
    let live = true
    watchStatus()
      .then((s) => live && setStatus(s))
      .catch(() => undefined) // the status line stays empty; views still work
    const off = onFsChanges((batch) => {
      if (batch.root !== root) return // a late batch from the project open before
      setStatus(batch.watch)
      publish(batch.changes)
    })
    return () => {
      live = false
      off()
    }
  }, [onFsChanges, root, watchStatus])

  const polling = status !== null && (status.degraded || !status.active)
  useEffect(() => {
    if (!polling) return
    const timer = setInterval(() => publish(rescanAll), rescanEvery)
    return () => clearInterval(timer)
  }, [polling])

  const feed = useMemo<ChangeFeed>(
    () => ({
      subscribe: (l) => {
        listeners.current.add(l)
        return () => listeners.current.delete(l)
      },
    }),
    [],
  )
  return { status, feed }
}

// useChanges calls onChange with every batch while the component is mounted. The latest onChange is used, so
// callers need not memoise it.
export function useChanges(feed: ChangeFeed | undefined, onChange: ChangeListener): void {
  const latest = useRef(onChange)
  useLayoutEffect(() => {
    latest.current = onChange
  })
  useEffect(() => feed?.subscribe((c) => latest.current(c)), [feed])
}
