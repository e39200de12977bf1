// Typed wrappers for the check Rooted runs after the agent's edits.
import * as Diagnostics from '../../wailsjs/go/app/Diagnostics'
import { wrap } from './wrap'

export interface DiagnosticsResult {
  checks: string[] // the commands run; none when the project has no check for the changed files
  problems: string[] // "file:line: message", in or caused by the changed files
  error: string // why a check could not run or finish
}

export const diagnose = (ws: string, paths: string[]): Promise<DiagnosticsResult> =>
  wrap(async () => {
    const r = await Diagnostics.After(ws, paths)
    return { checks: r.checks ?? [], problems: r.problems ?? [], error: r.error }
  })

// diagnosticsMode is the project's setting: '' (found for the files changed), 'off', or a command line.
export const diagnosticsMode = (ws: string): Promise<string> => wrap(() => Diagnostics.Mode(ws))

export const setDiagnosticsMode = (ws: string, mode: string): Promise<string> => wrap(() => Diagnostics.SetMode(ws, mode))
