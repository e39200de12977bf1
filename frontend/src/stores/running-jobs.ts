import { useEffect, useState } from 'react'
import { listJobsOf, onAnyJobsChanged, type Project } from '../bridge'

// useRunningJobs counts the background jobs running in each open project, by workspace id, kept current by the
// jobs' reports: the project strip shows that a project not on screen still has work going on.
export function useRunningJobs(projects: Project[]): Record<string, number> {
  const [running, setRunning] = useState<Record<string, number>>({})
  const ids = projects.map((p) => p.id).join('\n')

  useEffect(() => {
    let live = true
    const open = new Set(ids.split('\n').filter(Boolean))
    const count = (ws: string) => {
      listJobsOf(ws)
        .then((jobs) => live && setRunning((r) => ({ ...r, [ws]: jobs.filter((j) => j.running).length })))
        .catch(() => undefined) // closed meanwhile: it leaves the strip
    }
    for (const ws of open) count(ws)
    const off = onAnyJobsChanged((c) => {
      if (open.has(c.workspace)) count(c.workspace)
    })
    return () => {
      live = false
      off()
    }
  }, [ids])

  return running
}
