import { memo } from 'react'
import { planToolName } from '../agent/plan'
import type { Item } from '../agent/conversation'
import type { useAgentSession } from '../stores/agent-session'
import { MessageText } from './message-text'
import { RequestActions } from './request-actions'
import { ToolCard } from './tool-card'

export type Session = ReturnType<typeof useAgentSession>

// ItemSession is the part of the session an item acts through. Its functions keep their identity while a turn
// streams and items() reads the conversation as it is when called, so an item that did not change is not
// rendered again for every piece of an answer streaming into the last one.
export interface ItemSession {
  convId: string
  running: boolean
  items: () => Item[]
  answer: Session['answer']
  undo: Session['undo']
  undoRestore: Session['undoRestore']
  rewind: Session['rewind']
}

interface Props {
  it: Item
  index: number
  s: ItemSession
  onOpen: (rel: string, line?: number) => void
  onEditResend: (text: string) => void
}

// LogItem is one item of the conversation as the log shows it, rendered again only when its props change.
export const LogItem = memo(function LogItem({ it, index, s, onOpen, onEditResend }: Props) {
  switch (it.kind) {
    case 'user':
      return (
        <div className="request" data-testid="msg-user">
          <div className="msg user">
            {it.text}
            {it.attached?.length ? <div className="msg-attached muted" data-testid="msg-attached">attached: {it.attached.join(', ')}</div> : null}
          </div>
          {s.running ? null : <RequestActions s={s} index={index} onEditResend={onEditResend} />}
        </div>
      )
    case 'reasoning':
      return (
        <details className="msg reasoning" data-testid="msg-reasoning">
          <summary>Thinking</summary>
          <div className="reasoning-text">{it.text}</div>
        </details>
      )
    case 'compaction':
      return (
        <details className="msg compaction" data-testid="msg-compaction">
          <summary>
            Conversation compacted: {it.summarised} earlier messages summarised{it.before ? ` (about ${it.before.toLocaleString()} → ${it.after.toLocaleString()} tokens)` : ''}
          </summary>
          <MessageText text={it.summary} />
        </details>
      )
    case 'steer':
      return (
        <div className="msg user steer" data-testid="msg-steer">
          <div className="steer-label muted">Sent while it worked</div>
          {it.text}
        </div>
      )
    case 'assistant':
      return (
        <div className="msg assistant" data-testid="msg-assistant">
          <MessageText text={it.text} />
        </div>
      )
    case 'notice':
      return (
        <div className={`msg notice ${it.tone}`} data-testid="msg-notice">
          {it.text}
          {it.undo ? (
            it.undone ? (
              <span className="muted" data-testid="restore-undone"> Undone: the files are back as they were before it.</span>
            ) : (
              <button className="notice-undo" onClick={() => void s.undoRestore(it.id)} disabled={s.running} data-testid="restore-undo" title="Put the files back as they were just before this restore (the snapshot it took first)">
                Undo
              </button>
            )
          ) : null}
        </div>
      )
    case 'tool':
      if (it.name === planToolName) return null // shown as the plan above
      return <ToolCard item={it} conversation={s.convId} onAnswer={s.answer} onUndo={(item) => void s.undo(item)} onOpen={onOpen} />
  }
  return null
})
