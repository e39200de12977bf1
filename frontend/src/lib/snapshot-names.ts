// Snapshot names for people: a snapshot the agent's change took is named by the request that made it ("Before:
// add a test for main") rather than by the tool's reason and a hash. The names are kept by the window, per project,
// in the web view's storage (the snapshot itself, a git commit, cannot be renamed); a snapshot without one keeps
// its reason.
export type NameStore = Pick<Storage, 'getItem' | 'setItem'>

// keep is how many names a project keeps: the newest, as History lists the newest first.
const keep = 1000

const key = (root: string) => `rooted.snapshot-names:${root}`

function load(store: NameStore, root: string): [string, string][] {
  try {
    const v = JSON.parse(store.getItem(key(root)) ?? '[]') as unknown
    return Array.isArray(v) ? v.filter((e): e is [string, string] => Array.isArray(e) && typeof e[0] === 'string' && typeof e[1] === 'string') : []
  } catch {
    return [] // a damaged entry names nothing; History falls back to the reasons
  }
}

// nameSnapshot records a name for snapshot id; the first name given stays (a snapshot is taken once, before
// the change that names it).
export function nameSnapshot(store: NameStore, root: string, id: string, name: string): void {
  if (!id || !name) return
  const all = load(store, root)
  if (all.some(([k]) => k === id)) return
  all.push([id, name])
  try {
    store.setItem(key(root), JSON.stringify(all.slice(-keep)))
  } catch {
    // storage full or refused: the snapshot keeps its reason
  }
}

// snapshotNames returns the names a project's snapshots were given, by id.
export function snapshotNames(store: NameStore, root: string): Map<string, string> {
  return new Map(load(store, root))
}

// webStorage is the web view's storage, or none where there is none.
export const webStorage = (): NameStore | null => {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage
  } catch {
    return null
  }
}
