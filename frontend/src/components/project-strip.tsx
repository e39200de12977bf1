import type { Project } from '../bridge'
import { useRunningJobs } from '../stores/running-jobs'
import './project-strip.css'

interface Props {
  projects: Project[]
  current: string | null // the id of the project shown; null while the folder picker is
  onSwitch: (p: Project) => void
  onClose: (p: Project) => void
  onOpen: () => void
}

// ProjectStrip lists the open projects down the window's left edge: the one shown is marked, a click shows
// another (whose jobs kept running meanwhile, counted beside its name), × closes one (ending its jobs only), +
// opens another folder.
export function ProjectStrip({ projects, current, onSwitch, onClose, onOpen }: Props) {
  const running = useRunningJobs(projects)
  return (
    <nav className="project-strip" aria-label="Open projects" data-testid="project-strip">
      <ul>
        {projects.map((p) => (
          <li key={p.id} className={p.id === current ? 'current' : undefined}>
            <button
              className="project-strip-item"
              title={p.root}
              aria-current={p.id === current ? 'page' : undefined}
              data-testid="project-strip-item"
              onClick={() => onSwitch(p)}
            >
              <span className="project-strip-initial" aria-hidden="true">{initial(p.name)}</span>
              <span className="project-strip-name">{p.name}</span>
              {running[p.id] ? (
                <span className="project-strip-jobs" title={`${running[p.id]} background command${running[p.id] === 1 ? '' : 's'} running`} data-testid="project-strip-jobs">
                  {running[p.id]}
                </span>
              ) : null}
            </button>
            <button className="project-strip-close" title={`Close ${p.name} (its background commands end)`} aria-label={`Close ${p.name}`} onClick={() => onClose(p)}>
              ×
            </button>
          </li>
        ))}
      </ul>
      <button className="project-strip-open" title="Open another folder" aria-label="Open another folder" data-testid="project-strip-open" onClick={onOpen}>
        +
      </button>
    </nav>
  )
}

// initial is the project's badge: its name's first letter or digit.
function initial(name: string): string {
  const m = /[\p{L}\p{N}]/u.exec(name)
  return (m ? m[0] : '?').toUpperCase()
}
