import type { BackendError } from '../bridge'
import { errorTitle, type ErrorActionKind } from '../lib/error-titles'

export type ErrorActions = Partial<Record<ErrorActionKind, () => void>>

// ErrorNotice shows a failure as a person reads it: what happened in words, the backend's message (which names the
// path and the reason), at most one action where the caller can carry it out, and the raw code under Details.
export function ErrorNotice({ error, actions }: { error: { code: string; message: string } | BackendError; actions?: ErrorActions }) {
  const t = errorTitle(error.code)
  const act = t.action && actions?.[t.action.kind]
  return (
    <div className="error-notice" role="alert" data-testid="error" data-code={error.code}>
      <strong className="error-title" data-testid="error-title">{t.title}</strong>
      <span className="error-message">{error.message}</span>
      {act && t.action ? (
        <button className="error-action" onClick={act} data-testid="error-action">
          {t.action.label}
        </button>
      ) : null}
      <details className="error-details">
        <summary>Details</summary>
        <code className="error-code">{error.code}</code>
      </details>
    </div>
  )
}
