import { useEffect, useState } from 'react'
import { useBridge } from '../stores/project-scope'
import { diffSummary, parseDiff, type Range } from '../agent/turn-review'

interface Props {
  range: Range
  // seq changes when files changed outside a turn (a revert, an undo): the count is taken again.
  seq: number
  onReview: () => void
}

// TurnBar closes a finished turn that changed files: "3 files +12 −4", counted from the snapshots (commands'
// changes included); a click opens the turn's review in the centre pane.
export function TurnBar({ range, seq, onReview }: Props) {
  const { callTool } = useBridge()
  const [summary, setSummary] = useState<string | null>(null)
  useEffect(() => {
    let live = true
    callTool('diff_snapshot', { id: range.from, ...(range.to ? { to: range.to } : {}) })
      .then((d) => {
        const files = parseDiff(d.diff)
        if (live) setSummary(files.length ? diffSummary(files) : '')
      })
      .catch(() => live && setSummary(null))
    return () => {
      live = false
    }
  }, [callTool, range.from, range.to, seq])
  if (summary === null) return null
  return (
    <button className="turn-bar" onClick={onReview} data-testid="turn-bar" title="Review what this turn changed, as one diff">
      {summary ? (
        <>
          <span className="turn-bar-label">Changed</span> <span data-testid="turn-bar-summary">{summary}</span>
        </>
      ) : (
        <span className="muted" data-testid="turn-bar-summary">
          Changes taken back: no file differs
        </span>
      )}
      <span className="turn-bar-open">Review ›</span>
    </button>
  )
}
