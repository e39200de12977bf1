import { useState } from 'react'
import { toBackendError } from '../bridge'
import { useBridge } from '../stores/project-scope'
import { snapshotBefore } from '../agent/conversation'
import { restorePlan, type PlannedChange } from '../agent/restore-plan'
import type { ItemSession } from './log-item'

type Sheet = { state: 'loading' } | { state: 'ready'; plan: PlannedChange[] } | { state: 'failed'; message: string }

const changeText: Record<PlannedChange['change'], string> = { 'put back': 'put back', removed: 'removed', 'brought back': 'brought back' }

interface Props {
  s: ItemSession
  index: number
  onEditResend: (text: string) => void
}

// RequestActions are the request's own actions, in words under it: *Restore checkpoint* opens a sheet listing the
// files a restore will change (the diff of the request's snapshot against now) before anything is done; *Edit*
// cuts the conversation there and puts the request back in the box.
export function RequestActions({ s, index, onEditResend }: Props) {
  const { callTool } = useBridge()
  const [sheet, setSheet] = useState<Sheet | null>(null)
  // Read as it renders: the actions show only between turns, and a turn's end renders every item again.
  const snap = snapshotBefore(s.items(), index)
  const open = async () => {
    if (!snap) return setSheet({ state: 'ready', plan: [] })
    setSheet({ state: 'loading' })
    try {
      const d = await callTool('diff_snapshot', { id: snap })
      setSheet({ state: 'ready', plan: restorePlan(d.diff) })
    } catch (e) {
      setSheet({ state: 'failed', message: toBackendError(e).message })
    }
  }
  const rewind = async (what: { code: boolean; conversation: boolean }) => {
    setSheet(null)
    await s.rewind(index, what)
  }
  return (
    <>
      <div className="request-actions">
        <button className="request-action" onClick={() => (sheet ? setSheet(null) : void open())} aria-expanded={!!sheet} data-testid="restore-checkpoint" title="See which files a restore would change, then restore them and/or the conversation">
          Restore checkpoint
        </button>
        <button
          className="request-action"
          onClick={() =>
            void s.rewind(index, { code: false, conversation: true }).then((t) => {
              if (t !== undefined) onEditResend(t)
            })
          }
          data-testid="edit-resend"
          title="Cut the conversation back to before this request and put it in the box to edit (the files stay as they are)"
        >
          Edit
        </button>
      </div>
      {sheet ? (
        <div className="restore-sheet" role="dialog" aria-label="Restore checkpoint" data-testid="restore-sheet">
          {sheet.state === 'loading' ? <p className="muted">Comparing the checkpoint with the files now…</p> : null}
          {sheet.state === 'failed' ? <p data-testid="restore-sheet-error">The checkpoint cannot be compared: {sheet.message}</p> : null}
          {sheet.state === 'ready' && !snap ? <p data-testid="restore-sheet-summary">This request changed no file: only the conversation can go back.</p> : null}
          {sheet.state === 'ready' && snap && sheet.plan.length === 0 ? <p data-testid="restore-sheet-summary">No file has changed since this checkpoint.</p> : null}
          {sheet.state === 'ready' && sheet.plan.length > 0 ? (
            <>
              <p data-testid="restore-sheet-summary">
                Restoring changes {sheet.plan.length === 1 ? '1 file' : `${sheet.plan.length} files`} back to before this request (a snapshot of them now is taken first, so it can be undone):
              </p>
              <ul className="restore-files">
                {sheet.plan.map((c) => (
                  <li key={`${c.change} ${c.path}`} data-testid="restore-file" data-change={c.change}>
                    <span className={`restore-change ${c.change.replace(' ', '-')}`}>{changeText[c.change]}</span> <code>{c.path}</code>
                  </li>
                ))}
              </ul>
            </>
          ) : null}
          <div className="restore-buttons">
            {sheet.state === 'ready' && sheet.plan.length > 0 ? (
              <>
                <button className="primary" onClick={() => void rewind({ code: true, conversation: false })} data-testid="rewind-code">
                  Restore files
                </button>
                <button onClick={() => void rewind({ code: true, conversation: true })} data-testid="rewind-both">
                  Restore files and conversation
                </button>
              </>
            ) : null}
            <button onClick={() => void rewind({ code: false, conversation: true })} data-testid="rewind-conversation" title="Cut the conversation back to before this request (what is cut stays in the saved history); the files stay as they are">
              Conversation only
            </button>
            <button onClick={() => setSheet(null)} data-testid="restore-cancel">
              Cancel
            </button>
          </div>
        </div>
      ) : null}
    </>
  )
}
