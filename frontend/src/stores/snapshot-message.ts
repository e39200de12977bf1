import { useEffect, useState } from 'react'
import { onSnapshotProgress, type SnapshotProgress } from '../bridge'

// How long the status bar keeps a finished first snapshot's summary.
const doneShownMs = 5000

// Message is what the status bar says of one project's first snapshot; its identity tells it from a later one.
interface Message {
  text: string
}

// useSnapshotMessage is what the status bar says of the first snapshot of project shown (its id), undefined when
// nothing. The first snapshot of a large project takes a while: each open project's message is kept with it,
// heard whether it is shown or not, so switching projects shows the one of the project now shown, never another's,
// and a finished snapshot's summary goes after a while taking only itself: a later message of the same project, or
// another project's, stays.
export function useSnapshotMessage(shown: string | undefined): string | undefined {
  const [messages, setMessages] = useState<Record<string, Message>>({})
  useEffect(() => {
    const timers = new Set<ReturnType<typeof setTimeout>>()
    const off = onSnapshotProgress((p) => {
      const m: Message = { text: snapshotText(p) }
      setMessages((all) => ({ ...all, [p.workspace]: m }))
      if (p.state !== 'done') return
      const t = setTimeout(() => {
        timers.delete(t)
        setMessages((all) => {
          if (all[p.workspace] !== m) return all
          const rest = { ...all }
          delete rest[p.workspace]
          return rest
        })
      }, doneShownMs)
      timers.add(t)
    })
    return () => {
      off()
      timers.forEach(clearTimeout)
    }
  }, [])
  return shown === undefined ? undefined : messages[shown]?.text
}

function snapshotText(p: SnapshotProgress): string {
  if (p.state === 'running') return 'recording the first snapshot…'
  if (p.state === 'failed') return `snapshots unavailable: ${p.error ?? ''}`
  return `first snapshot: ${p.files ?? 0} files in ${(p.elapsed_ms / 1000).toFixed(1)} s`
}
