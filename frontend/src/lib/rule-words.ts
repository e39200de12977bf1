import type { Rule, RuleAction } from '../bridge'

// Permission rules in words: what a rule lets the agent do, as the Settings screen says it ("Edit a file", not
// patch_file). A tool without words here is shown by its name.
export const ruleTools: Record<string, string> = {
  exec_shell: 'Run a command',
  write_file: 'Write a file',
  patch_file: 'Edit a file',
  restore_snapshot: 'Restore a snapshot',
  job_kill: 'Stop a background job',
  web_fetch: 'Fetch a web page',
  web_search: 'Search the web',
}

export const ruleActions: Record<RuleAction, string> = { allow: 'Allow', ask: 'Ask first', deny: 'Never' }

// ruleWords says a rule as a sentence's parts: the action, the kind of call, and what it names (a command's
// words), e.g. Allow · Run a command · go test.
export function ruleWords(r: Rule): { action: string; kind: string; what: string } {
  const kind = ruleTools[r.tool] ?? r.tool
  const what = r.tool === 'exec_shell' ? r.command || 'any command' : r.command || ''
  return { action: ruleActions[r.action] ?? r.action, kind, what }
}
