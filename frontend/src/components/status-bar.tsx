import type { Project } from '../bridge'

interface Props {
  project: Project | null
  message?: string
}

export function StatusBar({ project, message }: Props) {
  return (
    <footer className="status-bar" data-testid="status-bar">
      {project ? (
        <>
          <span className="status-item" title="Project root" data-testid="status-root">
            <span className="status-label">root</span> {project.root}
          </span>
          <span className="status-item" title="Working directory of the agent's tools" data-testid="status-cwd">
            <span className="status-label">cwd</span> {project.cwd_relative === '.' ? './' : project.cwd_relative}
          </span>
        </>
      ) : (
        <span className="status-item">no project open</span>
      )}
      {message ? <span className="status-item status-message">{message}</span> : null}
    </footer>
  )
}
