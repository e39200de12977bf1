import { useEffect, useRef, useState } from 'react'
import { type CallCheck } from '../bridge'
import { useBridge, useShown } from '../stores/project-scope'
import { fetchDomain, sessionGrant } from '../agent/approvals'
import type { ToolItem } from '../agent/conversation'
import type { Approval } from '../stores/agent-session'
import { AlwaysAllow } from './approval-buttons'
import { DiffView } from './diff-view'

const str = (v: unknown): string => (typeof v === 'string' ? v : '')

// ApprovalCard is the part of a tool call's card that waits for the user: what the call will do in full (a
// command's every word, an edit's diff with line numbers), and the answers, which stay in view at the bottom of
// the log while the card is on screen. Enter allows once and Esc denies, for the first card that waits, unless
// the keys are typing somewhere else.
export function ApprovalCard({ item, onAnswer }: { item: ToolItem; onAnswer: (id: string, a: Approval) => void }) {
  const { checkCall } = useBridge()
  const shown = useShown()
  const [reason, setReason] = useState('')
  // proposal is the user's edit of the proposed text (null: not editing), sent back with the approval.
  const [proposal, setProposal] = useState<string[] | null>(null)
  const [check, setCheck] = useState<CallCheck | null>(null)
  const box = useRef<HTMLDivElement>(null)
  const reasonBox = useRef<HTMLInputElement>(null)
  useEffect(() => {
    let live = true
    checkCall(item.name, item.input)
      .then((c) => live && setCheck(c))
      .catch(() => undefined)
    return () => {
      live = false
    }
  }, [item.name, item.input, checkCall])
  const grant = sessionGrant(item.name, item.input, check?.grant)
  const editable = item.name === 'patch_file' || item.name === 'write_file'
  const allow = (kind: 'once' | 'session') => onAnswer(item.id, proposal ? { kind, input: withProposal(item, proposal) } : { kind })
  const deny = () => onAnswer(item.id, { kind: 'deny', reason })

  // Registered anew each render, so the keys answer with the card's current reason and edit. A card of a project
  // or a conversation not shown takes no keys: Enter never approves a call out of sight.
  useEffect(() => {
    if (!shown) return
    const onKey = (e: KeyboardEvent) => {
      if ((e.key !== 'Enter' && e.key !== 'Escape') || e.altKey || e.ctrlKey || e.metaKey || e.shiftKey || e.isComposing) return
      // The first card that waits in its own conversation: another conversation of the project, hidden, may have
      // one that waits too, earlier in the page.
      const view = box.current?.closest('[data-testid="conversation-pane"]') ?? box.current?.closest('[data-testid="project-view"]') ?? document
      if (view.querySelector('[data-testid="approval"]') !== box.current) return // the first card that waits
      const t = e.target instanceof HTMLElement ? e.target : null
      const inReason = t !== null && t === reasonBox.current
      // The request box counts as free while it is empty (the focus stays there after Send); any other field
      // the user types in keeps its keys, and so does an open @-file list.
      const composer = t?.dataset.testid === 'agent-input'
      const free = !t || inReason || (composer ? (t as HTMLTextAreaElement).value === '' && !view.querySelector('[data-testid="mention-list"]') : !typing(t))
      if (!free) return
      if (e.key === 'Escape') {
        e.preventDefault()
        deny()
      } else if (inReason) {
        e.preventDefault()
        deny() // a reason typed and Enter: deny with it
      } else if (composer || !t?.closest('button, a, summary, details')) {
        e.preventDefault()
        allow('once')
      }
    }
    document.addEventListener('keydown', onKey, true)
    return () => document.removeEventListener('keydown', onKey, true)
  })

  return (
    <div className="approval" data-testid="approval" ref={box}>
      {item.name === 'exec_shell' ? (
        <pre className="approval-command" data-testid="approval-command">
          {`$ ${str(item.input.command)}`}
        </pre>
      ) : null}
      {item.name === 'web_fetch' ? (
        <pre className="approval-command" data-testid="approval-fetch">
          {`Fetch from ${fetchDomain(item.input) || '?'}\n${str(item.input.url)}`}
        </pre>
      ) : null}
      {editable && item.preview !== undefined && proposal === null ? <DiffView diff={item.preview} testid="approval-diff" /> : null}
      {editable && item.preview === undefined && proposal === null ? <Preview item={item} /> : null}
      {editable && proposal !== null ? (
        <div className="approval-edit">
          {proposal.map((text, n) => (
            <textarea
              key={n}
              value={text}
              onChange={(e) => setProposal((p) => (p ?? []).map((t, k) => (k === n ? e.target.value : t)))}
              rows={Math.min(20, text.split('\n').length + 1)}
              aria-label={item.name === 'write_file' ? 'New content' : `Replacement ${n + 1}`}
              data-testid="approval-edit"
            />
          ))}
        </div>
      ) : null}
      <div className="approval-buttons" data-testid="approval-buttons">
        <button className="primary" onClick={() => allow('once')} data-testid="approve-once" title="Allow this call once (Enter)">
          Allow once <kbd>Enter</kbd>
        </button>
        {grant ? (
          <button onClick={() => allow('session')} data-testid="approve-session">
            {grant.label}
          </button>
        ) : null}
        <AlwaysAllow item={item} check={check} onAllow={() => allow('once')} />
        {editable && proposal === null ? (
          <button onClick={() => setProposal(proposedTexts(item))} data-testid="approval-edit-start" title="Change the proposed text before allowing it; the model is told">
            Edit
          </button>
        ) : null}
        <input ref={reasonBox} value={reason} onChange={(e) => setReason(e.target.value)} placeholder="reason (optional)" aria-label="Reason for denying" data-testid="deny-reason" />
        <button className="danger" onClick={deny} data-testid="deny" title="Deny this call (Esc); the model is told, with the reason if you give one">
          Deny <kbd>Esc</kbd>
        </button>
      </div>
    </div>
  )
}

// typing says the element takes typed text (a field that is not read-only), so Enter and Esc are its own.
function typing(t: HTMLElement): boolean {
  if (t.isContentEditable) return true
  if (t instanceof HTMLTextAreaElement) return !t.readOnly && !t.disabled
  if (t instanceof HTMLInputElement) return !t.readOnly && !t.disabled && !['checkbox', 'radio', 'button', 'submit', 'reset'].includes(t.type)
  return t instanceof HTMLSelectElement
}

// proposedTexts are the texts of an edit the user may change: a write's content, each replacement of a patch.
function proposedTexts(item: ToolItem): string[] {
  const i = item.input
  if (item.name === 'write_file') return [str(i.content)]
  if (Array.isArray(i.edits)) return (i.edits as { replace?: string }[]).map((e) => str(e.replace))
  return [str(i.replace)]
}

// withProposal is the call's input with the user's texts in place of the proposed ones.
function withProposal(item: ToolItem, texts: string[]): Record<string, unknown> {
  const i = item.input
  if (item.name === 'write_file') return { ...i, content: texts[0] }
  if (Array.isArray(i.edits)) return { ...i, edits: (i.edits as Record<string, unknown>[]).map((e, n) => ({ ...e, replace: texts[n] })) }
  return { ...i, replace: texts[0] }
}

// Preview is the proposed change before the dry run's diff arrives: the texts it searches for and puts instead.
function Preview({ item }: { item: ToolItem }) {
  const i = item.input
  if (item.name === 'write_file') return <pre className="tool-preview">{str(i.content).slice(0, 4000)}</pre>
  const edits = Array.isArray(i.edits) ? (i.edits as { search?: string; replace?: string }[]) : [{ search: str(i.search), replace: str(i.replace) }]
  return (
    <pre className="tool-preview" data-testid="approval-preview">
      {edits.map((e, n) => (
        <div key={n}>
          {str(e.search)
            .split('\n')
            .map((l, k) => (
              <div key={`d${k}`} className="del">-{l}</div>
            ))}
          {str(e.replace)
            .split('\n')
            .map((l, k) => (
              <div key={`a${k}`} className="add">+{l}</div>
            ))}
        </div>
      ))}
    </pre>
  )
}
