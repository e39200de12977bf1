import type { SearchMatch } from '../bridge'

export interface FileMatches {
  path: string
  matches: SearchMatch[]
}

// groupMatches groups search results by file, keeping the search's order of files and of lines.
export function groupMatches(matches: SearchMatch[]): FileMatches[] {
  const groups: FileMatches[] = []
  const byPath = new Map<string, FileMatches>()
  for (const m of matches) {
    let g = byPath.get(m.path)
    if (!g) {
      g = { path: m.path, matches: [] }
      byPath.set(m.path, g)
      groups.push(g)
    }
    g.matches.push(m)
  }
  return groups
}

// highlight splits a result line into the text before the match, the match, and after, for display. column is
// 1-based in bytes (UTF-8), as the backend reports it; a clipped line (starting with "…") is searched instead.
export function highlight(text: string, column: number, query: string, regex: boolean, caseInsensitive: boolean): [string, string, string] {
  let re: RegExp | null
  try {
    re = new RegExp(regex ? query : query.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), caseInsensitive ? 'i' : '')
  } catch {
    re = null
  }
  const found = re ? re.exec(text) : null
  if (found && found[0].length > 0) {
    return [text.slice(0, found.index), found[0], text.slice(found.index + found[0].length)]
  }
  // Fall back to the byte column (RE2 and JavaScript regexps can disagree).
  const bytes = new TextEncoder().encode(text)
  const start = new TextDecoder().decode(bytes.slice(0, Math.max(0, column - 1))).length
  return [text.slice(0, start), text.slice(start, start + 1), text.slice(start + 1)]
}
