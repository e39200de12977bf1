// What restoring a snapshot will do to each file, read from the diff of the snapshot against the files as they are
// now (diff_snapshot: a/ is the snapshot, b/ the present): a file made since is removed, one deleted since comes
// back, one changed since is put back as it was.
export interface PlannedChange {
  path: string
  change: 'put back' | 'removed' | 'brought back'
}

// unquote reads a path as git prints it: in double quotes, with C escapes, when it has unusual characters.
function unquote(p: string): string {
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

// headerPath is the path of a "diff --git a/P b/P" header (the same path twice, so its length finds the middle).
function headerPath(rest: string): string {
  if (rest.startsWith('"')) {
    const end = rest.indexOf('" ', 1)
    return unquote(rest.slice(0, end + 1)).replace(/^a\//, '')
  }
  return rest.slice(2, 2 + (rest.length - 5) / 2)
}

export function restorePlan(diff: string): PlannedChange[] {
  const out: PlannedChange[] = []
  const blocks = diff.split(/^(?=diff --git )/m).filter((b) => b.startsWith('diff --git '))
  for (const b of blocks) {
    const lines = b.split('\n')
    const from = lines.find((l) => l.startsWith('rename from '))
    const to = lines.find((l) => l.startsWith('rename to '))
    if (from && to) {
      out.push({ path: unquote(to.slice('rename to '.length)), change: 'removed' }, { path: unquote(from.slice('rename from '.length)), change: 'brought back' })
      continue
    }
    const path = headerPath(lines[0].slice('diff --git '.length))
    const change = lines.some((l) => l.startsWith('new file mode')) ? 'removed' : lines.some((l) => l.startsWith('deleted file mode')) ? 'brought back' : 'put back'
    out.push({ path, change })
  }
  return out
}
