// A unified diff as rows a reader can follow: each line with its number in the old and the new file, what it is
// (added, removed, unchanged, a hunk's header, a file's header), and its text without the diff's marker.

export type DiffRowKind = 'add' | 'del' | 'ctx' | 'hunk' | 'file' | 'note'

export interface DiffRow {
  kind: DiffRowKind
  old?: number // the line's number before the change (removed and unchanged lines)
  new?: number // after it (added and unchanged lines)
  text: string
}

const hunkHeader = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@(.*)$/

// diffRows reads a unified diff (git's or Rooted's own); lines before the first hunk are the file's header.
export function diffRows(diff: string): DiffRow[] {
  const rows: DiffRow[] = []
  let oldLine = 0
  let newLine = 0
  let inHunk = false
  const lines = diff.split('\n')
  if (lines.at(-1) === '') lines.pop()
  for (const l of lines) {
    const h = hunkHeader.exec(l)
    if (h) {
      oldLine = Number(h[1])
      newLine = Number(h[2])
      inHunk = true
      rows.push({ kind: 'hunk', text: l })
    } else if (!inHunk || l.startsWith('diff --git ')) {
      inHunk = false
      rows.push({ kind: 'file', text: l })
    } else if (l.startsWith('+')) {
      rows.push({ kind: 'add', new: newLine++, text: l.slice(1) })
    } else if (l.startsWith('-')) {
      rows.push({ kind: 'del', old: oldLine++, text: l.slice(1) })
    } else if (l.startsWith('\\')) {
      rows.push({ kind: 'note', text: l })
    } else {
      rows.push({ kind: 'ctx', old: oldLine++, new: newLine++, text: l.slice(1) })
    }
  }
  return rows
}

// diffStat counts a diff's added and removed lines.
export function diffStat(diff: string): { added: number; removed: number } {
  let added = 0
  let removed = 0
  for (const r of diffRows(diff)) {
    if (r.kind === 'add') added++
    else if (r.kind === 'del') removed++
  }
  return { added, removed }
}
