import type { Item } from './conversation'

// A turn's review: what one request's turn changed on disk, read from the snapshots the turn's changes took
// (diff_snapshot from the snapshot before the turn's first change to the one before the next turn's first change,
// or to the files now for the latest), so a command's changes are in it as much as an edit's.

// Range is two moments to compare: from a snapshot to a later one, or to the files now (to '').
export interface Range {
  from: string
  to: string
}

// turnRange is the range of the request at index i: undefined when its turn changed nothing.
export function turnRange(items: Item[], i: number): Range | undefined {
  const it = items[i]
  if (it?.kind !== 'user' || !it.snapshot) return undefined
  for (const later of items.slice(i + 1)) if (later.kind === 'user' && later.snapshot) return { from: it.snapshot, to: later.snapshot }
  return { from: it.snapshot, to: '' }
}

// conversationRange is everything the conversation changed: from its first change to now.
export function conversationRange(items: Item[]): Range | undefined {
  const first = items.find((x) => x.kind === 'user' && x.snapshot)
  return first?.kind === 'user' && first.snapshot ? { from: first.snapshot, to: '' } : undefined
}

// turnEnds maps the index of each finished turn's last item to the index of its request, where the turn's bar
// goes; the turn still running (the last, while running) has none.
export function turnEnds(items: Item[], running: boolean): Map<number, number> {
  const ends = new Map<number, number>()
  let request = -1
  items.forEach((it, i) => {
    if (it.kind !== 'user') return
    if (request >= 0) ends.set(i - 1, request)
    request = i
  })
  if (request >= 0 && !running) ends.set(items.length - 1, request)
  return ends
}

export interface Hunk {
  header: string
  oldStart: number
  oldLines: number
  newStart: number
  newLines: number
  lines: string[] // the hunk's body, each line with its marker (' ', '+', '-', '\')
}

export interface FileDiff {
  path: string // the path after the change (before it, for a deleted file)
  oldPath?: string // a renamed file's path before
  status: 'modified' | 'added' | 'deleted' | 'renamed'
  binary: boolean
  hunks: Hunk[]
  added: number
  removed: number
  text: string // the file's part of the diff, header included
}

// unquote reads a path as git prints it: in double quotes, with C escapes, when it has unusual characters.
export function unquote(p: string): string {
  if (!p.startsWith('"')) return p
  const bytes: number[] = []
  const s = p.slice(1, -1)
  for (let i = 0; i < s.length; i++) {
    if (s[i] !== '\\') {
      bytes.push(...new TextEncoder().encode(s[i]))
      continue
    }
    const n = s[++i]
    if (/[0-7]/.test(n)) {
      bytes.push(parseInt(s.slice(i, i + 3), 8))
      i += 2
    } else bytes.push(({ n: 10, t: 9, '"': 34, '\\': 92 } as Record<string, number>)[n] ?? n.charCodeAt(0))
  }
  return new TextDecoder().decode(new Uint8Array(bytes))
}

const hunkHeader = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/

// headerPath is the path of a "diff --git a/P b/P" header with no ---/+++ lines (the same path twice).
function headerPath(rest: string): string {
  if (rest.startsWith('"')) return unquote(rest.slice(0, rest.indexOf('" ', 1) + 1)).replace(/^a\//, '')
  return rest.slice(2, 2 + (rest.length - 5) / 2)
}

// parseDiff reads git's unified diff of many files into files and hunks.
export function parseDiff(diff: string): FileDiff[] {
  const out: FileDiff[] = []
  for (const block of diff.split(/^(?=diff --git )/m)) {
    if (!block.startsWith('diff --git ')) continue
    const lines = block.split('\n')
    if (lines.at(-1) === '') lines.pop()
    const head = lines.slice(0, Math.max(0, lines.findIndex((l) => l.startsWith('@@'))) || lines.length)
    const field = (prefix: string) => head.find((l) => l.startsWith(prefix))?.slice(prefix.length)
    const minus = field('--- ')
    const plus = field('+++ ')
    const from = field('rename from ')
    const to = field('rename to ')
    let status: FileDiff['status'] = 'modified'
    if (head.some((l) => l.startsWith('new file mode'))) status = 'added'
    else if (head.some((l) => l.startsWith('deleted file mode'))) status = 'deleted'
    else if (from !== undefined && to !== undefined) status = 'renamed'
    let path: string
    if (status === 'renamed') path = unquote(to!)
    else if (plus && plus !== '/dev/null') path = unquote(plus).replace(/^b\//, '')
    else if (minus && minus !== '/dev/null') path = unquote(minus).replace(/^a\//, '')
    else path = headerPath(lines[0].slice('diff --git '.length))
    const f: FileDiff = { path, status, binary: head.some((l) => l.startsWith('Binary files ')), hunks: [], added: 0, removed: 0, text: lines.join('\n') + '\n' }
    if (status === 'renamed') f.oldPath = unquote(from!)
    for (const l of lines.slice(head.length)) {
      const h = hunkHeader.exec(l)
      if (h) {
        f.hunks.push({ header: l, oldStart: Number(h[1]), oldLines: h[2] === undefined ? 1 : Number(h[2]), newStart: Number(h[3]), newLines: h[4] === undefined ? 1 : Number(h[4]), lines: [] })
        continue
      }
      const cur = f.hunks.at(-1)
      if (!cur) continue
      cur.lines.push(l)
      if (l.startsWith('+')) f.added++
      else if (l.startsWith('-')) f.removed++
    }
    out.push(f)
  }
  return out
}

// diffSummary is the bar's text: "3 files +12 −4".
export function diffSummary(files: FileDiff[]): string {
  const added = files.reduce((n, f) => n + f.added, 0)
  const removed = files.reduce((n, f) => n + f.removed, 0)
  return `${files.length === 1 ? '1 file' : `${files.length} files`} +${added} −${removed}`
}

// hunkSides are a hunk's lines before and after, and whether either side's last line has no newline.
function hunkSides(h: Hunk): { before: string[]; after: string[]; beforeNoEol: boolean; afterNoEol: boolean } {
  const before: string[] = []
  const after: string[] = []
  let beforeNoEol = false
  let afterNoEol = false
  let last = ' '
  for (const l of h.lines) {
    const mark = l[0] ?? ' '
    if (mark === '\\') {
      if (last !== '+') beforeNoEol = true
      if (last !== '-') afterNoEol = true
      continue
    }
    last = mark
    if (mark !== '+') before.push(l.slice(1))
    if (mark !== '-') after.push(l.slice(1))
  }
  return { before, after, beforeNoEol, afterNoEol }
}

// HunkRevert is a file's content with one hunk taken back, or why it cannot be.
export type HunkRevert = { ok: true; content: string } | { ok: false; reason: string }

const same = (lines: string[], at: number, want: string[]) => want.every((w, k) => lines[at + k] === w)

// revertHunk takes one hunk back out of a file's content: the hunk's lines after the change are replaced by its
// lines before it. They are looked for where the hunk says, else anywhere they occur exactly once (an earlier
// hunk taken back since moved them); if they changed since, nothing is done and the reason says so.
export function revertHunk(content: string, h: Hunk): HunkRevert {
  const crlf = /\r\n/.test(content)
  const eol = content.endsWith('\n')
  const body = crlf ? content.replace(/\r\n/g, '\n') : content
  const lines = body.split('\n')
  if (eol) lines.pop()
  if (content === '') lines.length = 0
  const sides = hunkSides(h)
  const { beforeNoEol } = sides
  const strip = (ls: string[]) => (crlf ? ls.map((l) => l.replace(/\r$/, '')) : ls)
  const before = strip(sides.before)
  const after = strip(sides.after)
  // A hunk adding to an empty side starts after line newStart (git writes the line before it).
  let at = h.newLines === 0 ? h.newStart : h.newStart - 1
  if (!same(lines, at, after) || at + after.length > lines.length) {
    const found: number[] = []
    for (let k = 0; k + after.length <= lines.length && found.length < 2; k++) if (same(lines, k, after)) found.push(k)
    if (found.length !== 1 || after.length === 0) return { ok: false, reason: 'those lines have changed since; the file is left as it is' }
    at = found[0]
  }
  const atEnd = at + after.length === lines.length
  const next = [...lines.slice(0, at), ...before, ...lines.slice(at + after.length)]
  // At the file's end, the newline after the last line is as the hunk's before side had it (added lines after a
  // last line that kept its newline leave it there); elsewhere it stays as it is.
  const endsWithNewline = atEnd ? (before.length > 0 ? !beforeNoEol : true) : eol
  let text = next.join('\n') + (next.length > 0 && endsWithNewline ? '\n' : '')
  if (crlf) text = text.replace(/\n/g, '\r\n')
  return { ok: true, content: text }
}

// hunkLine is the line number (in the file after the change) of a hunk body's line k, for a comment on it: an
// added or unchanged line's number after, a removed line's number before.
export function hunkLine(h: Hunk, k: number): { line: number; side: 'old' | 'new' } {
  let o = h.oldStart
  let n = h.newStart
  for (let j = 0; j < k; j++) {
    const m = h.lines[j][0]
    if (m === '+') n++
    else if (m === '-') o++
    else if (m !== '\\') {
      o++
      n++
    }
  }
  return h.lines[k]?.[0] === '-' ? { line: o, side: 'old' } : { line: n, side: 'new' }
}

// changedLines names the lines a hunk changed, for a person: the added lines by their numbers after the change,
// else the removed ones by theirs before it ("line 2", "lines 5–7", "removed lines 3–4").
export function changedLines(h: Hunk): string {
  const added: number[] = []
  const removed: number[] = []
  h.lines.forEach((l, k) => {
    if (l[0] === '+') added.push(hunkLine(h, k).line)
    else if (l[0] === '-') removed.push(hunkLine(h, k).line)
  })
  const span = (ns: number[]) => (ns.length === 1 ? `line ${ns[0]}` : `lines ${ns[0]}–${ns[ns.length - 1]}`)
  if (added.length) return span(added)
  return removed.length ? `removed ${span(removed)}` : 'no line'
}
