// The workspace every project-scoped call acts on: the id of the project the window shows. The backend holds
// several projects open at once and every bound call that acts on one names it; the bridge passes this id so the
// views, which show one project at a time, need not. The project view is keyed by this id (a switch mounts a new
// view), and its agent is stopped when it unmounts, so no call made for one project reaches another.
let current = ''

// setWorkspace makes id the project the bridge's calls act on ('' for none: calls are then refused with
// no_project).
export function setWorkspace(id: string): void {
  current = id
}

// workspace is the id the bridge's calls act on now.
export function workspace(): string {
  return current
}
