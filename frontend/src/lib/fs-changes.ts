import type { FsChange } from '../bridge'

// Deciding which view re-reads what after a batch of changes on disk. Paths are slash paths from the root; the
// tree names the root '.', the backend ''.

const norm = (p: string): string => (p === '.' ? '' : p)

const ops = (c: FsChange): string[] => c.op.split('|')

const structural = (c: FsChange): boolean => ops(c).some((o) => o === 'create' || o === 'remove' || o === 'rename')

function parent(p: string): string {
  const i = p.lastIndexOf('/')
  return i < 0 ? '' : p.slice(0, i)
}

// within reports whether p is dir or below it.
function within(p: string, dir: string): boolean {
  return dir === '' || p === dir || p.startsWith(`${dir}/`)
}

// dirChanged says whether a listed directory's entries may differ now: something appeared, vanished or was
// renamed directly in it, or it or a folder above it must be re-scanned.
export function dirChanged(dir: string, changes: FsChange[]): boolean {
  const d = norm(dir)
  return changes.some((c) => (structural(c) && c.path !== '' && parent(c.path) === d) || (ops(c).includes('rescan') && within(d, c.path)))
}

// fileChanged says whether an open file's content may differ now: the file itself changed (a permission change
// alone does not count), or a folder above it was removed, renamed or must be re-scanned.
export function fileChanged(file: string, changes: FsChange[]): boolean {
  const f = norm(file)
  return changes.some((c) => {
    if (c.path === f) return ops(c).some((o) => o !== 'chmod')
    return within(f, c.path) && ops(c).some((o) => o === 'remove' || o === 'rename' || o === 'rescan')
  })
}

// searchChanged says whether search results may differ now: any change but a permission change can add or
// remove a match.
export function searchChanged(changes: FsChange[]): boolean {
  return changes.some((c) => ops(c).some((o) => o !== 'chmod'))
}
