import type { CallCheck, Rule, ToolSpec } from '../bridge'

// Grants are what the user allowed for the rest of this session: whole tools (edits, restores) and, for commands,
// single programs; never every command at once.
export interface Grants {
  tools: string[]
  programs: string[]
  // domains web_fetch may read from for the rest of the session.
  domains?: string[]
}

export const noGrants = (): Grants => ({ tools: [], programs: [], domains: [] })

// fetchDomain is the host a web_fetch call reads from (lower case), as the backend's rules name it; '' when the
// URL cannot be read (the backend's check answers that call with its error).
export function fetchDomain(input: Record<string, unknown>): string {
  try {
    return typeof input.url === 'string' ? new URL(input.url).hostname.toLowerCase().replace(/\.$/, '') : ''
  } catch {
    return ''
  }
}

const edits = new Set(['write_file', 'patch_file'])

// program is the program a command runs (the first word, as the backend splits it).
export function program(command: unknown): string {
  if (typeof command !== 'string') return ''
  const m = /^\s*(?:"([^"]*)"|'([^']*)'|(\S+))/.exec(command)
  return m ? (m[1] ?? m[2] ?? m[3] ?? '') : ''
}

// needsApproval says whether a call must wait for the user. The backend's check comes first: a rule (or Rooted's
// default, git status) that allows runs the call; a rule that asks, or a command a broad rule does not cover
// (git push under "allow git"), asks. Otherwise read-only tools never ask; edits not when the project
// auto-approves them or the user allowed edits for the session; a command not when its program was allowed for
// the session, unless it destroys or publishes (sensitive); an interpreter (node, python3) is never granted whole,
// so its commands always ask.
export function needsApproval(
  spec: Pick<ToolSpec, 'name' | 'read_only'>,
  input: Record<string, unknown>,
  grants: Grants,
  autoApproveEdits: boolean,
  check?: (Pick<CallCheck, 'action' | 'sensitive' | 'rule'> & { grant?: string }) | null,
): boolean {
  if (check?.action === 'allow') return false
  if (check?.action === 'ask' && check.rule) return true
  if (spec.read_only) return false
  // The first fetch from a domain asks, unless the user allowed the domain for the session.
  if (spec.name === 'web_fetch') return !fetchDomain(input) || !(grants.domains ?? []).includes(fetchDomain(input))
  if (edits.has(spec.name) && autoApproveEdits) return false
  if (spec.name === 'exec_shell') return Boolean(check?.sensitive) || !check?.grant || check.grant !== program(input.command) || !grants.programs.includes(check.grant)
  return !grants.tools.includes(edits.has(spec.name) ? 'edits' : spec.name)
}

// alwaysRule is the rule "Always allow … in this project" adds for a call, and how the button says it; null when
// the card offers none (edits have their own setting; a command the backend could not name a prefix for).
export function alwaysRule(name: string, suggest: string): { rule: Rule; label: string } | null {
  if (name === 'exec_shell') {
    if (!suggest) return null
    return { rule: { action: 'allow', tool: 'exec_shell', command: suggest }, label: `Always allow \`${suggest} …\` in this project` }
  }
  if (name === 'web_fetch') {
    if (!suggest) return null
    return { rule: { action: 'allow', tool: 'web_fetch', command: '', domain: suggest }, label: `Always for ${suggest}` }
  }
  if (edits.has(name)) return null
  return { rule: { action: 'allow', tool: name, command: '' }, label: `Always allow ${name} in this project` }
}

// sessionGrant is what "allow for this session" adds for a call, and how the button says it. For a command it is
// the program the backend's check names as grantable (check.grant), and none when it names none: a grant of node
// or python3 would allow any code, and a check that failed grants nothing.
export function sessionGrant(name: string, input: Record<string, unknown>, grantable?: string): { grant: (g: Grants) => Grants; label: string } | null {
  if (name === 'exec_shell') {
    const prog = program(input.command)
    if (!grantable || grantable !== prog) return null
    return { grant: (g) => ({ ...g, programs: [...new Set([...g.programs, prog])] }), label: `Allow ${prog} for this session` }
  }
  if (name === 'web_fetch') {
    const domain = fetchDomain(input)
    if (!domain) return null
    return { grant: (g) => ({ ...g, domains: [...new Set([...(g.domains ?? []), domain])] }), label: `Allow ${domain} for this session` }
  }
  const key = edits.has(name) ? 'edits' : name
  return { grant: (g) => ({ ...g, tools: [...new Set([...g.tools, key])] }), label: key === 'edits' ? 'Allow edits for this session' : `Allow ${name} for this session` }
}

// denial is the tool result the model gets when the user says no: an error with a stable code, and the reason.
export function denial(name: string, reason: string): { error: { code: string; message: string } } {
  const why = reason.trim() ? `: ${reason.trim()}` : ' (no reason given)'
  return { error: { code: 'denied_by_user', message: `The user denied this ${name} call${why}. Do not retry it as it was; ask or change the approach.` } }
}
