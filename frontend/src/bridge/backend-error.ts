// A failure reported by the Go backend, with the same stable `code` every face of Rooted uses
// (not_found, outside_root, binary_file, ...). Wails rejects a bound call with the Go error's text, which the
// backend makes the wire-shaped JSON {"error": {code, message, path, ...}}.
export class BackendError extends Error {
  readonly code: string
  readonly path?: string
  readonly field?: string
  readonly details?: Record<string, unknown>

  constructor(code: string, message: string, extra: { path?: string; field?: string; details?: Record<string, unknown> } = {}) {
    super(message)
    this.name = 'BackendError'
    this.code = code
    this.path = extra.path
    this.field = extra.field
    this.details = extra.details
  }
}

interface WireError {
  code: string
  message: string
  path?: string
  field?: string
  details?: Record<string, unknown>
}

function isWireError(v: unknown): v is WireError {
  if (typeof v !== 'object' || v === null) return false
  const e = v as Record<string, unknown>
  return typeof e.code === 'string' && typeof e.message === 'string'
}

// toBackendError turns whatever a rejected bound call produced into a BackendError; anything that is not the
// backend's error JSON becomes code "internal" with the original text, never a bare string.
export function toBackendError(reason: unknown): BackendError {
  if (reason instanceof BackendError) return reason
  const text = typeof reason === 'string' ? reason : reason instanceof Error ? reason.message : String(reason)
  try {
    const parsed: unknown = JSON.parse(text)
    const inner = typeof parsed === 'object' && parsed !== null ? (parsed as { error?: unknown }).error : undefined
    if (isWireError(inner)) {
      return new BackendError(inner.code, inner.message, { path: inner.path, field: inner.field, details: inner.details })
    }
  } catch {
    // not JSON: fall through
  }
  return new BackendError('internal', text)
}
