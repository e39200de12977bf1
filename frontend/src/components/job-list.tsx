import { useEffect, useRef, useState } from 'react'
import { toBackendError, type BackendError, type Job } from '../bridge'
import { useBridge } from '../stores/project-scope'
import { ErrorNotice } from './error-notice'

// The list follows the backend's reports (a job started, ended or wrote output); this slow look is only a
// safety net, as the file views' re-scan is for the watcher.
const fallbackMs = 5000
const keepChars = 200_000 // of each job's output on screen; the backend keeps its own last MiB

// JobList shows the project's background commands (the agent's servers, watchers and long builds) with their
// output as it comes and a Stop button that ends the job and everything it started.
export function JobList() {
  const { jobOutput, killJob, listJobs, onJobsChanged } = useBridge()
  const [jobs, setJobs] = useState<Job[]>([])
  const [listed, setListed] = useState(false) // the list was read once: no jobs means none, not not yet known
  const [out, setOut] = useState<Record<string, string>>({})
  const [error, setError] = useState<BackendError | null>(null)
  const next = useRef<Record<string, number>>({})
  const done = useRef<Set<string>>(new Set()) // ended jobs whose output was read to the end

  useEffect(() => {
    let live = true
    let timer: ReturnType<typeof setTimeout>
    let busy = false
    let again = false
    // refresh reads the list and what each job wrote since the last read; a report that arrives meanwhile makes
    // it read once more when it is done, never twice at once.
    const refresh = async () => {
      if (busy) {
        again = true
        return
      }
      busy = true
      clearTimeout(timer)
      try {
        const list = await listJobs()
        if (!live) return
        setJobs(list)
        setListed(true)
        for (const j of list) {
          if (done.current.has(j.id)) continue
          const o = await jobOutput(j.id, next.current[j.id] ?? 0)
          if (!live) return
          next.current[j.id] = o.next
          if (o.output) setOut((m) => ({ ...m, [j.id]: ((m[j.id] ?? '') + o.output).slice(-keepChars) }))
          if (!o.running) done.current.add(j.id)
        }
      } catch {
        // the project closed or is changing: the next report or look tries again
      }
      busy = false
      if (!live) return
      if (again) {
        again = false
        void refresh()
        return
      }
      timer = setTimeout(() => void refresh(), fallbackMs)
    }
    const off = onJobsChanged(() => void refresh())
    void refresh()
    return () => {
      live = false
      off()
      clearTimeout(timer)
    }
  }, [jobOutput, listJobs, onJobsChanged])

  // Nothing to show with no jobs; a hidden mark says the list was read and is empty.
  if (jobs.length === 0) return listed ? <span hidden data-testid="jobs-none" /> : null
  return (
    <section className="jobs" data-testid="jobs">
      <h4 className="jobs-title">Background jobs</h4>
      {error ? <ErrorNotice error={error} /> : null}
      <ul className="runs">
        {jobs.map((j) => (
          <li key={j.id} className="run" data-testid="job" data-id={j.id} data-state={j.running ? 'running' : 'done'}>
            <div className="run-head">
              <code className="run-command">
                {j.id}: {j.command}
              </code>
              {j.running ? (
                <button
                  className="stop"
                  data-testid="job-stop"
                  onClick={() =>
                    killJob(j.id)
                      .then((k) => setJobs((js) => js.map((x) => (x.id === k.id ? k : x))))
                      .catch((e: unknown) => setError(toBackendError(e)))
                  }
                >
                  Stop
                </button>
              ) : null}
            </div>
            {out[j.id] ? <pre className="run-output" data-testid="job-output">{out[j.id]}</pre> : null}
            <div className="run-status" data-testid="job-status">
              {j.running ? <span>running</span> : <span className={j.exit_code === 0 && !j.killed ? 'ok' : 'bad'}>{j.killed ? 'stopped' : `exit ${j.exit_code}`}</span>}
              <span>{(j.duration_ms / 1000).toFixed(1)} s</span>
              {j.error ? <span className="bad">{j.error}</span> : null}
            </div>
          </li>
        ))}
      </ul>
    </section>
  )
}
