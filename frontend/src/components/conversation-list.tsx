import { useState } from 'react'
import { toBackendError, type ConversationMeta } from '../bridge'
import { useBridge } from '../stores/project-scope'
import { relativeTime } from '../lib/relative-time'
import { formatCost } from '../llm/cost'
import type { AgentState } from '../agent/progress'

// ConversationMark is what the list shows of a conversation the window has had open: what its agent does, and
// what it cost.
export interface ConversationMark {
  state: AgentState
  running: boolean
  cost?: number
}

const stateWords: Record<Exclude<AgentState, ''>, string> = { working: 'working', waiting: 'needs approval', done: 'done', failed: 'failed' }

interface Props {
  list: ConversationMeta[]
  selected: string
  onOpen: (id: string) => void
  onRename: (id: string, title: string) => Promise<void>
  onRemove: (id: string) => void
  marks?: Record<string, ConversationMark>
}

// ConversationList is the project's saved conversations, most recent first, each with when it began and last
// changed, renamed in place, exported as Markdown or JSON, or deleted; the ones at work say so (working, needs
// approval, done, failed); each says what it cost (saved with it, so also those not opened this run). One that
// runs is stopped before it can be deleted.
export function ConversationList({ list, selected, onOpen, onRename, onRemove, marks = {} }: Props) {
  const { saveConversationExport } = useBridge()
  const [error, setError] = useState('')
  const onError = (t: string) => setError(t)
  const [editing, setEditing] = useState<{ id: string; title: string } | null>(null)
  const commit = () => {
    if (!editing) return
    const t = editing.title.trim()
    setEditing(null)
    const was = list.find((m) => m.id === editing.id)?.title
    if (t && t !== was) onRename(editing.id, t).catch((e: unknown) => onError(`Renaming failed: ${toBackendError(e).message}`))
  }
  const exportAs = (id: string, format: 'markdown' | 'json') => {
    saveConversationExport(id, format).catch((e: unknown) => onError(`Export failed: ${toBackendError(e).message}`))
  }
  return (
    <ul className="conversation-list" data-testid="conversation-list">
      {error ? (
        <li className="msg notice error" role="alert" data-testid="conversation-list-error">
          {error}
        </li>
      ) : null}
      {list.length === 0 ? <li className="tree-empty">no saved conversations</li> : null}
      {list.map((m) => {
        const mark = marks[m.id]
        const state = mark?.state || (mark?.running ? 'working' : '')
        // A conversation at work this run says its live cost; any other, what its saved usage says.
        const cost = mark?.cost ?? m.cost
        return (
        <li key={m.id} className={m.id === selected ? 'selected' : ''} data-testid="conversation-row" data-id={m.id} data-state={state}>
          {state ? <span className={`conversation-state ${state}`} role="img" aria-label={stateWords[state]} title={stateWords[state]} data-testid="conversation-state" /> : null}
          {editing?.id === m.id ? (
            <input
              className="conversation-rename"
              value={editing.title}
              autoFocus
              onChange={(e) => setEditing({ id: m.id, title: e.target.value })}
              onKeyDown={(e) => {
                if (e.key === 'Enter') commit()
                if (e.key === 'Escape') setEditing(null)
              }}
              onBlur={commit}
              aria-label="Conversation title"
              data-testid="conversation-rename-input"
            />
          ) : (
            <button className="conversation-open" onClick={() => onOpen(m.id)} onDoubleClick={() => setEditing({ id: m.id, title: m.title })} data-testid="conversation-item" data-id={m.id} title={m.title}>
              {m.title}
            </button>
          )}
          {cost !== undefined ? (
            <span className="conversation-cost muted" title="What this conversation cost" data-testid="conversation-cost">
              {formatCost(cost)}
            </span>
          ) : null}
          <span className="conversation-date muted" title={`started ${new Date(m.created).toLocaleString()}, last changed ${new Date(m.updated).toLocaleString()}`} data-testid="conversation-date">
            {relativeTime(m.updated)}
          </span>
          <button className="link-button" title="Rename" onClick={() => setEditing({ id: m.id, title: m.title })} data-testid="conversation-rename">
            ✎
          </button>
          <button className="link-button" title="Export as Markdown" onClick={() => exportAs(m.id, 'markdown')} data-testid="conversation-export-md">
            MD
          </button>
          <button className="link-button" title="Export as JSON" onClick={() => exportAs(m.id, 'json')} data-testid="conversation-export-json">
            JSON
          </button>
          <button
            className="link-button"
            title={mark?.running ? 'Stop it before deleting it' : 'Delete'}
            data-testid="conversation-delete"
            disabled={mark?.running}
            onClick={() => {
              if (window.confirm(`Delete “${m.title}”?`)) onRemove(m.id)
            }}
          >
            🗑
          </button>
        </li>
        )
      })}
    </ul>
  )
}
