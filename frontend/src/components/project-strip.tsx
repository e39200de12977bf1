import type { Project } from '../bridge'
import type { AgentState } from '../agent/progress'
import { useRunningJobs } from '../stores/running-jobs'
import { BranchIcon } from './branch-icon'
import './project-strip.css'

interface Props {
  projects: Project[]
  current: string | null // the id of the project shown; null while the folder picker is
  states: Record<string, AgentState> // what each project's agent is doing, by id
  onSwitch: (p: Project) => void
  onClose: (p: Project) => void
  onOpen: () => void
}

const stateWords: Record<Exclude<AgentState, ''>, { label: string; title: string }> = {
  working: { label: 'working', title: 'The agent is working' },
  waiting: { label: 'needs you', title: 'The agent waits for your approval or answer' },
  done: { label: 'done', title: 'The agent finished while you were away' },
  failed: { label: 'failed', title: 'The agent stopped with an error while you were away' },
}

// ProjectStrip lists the open projects down the window's left edge: the one shown is marked, a click shows
// another (whose agent and jobs kept running meanwhile: the agent's state is a dot on its initial, the running
// jobs a count), × closes one (ending its agent and jobs only), + opens another folder.
export function ProjectStrip({ projects, current, states, onSwitch, onClose, onOpen }: Props) {
  const running = useRunningJobs(projects)
  return (
    <nav className="project-strip" aria-label="Open projects" data-testid="project-strip">
      <ul>
        {railOrder(projects).map((p) => (
          <li key={p.id} className={[p.id === current ? 'current' : '', p.worktree ? 'worktree' : ''].filter(Boolean).join(' ') || undefined}>
            <button
              className="project-strip-item"
              title={p.worktree ? `${p.name}\nworktree of ${p.worktree.main_name} on ${p.worktree.branch}\n${p.root}` : `${p.name}\n${p.root}`}
              aria-current={p.id === current ? 'page' : undefined}
              data-testid="project-strip-item"
              onClick={() => onSwitch(p)}
            >
              <span className="project-strip-initial" aria-hidden="true">{initial(p.name)}</span>
              <span className="project-strip-name">{p.worktree ? `${p.name} (worktree of ${p.worktree.main_name} on ${p.worktree.branch})` : p.name}</span>
              {p.worktree ? (
                <span className="project-strip-branch" data-testid="project-strip-worktree">
                  <BranchIcon size={11} />
                </span>
              ) : null}
              {states[p.id] ? (
                <span
                  className={`project-strip-agent ${states[p.id]}`}
                  role="img"
                  aria-label={stateWords[states[p.id] as Exclude<AgentState, ''>].label}
                  title={stateWords[states[p.id] as Exclude<AgentState, ''>].title}
                  data-testid="project-strip-agent"
                  data-state={states[p.id]}
                />
              ) : null}
              {running[p.id] ? (
                <span className="project-strip-jobs" title={`${running[p.id]} background command${running[p.id] === 1 ? '' : 's'} running`} data-testid="project-strip-jobs">
                  {running[p.id]}
                </span>
              ) : null}
            </button>
            <button className="project-strip-close" title={`Close ${p.name} (its agent stops and its background commands end)`} aria-label={`Close ${p.name}`} onClick={() => onClose(p)}>
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

// railOrder lists each main checkout followed by its worktrees open, so a worktree sits under the project it is
// of; a worktree whose main checkout is not open keeps its place.
export function railOrder(projects: Project[]): Project[] {
  const mains = new Set(projects.filter((p) => !p.worktree).map((p) => p.root))
  const out: Project[] = []
  for (const p of projects) {
    if (p.worktree && mains.has(p.worktree.main)) continue
    out.push(p)
    if (!p.worktree) out.push(...projects.filter((w) => w.worktree?.main === p.root))
  }
  return out
}

// initial is the project's badge: its name's first letter or digit.
function initial(name: string): string {
  const m = /[\p{L}\p{N}]/u.exec(name)
  return (m ? m[0] : '?').toUpperCase()
}
