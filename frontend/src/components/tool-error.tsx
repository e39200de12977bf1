import type { ToolError as Failure } from '../agent/conversation'
import { errorTitle } from '../lib/error-titles'

// ToolError is a failed call's error on its card, marked with its code (tests and the window find a card's
// failure by it). A plain call's card says what happened in words with the raw code under Details; the question
// and subagent cards, which say what they are about above it, show the code and the backend's message as they are.
export function ToolError({ error, titled = false }: { error: Failure; titled?: boolean }) {
  return (
    <div className="tool-error" data-testid="tool-error" data-code={error.code}>
      {titled ? (
        <>
          <strong className="error-title">{errorTitle(error.code).title}</strong> {error.message}
          <details className="error-details">
            <summary>Details</summary>
            <code className="error-code">{error.code}</code>
          </details>
        </>
      ) : (
        <>
          <span className="error-code">{error.code}</span> {error.message}
        </>
      )}
    </div>
  )
}
