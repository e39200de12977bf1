import type { ToolSpec } from '../bridge'

// Grants are what the user allowed for the rest of this session: whole tools (edits, restores) and, for commands,
// single programs; never every command at once.
export interface Grants {
  tools: string[]
  programs: string[]
}

export const noGrants = (): Grants => ({ tools: [], programs: [] })

const edits = new Set(['write_file', 'patch_file'])

// program is the program a command runs (the first word, as the backend splits it).
export function program(command: unknown): string {
  if (typeof command !== 'string') return ''
  const m = /^\s*(?:"([^"]*)"|'([^']*)'|(\S+))/.exec(command)
  return m ? (m[1] ?? m[2] ?? m[3] ?? '') : ''
}

// needsApproval says whether a call must wait for the user: read-only tools never do; edits not when the project
// auto-approves them or the user allowed edits for the session; a command not when its program was allowed.
export function needsApproval(spec: Pick<ToolSpec, 'name' | 'read_only'>, input: Record<string, unknown>, grants: Grants, autoApproveEdits: boolean): boolean {
  if (spec.read_only) return false
  if (edits.has(spec.name) && autoApproveEdits) return false
  if (spec.name === 'exec_shell') return !grants.programs.includes(program(input.command))
  return !grants.tools.includes(edits.has(spec.name) ? 'edits' : spec.name)
}

// sessionGrant is what "allow for this session" adds for a call, and how the button says it.
export function sessionGrant(name: string, input: Record<string, unknown>): { grant: (g: Grants) => Grants; label: string } {
  if (name === 'exec_shell') {
    const prog = program(input.command)
    return { grant: (g) => ({ ...g, programs: [...new Set([...g.programs, prog])] }), label: `Allow ${prog} for this session` }
  }
  const key = edits.has(name) ? 'edits' : name
  return { grant: (g) => ({ ...g, tools: [...new Set([...g.tools, key])] }), label: key === 'edits' ? 'Allow edits for this session' : `Allow ${name} for this session` }
}

// denial is the tool result the model gets when the user says no: an error with a stable code, and the reason.
export function denial(name: string, reason: string): { error: { code: string; message: string } } {
  const why = reason.trim() ? `: ${reason.trim()}` : ' (no reason given)'
  return { error: { code: 'denied_by_user', message: `The user denied this ${name} call${why}. Do not retry it as it was; ask or change the approach.` } }
}
