import { useState } from 'react'
import type { ToolItem } from '../agent/conversation'
import type { Approval } from '../stores/agent-session'
import { ToolError } from './tool-error'

const str = (v: unknown): string => (typeof v === 'string' ? v : '')

// AskUserCard is the model's question (ask_user) in the conversation: while the turn waits, its choices as
// buttons and a box for any other answer; then the question and the answer given.
export function AskUserCard({ item, onAnswer }: { item: ToolItem; onAnswer: (id: string, a: Approval) => void }) {
  const [text, setText] = useState('')
  const question = str(item.input.question)
  const choices = Array.isArray(item.input.choices) ? item.input.choices.filter((c): c is string => typeof c === 'string') : []
  const answer = str((item.output as { answer?: unknown } | undefined)?.answer)
  const reply = (t: string) => t.trim() && onAnswer(item.id, { kind: 'reply', text: t.trim() })
  return (
    <div className={`tool-card ask-user ${item.state}`} data-testid="ask-user" data-tool={item.name} data-state={item.state}>
      <div className="tool-head">
        <span className="tool-name">question</span>
        <span className="ask-question" data-testid="ask-question">{question}</span>
      </div>
      {item.state === 'waiting' ? (
        <div className="approval-buttons">
          {choices.map((c) => (
            <button key={c} onClick={() => reply(c)} data-testid="ask-choice">
              {c}
            </button>
          ))}
          <form
            onSubmit={(e) => {
              e.preventDefault()
              reply(text)
            }}
          >
            <input value={text} onChange={(e) => setText(e.target.value)} placeholder={choices.length ? 'or type another answer' : 'your answer'} aria-label="Your answer" data-testid="ask-text" />
            <button type="submit" disabled={!text.trim()} data-testid="ask-send">
              Answer
            </button>
          </form>
        </div>
      ) : null}
      {answer ? (
        <div className="ask-answer" data-testid="ask-answer">
          → {answer}
        </div>
      ) : null}
      {item.error ? <ToolError error={item.error} /> : null}
    </div>
  )
}
