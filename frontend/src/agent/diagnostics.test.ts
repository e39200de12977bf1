import { describe, expect, it } from 'vitest'
import { editedPaths, withDiagnostics } from './diagnostics'

describe('diagnostics after edits', () => {
  it('checks the file an applied edit changed, not a dry run or another tool', () => {
    expect(editedPaths('patch_file', { path: 'calc.go', replaced: 1 })).toEqual(['calc.go'])
    expect(editedPaths('write_file', { path: 'a/b.ts' })).toEqual(['a/b.ts'])
    expect(editedPaths('patch_file', { path: 'calc.go', dry_run: true })).toEqual([])
    expect(editedPaths('read_file', { path: 'calc.go' })).toEqual([])
  })
  it('adds the problems to the result the model reads, and nothing when there are none', () => {
    const out = { path: 'calc.go', replaced: 1 }
    expect(withDiagnostics(out, { checks: ['go -C . vet .'], problems: [], error: '' })).toBe(out)
    expect(withDiagnostics(out, null)).toBe(out)
    const got = withDiagnostics(out, { checks: ['go -C . vet .'], problems: ['calc.go:4: undefined: x'], error: '' }) as { diagnostics: { problems: string[]; note: string }; replaced: number }
    expect(got.replaced).toBe(1)
    expect(got.diagnostics.problems).toEqual(['calc.go:4: undefined: x'])
    expect(got.diagnostics.note).toMatch(/go -C \. vet \. reports a problem/)
  })
})
