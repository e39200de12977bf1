import { useEffect, useState } from 'react'
import { toBackendError, type BackendError, type SearchResult } from '../bridge'
import { useBridge } from '../stores/project-scope'
import { searchChanged } from '../lib/fs-changes'
import { groupMatches, highlight } from '../lib/group-matches'
import { useChanges, type ChangeFeed } from '../stores/live-project'
import { ErrorNotice } from './error-notice'
import { useSequence } from '../lib/use-sequence'

interface Props {
  root: string
  onOpen: (rel: string, line: number) => void
  feed?: ChangeFeed
}

// SearchPanel searches the project as the agent's search_files tool does (the same tool) and lists matches by
// file; a click opens the file at the line. A newer query supersedes a running one. Results follow the disk: a
// change runs the search again (after the same short pause as typing), keeping the old results until the new ones
// are in.
export function SearchPanel({ root, onOpen, feed }: Props) {
  const { callTool } = useBridge()
  const [query, setQuery] = useState('')
  const [regex, setRegex] = useState(false)
  const [caseInsensitive, setCaseInsensitive] = useState(true)
  const [glob, setGlob] = useState('')
  const [found, setResult] = useState<SearchResult | null>(null)
  const [failed, setError] = useState<BackendError | null>(null)
  const [busy, setBusy] = useState(false)
  const nextSearch = useSequence()
  const [version, setVersion] = useState(0)
  useChanges(feed, (changes) => {
    if (query.trim() !== '' && searchChanged(changes)) setVersion((v) => v + 1)
  })

  useEffect(() => {
    const q = query
    const fresh = nextSearch()
    if (q.trim() === '') return // the render shows nothing for an empty query; fresh drops what is in flight
    const timer = setTimeout(() => {
      setBusy(true)
      const args: Record<string, unknown> = { query: q, path: root, regex, case_insensitive: caseInsensitive, limit: 500 }
      const globs = glob.split(/[\s,]+/).filter(Boolean)
      if (globs.length) args.glob = globs
      callTool('search_files', args)
        .then((r) => {
          if (!fresh()) return
          setResult(r)
          setError(null)
        })
        .catch((e: unknown) => {
          if (!fresh()) return
          setResult(null)
          setError(toBackendError(e))
        })
        .finally(() => fresh() && setBusy(false))
    }, 150)
    return () => clearTimeout(timer)
  }, [query, regex, caseInsensitive, glob, root, version, callTool, nextSearch])

  const empty = query.trim() === ''
  const result = empty ? null : found
  const error = empty ? null : failed
  const groups = groupMatches(result?.matches ?? [])
  return (
    <div className="search-panel" data-testid="search-panel">
      <div className="search-inputs">
        <input
          className="search-query"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          placeholder="Search"
          aria-label="Search text"
          spellCheck={false}
          autoFocus
          data-testid="search-input"
        />
        <div className="search-toggles">
          <button className={`toggle${caseInsensitive ? '' : ' on'}`} onClick={() => setCaseInsensitive((v) => !v)} title="Match case" aria-pressed={!caseInsensitive}>Aa</button>
          <button className={`toggle${regex ? ' on' : ''}`} onClick={() => setRegex((v) => !v)} title="Regular expression" aria-pressed={regex} data-testid="search-regex">.*</button>
        </div>
        <input className="search-glob" value={glob} onChange={(e) => setGlob(e.target.value)} placeholder="files: *.go, !*_test.go" aria-label="Files to include" spellCheck={false} data-testid="search-glob" />
      </div>
      {error ? <ErrorNotice error={error} /> : null}
      {result ? (
        <div className="search-summary" data-testid="search-summary">
          {result.total} {result.total === 1 ? 'match' : 'matches'} in {groups.length} {groups.length === 1 ? 'file' : 'files'}
          {result.truncated ? ` (first ${result.limit} shown)` : ''}
          {busy ? ' …' : ''}
        </div>
      ) : busy ? (
        <div className="search-summary">Searching…</div>
      ) : null}
      <ul className="search-results">
        {groups.map((g) => (
          <li key={g.path} data-testid="search-file" data-path={g.path}>
            <div className="search-file">
              <span className="search-file-path">{g.path}</span>
              <span className="search-count">{g.matches.length}</span>
            </div>
            <ul>
              {g.matches.map((m) => {
                const [pre, hit, post] = highlight(m.text, m.column, query, regex, caseInsensitive)
                return (
                  <li key={m.line}>
                    <button className="search-hit" onClick={() => onOpen(m.path, m.line)} data-testid="search-hit" data-path={m.path} data-line={m.line} title={`${m.path}:${m.line}`}>
                      <span className="search-line">{m.line}</span>
                      <span className="search-text">
                        {pre}
                        <mark>{hit}</mark>
                        {post}
                      </span>
                    </button>
                  </li>
                )
              })}
            </ul>
          </li>
        ))}
      </ul>
    </div>
  )
}
