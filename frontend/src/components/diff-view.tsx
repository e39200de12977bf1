import { diffRows } from '../lib/diff-lines'

const mark = { add: '+', del: '-', ctx: ' ', hunk: '', note: '', file: '' } as const

// DiffView shows a unified diff as a reader follows it: added lines green and removed ones red, each with its
// number in the old and the new file, long lines wrapped rather than cut. The approval card and the applied
// change share it, so what is approved looks as what lands. The line numbers are drawn by CSS (data-n), so a
// copied diff is the diff's own text.
export function DiffView({ diff, testid }: { diff: string; testid?: string }) {
  const rows = diffRows(diff).filter((r) => r.kind !== 'file')
  if (rows.length === 0) return <div className="diff-view diff-empty muted" data-testid={testid}>(no change)</div>
  return (
    <div className="diff-view" data-testid={testid}>
      {rows.map((r, n) => (
        <div key={n} className={`diff-row ${r.kind}`} data-testid="diff-row" data-kind={r.kind}>
          <span className="diff-num" data-n={r.old ?? ''} title={r.old !== undefined ? `line ${r.old} before` : undefined} />
          <span className="diff-num" data-n={r.new ?? ''} title={r.new !== undefined ? `line ${r.new} after` : undefined} />
          <span className="diff-text">{r.kind === 'hunk' || r.kind === 'note' ? r.text : `${mark[r.kind]}${r.text}`}</span>
        </div>
      ))}
    </div>
  )
}
