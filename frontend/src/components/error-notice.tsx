import type { BackendError } from '../bridge'

// ErrorNotice shows a backend failure with its stable code, never a bare Go error string.
export function ErrorNotice({ error }: { error: BackendError }) {
  return (
    <div className="error-notice" role="alert" data-testid="error" data-code={error.code}>
      <code className="error-code">{error.code}</code>
      <span className="error-message">{error.message}</span>
    </div>
  )
}
