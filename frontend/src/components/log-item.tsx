import { planToolName } from '../agent/plan'
import type { Item } from '../agent/conversation'
import type { useAgentSession } from '../stores/agent-session'
import { MessageText } from './message-text'
import { ToolCard } from './tool-card'

export type Session = ReturnType<typeof useAgentSession>

interface Props {
  it: Item
  index: number
  s: Session
  onOpen: (rel: string, line?: number) => void
  onEditResend: (text: string) => void
}

// LogItem is one item of the conversation as the log shows it.
export function LogItem({ it, index, s, onOpen, onEditResend }: Props) {
  switch (it.kind) {
    case 'user':
      return (
        <div className="msg user" data-testid="msg-user">
          {it.text}
          {it.attached?.length ? <div className="msg-attached muted" data-testid="msg-attached">attached: {it.attached.join(', ')}</div> : null}
          {s.running ? null : (
            <details className="msg-rewind" data-testid="msg-rewind">
              <summary title="Go back to just before this request">↶</summary>
              <button className="link-button" onClick={() => void s.rewind(index, { code: true, conversation: false })} data-testid="rewind-code" title="Put the files back as they were before this request's first change (itself backed up)">
                Rewind code
              </button>
              <button className="link-button" onClick={() => void s.rewind(index, { code: false, conversation: true })} data-testid="rewind-conversation" title="Cut the conversation back to before this request (what is cut stays in the saved history)">
                Rewind conversation
              </button>
              <button className="link-button" onClick={() => void s.rewind(index, { code: true, conversation: true })} data-testid="rewind-both">
                Rewind both
              </button>
              <button
                className="link-button"
                onClick={() =>
                  void s.rewind(index, { code: false, conversation: true }).then((t) => {
                    if (t !== undefined) onEditResend(t)
                  })
                }
                data-testid="edit-resend"
              >
                Edit and resend
              </button>
            </details>
          )}
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
    case 'assistant':
      return (
        <div className="msg assistant" data-testid="msg-assistant">
          <MessageText text={it.text} />
        </div>
      )
    case 'notice':
      return <div className={`msg notice ${it.tone}`} data-testid="msg-notice">{it.text}</div>
    case 'tool':
      if (it.name === planToolName) return null // shown as the plan above
      return <ToolCard item={it} onAnswer={s.answer} onUndo={(item) => void s.undo(item)} onOpen={onOpen} />
  }
  return null
}
