import { useEffect, useState } from 'react'
import { chooseProject, forgetProject, openProject, recentProjects, toBackendError, type BackendError, type Project, type RecentProject } from '../bridge'
import { ErrorNotice } from '../components/error-notice'

interface Props {
  onOpened: (p: Project) => void
  initialError: BackendError | null
}

// OpenProject is the first screen: choose a folder with the system dialog, type a path, or pick a recent project.
export function OpenProject({ onOpened, initialError }: Props) {
  const [recent, setRecent] = useState<RecentProject[]>([])
  const [path, setPath] = useState('')
  const [error, setError] = useState<BackendError | null>(initialError)
  const [busy, setBusy] = useState(false)

  useEffect(() => {
    recentProjects().then(setRecent).catch((e: unknown) => setError(toBackendError(e)))
  }, [])

  const run = async (open: () => Promise<Project | null>) => {
    setBusy(true)
    setError(null)
    try {
      const p = await open()
      if (p) onOpened(p)
    } catch (e) {
      setError(toBackendError(e))
    } finally {
      setBusy(false)
    }
  }

  const forget = async (p: string) => {
    await forgetProject(p).catch((e: unknown) => setError(toBackendError(e)))
    setRecent((r) => r.filter((x) => x.path !== p))
  }

  return (
    <main className="open-project" data-testid="open-project">
      <h1>Rooted</h1>
      <p className="tagline">Open a project folder. The agent can work anywhere inside it, and nowhere else.</p>
      <div className="open-actions">
        <button className="primary" disabled={busy} onClick={() => run(chooseProject)} data-testid="choose-folder">
          Choose folder…
        </button>
        <form
          className="open-path"
          onSubmit={(ev) => {
            ev.preventDefault()
            if (path.trim()) void run(() => openProject(path.trim()))
          }}
        >
          <input value={path} onChange={(ev) => setPath(ev.target.value)} placeholder="/path/to/project" aria-label="Project path" data-testid="path-input" spellCheck={false} />
          <button type="submit" disabled={busy || !path.trim()} data-testid="open-path">Open</button>
        </form>
      </div>
      {error ? <ErrorNotice error={error} /> : null}
      <section className="recent">
        <h2>Recent</h2>
        {recent.length === 0 ? <p className="muted">No recent projects yet.</p> : null}
        <ul data-testid="recent-list">
          {recent.map((r) => (
            <li key={r.path}>
              <button className="recent-item" onClick={() => run(() => openProject(r.path))} title={r.path} data-testid="recent-item">
                <span className="recent-name">{r.name}</span>
                <span className="recent-path">{r.path}</span>
              </button>
              <button className="link-button" onClick={() => void forget(r.path)} aria-label={`Forget ${r.name}`}>✕</button>
            </li>
          ))}
        </ul>
      </section>
    </main>
  )
}
