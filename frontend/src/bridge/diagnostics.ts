// Typed wrappers for the check Rooted runs after the agent's edits.
import * as Diagnostics from '../../wailsjs/go/app/Diagnostics'
import { wrap } from './wrap'
import { workspace } from './workspace'

export interface DiagnosticsResult {
  checks: string[] // the commands run; none when the project has no check for the changed files
  problems: string[] // "file:line: message", in or caused by the changed files
  error: string // why a check could not run or finish
}

export const diagnose = (paths: string[]): Promise<DiagnosticsResult> =>
  wrap(async () => {
    const r = await Diagnostics.After(workspace(), paths)
    return { checks: r.checks ?? [], problems: r.problems ?? [], error: r.error }
  })

// diagnosticsMode is the project's setting: '' (found for the files changed), 'off', or a command line.
export const diagnosticsMode = (): Promise<string> => wrap(() => Diagnostics.Mode(workspace()))

export const setDiagnosticsMode = (mode: string): Promise<string> => wrap(() => Diagnostics.SetMode(workspace(), mode))
