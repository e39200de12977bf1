import type { DiagnosticsResult } from '../bridge'

// Diagnostics is what the model gets with an edit's result when the project's check found problems.
export interface Diagnostics {
  checks: string[]
  problems: string[]
  note: string
}

const edits = new Set(['write_file', 'patch_file'])

// editedPaths is the file an applied edit changed (none for a dry run or another tool).
export function editedPaths(name: string, output: unknown): string[] {
  const o = output as { path?: unknown; dry_run?: unknown } | null
  if (!edits.has(name) || !o || typeof o.path !== 'string' || o.dry_run === true) return []
  return [o.path]
}

// withDiagnostics adds the check's problems to an edit's result, as the model will read it; the result stays as
// it was when the check found nothing (or could not run).
export function withDiagnostics(output: unknown, d: DiagnosticsResult | null): unknown {
  if (!d || d.problems.length === 0) return output
  const diagnostics: Diagnostics = {
    checks: d.checks,
    problems: d.problems,
    note: `${d.checks.join('; ')} reports ${d.problems.length === 1 ? 'a problem' : `${d.problems.length} problems`} in or caused by this edit; fix them before going on.`,
  }
  return { ...(output as object), diagnostics }
}
