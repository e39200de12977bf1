import { useEffect, useRef } from 'react'
import { planToolName } from '../agent/plan'
import type { useAgentSession } from '../stores/agent-session'
import { MessageText } from './message-text'
import { ToolCard } from './tool-card'

type Session = ReturnType<typeof useAgentSession>

interface Props {
  s: Session
  // placeholder is what an empty conversation shows.
  placeholder: string
  onOpen: (rel: string, line?: number) => void
  // onEditResend takes the text of a request cut off by Edit and resend, for the request box.
  onEditResend: (text: string) => void
}

// AgentLog is the conversation as the user reads it: a block per request, answer and thought, a card per tool
// call, and the controls that act on the whole log (Retry, Start, Continue).
export function AgentLog({ s, placeholder, onOpen, onEditResend }: Props) {
  const end = useRef<HTMLDivElement>(null)
  useEffect(() => {
    void end.current?.scrollIntoView({ block: 'end' }) // returns a promise in recent Chromium; effects must not
  }, [s.conv.items])
  let lastUser = -1
  s.conv.items.forEach((it, i) => {
    if (it.kind === 'user') lastUser = i
  })
  return (
    <div className="agent-log" data-testid="agent-log">
      {s.conv.items.length === 0 ? <div className="placeholder">{placeholder}</div> : null}
      {s.conv.items.map((it, index) => {
        switch (it.kind) {
          case 'user':
            return (
              <div key={it.id} className="msg user" data-testid="msg-user">
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
              <details key={it.id} className="msg reasoning" data-testid="msg-reasoning">
                <summary>Thinking</summary>
                <div className="reasoning-text">{it.text}</div>
              </details>
            )
          case 'compaction':
            return (
              <details key={it.id} className="msg compaction" data-testid="msg-compaction">
                <summary>
                  Conversation compacted: {it.summarised} earlier messages summarised{it.before ? ` (about ${it.before.toLocaleString()} → ${it.after.toLocaleString()} tokens)` : ''}
                </summary>
                <MessageText text={it.summary} />
              </details>
            )
          case 'assistant':
            return (
              <div key={it.id} className="msg assistant" data-testid="msg-assistant">
                <MessageText text={it.text} />
              </div>
            )
          case 'notice':
            return <div key={it.id} className={`msg notice ${it.tone}`} data-testid="msg-notice">{it.text}</div>
          case 'tool':
            if (it.name === planToolName) return null // shown as the plan above
            return <ToolCard key={it.id} item={it} onAnswer={s.answer} onUndo={(item) => void s.undo(item)} onOpen={onOpen} />
        }
      })}
      {s.compacting ? <div className="msg notice info" data-testid="compacting">Compacting the conversation…</div> : null}
      {!s.running && lastUser >= 0 ? (
        <button
          className="link-button retry"
          onClick={() => void s.rewind(lastUser, { code: false, conversation: true }).then((t) => (t !== undefined ? s.send(t) : undefined))}
          disabled={!s.ready}
          data-testid="agent-retry"
          title="Run the last request again (its answer stays in the saved history)"
        >
          Retry
        </button>
      ) : null}
      {s.conv.planMode && !s.running && lastUser >= 0 ? (
        <button
          onClick={() => {
            s.setPlanMode(false)
            void s.send('Start: carry out the plan.')
          }}
          disabled={!s.ready}
          data-testid="plan-start"
        >
          Start
        </button>
      ) : null}
      {s.conv.halt && !s.running ? (
        <div className="msg notice info halt" data-testid="agent-halt" data-kind={s.conv.halt.kind}>
          <button onClick={() => void s.send('', { resume: true })} disabled={!s.ready} data-testid="agent-continue">
            Continue
          </button>
        </div>
      ) : null}
      <div ref={end} />
    </div>
  )
}
