import { describe, expect, it } from 'vitest'
import { BackendError, toBackendError } from './backend-error'

describe('toBackendError', () => {
  it('reads the backend wire shape from a rejection string', () => {
    const e = toBackendError('{"error":{"code":"outside_root","message":"outside the project root: ../x","path":"../x"}}')
    expect(e).toBeInstanceOf(BackendError)
    expect(e.code).toBe('outside_root')
    expect(e.message).toBe('outside the project root: ../x')
    expect(e.path).toBe('../x')
  })

  it('keeps field and details', () => {
    const e = toBackendError(new Error('{"error":{"code":"too_large","message":"m","field":"path","details":{"size":5}}}'))
    expect(e.field).toBe('path')
    expect(e.details).toEqual({ size: 5 })
  })

  it('turns anything else into code internal with the original text', () => {
    for (const reason of ['plain text', new Error('boom'), 42, '{"not":"ours"}', '{"error":{"message":"no code"}}']) {
      const e = toBackendError(reason)
      expect(e.code).toBe('internal')
      expect(e.message).toBe(reason instanceof Error ? reason.message : String(reason))
    }
  })

  it('passes a BackendError through unchanged', () => {
    const e = new BackendError('no_match', 'x')
    expect(toBackendError(e)).toBe(e)
  })
})
