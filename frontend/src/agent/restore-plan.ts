import { parseDiff } from './turn-review'

// What restoring a snapshot will do to each file, read from the diff of the snapshot against the files as they are
// now (diff_snapshot: a/ is the snapshot, b/ the present): a file made since is removed, one deleted since comes
// back, one changed since is put back as it was.
export interface PlannedChange {
  path: string
  change: 'put back' | 'removed' | 'brought back'
}

// restorePlan lists each file a restore will change, from the diff of the snapshot against now (parseDiff reads
// it as the turn's review does): a rename since is undone as its new path removed and its old one brought back.
export function restorePlan(diff: string): PlannedChange[] {
  return parseDiff(diff).flatMap((f): PlannedChange[] => {
    switch (f.status) {
      case 'renamed':
        return [
          { path: f.path, change: 'removed' },
          { path: f.oldPath ?? f.path, change: 'brought back' },
        ]
      case 'added':
        return [{ path: f.path, change: 'removed' }]
      case 'deleted':
        return [{ path: f.path, change: 'brought back' }]
      default:
        return [{ path: f.path, change: 'put back' }]
    }
  })
}
