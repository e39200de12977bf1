import { blocks, spans } from '../lib/message-blocks'

// MessageText shows a model's answer: prose with inline code, and fenced code blocks, all as text.
export function MessageText({ text }: { text: string }) {
  return (
    <>
      {blocks(text).map((b, i) =>
        b.kind === 'code' ? (
          <pre key={i} className="msg-code" data-lang={b.lang}>
            {b.text}
          </pre>
        ) : (
          <span key={i}>
            {spans(b.text).map((s, j) => (s.code ? <code key={j}>{s.text}</code> : s.text))}
          </span>
        ),
      )}
    </>
  )
}
