// Typed wrappers for the project's permission rules, the check a call gets before the window asks about it, and
// the background jobs the Run tab lists.
import * as Jobs from '../../wailsjs/go/app/Jobs'
import * as Permissions from '../../wailsjs/go/app/Permissions'
import { EventsOn } from '../../wailsjs/runtime/runtime'
import { EventJobs, type JobsChanged } from './events'
import { wrap } from './wrap'

export type RuleAction = 'allow' | 'ask' | 'deny'

export interface Rule {
  action: RuleAction
  tool: string // exec_shell for commands
  command: string // exec_shell: a prefix of the command's words ("go test"); "" for every call of the tool
  domain?: string // web_fetch: the host the rule covers (docs.python.org, *.python.org)
}

// CallCheck is what a call would meet, found by the backend without running it.
export interface CallCheck {
  // error is the result the call is answered with at once, parsed: it cannot run as it is.
  error?: { error: { code: string; message: string; path?: string; field?: string } }
  // action: allow (run without asking), ask, deny; '' when no rule names the tool (the window's defaults apply).
  action: RuleAction | ''
  sensitive: boolean // destroys or publishes: a grant for the whole program does not cover it
  read_only: boolean
  why: string
  rule?: Rule
  suggest: string // the command prefix "Always allow" adds
  // grant is the program "allow for this session" may cover; '' when a grant of the whole program would allow any
  // code (node, python3, bash, env), or for a tool that is not a command.
  grant: string
}

export const checkCall = (ws: string, name: string, args: Record<string, unknown>): Promise<CallCheck> =>
  wrap(async () => {
    const c = await Permissions.Check(ws, name, JSON.stringify(args))
    return { ...c, action: c.action as CallCheck['action'], rule: c.rule as Rule | undefined, error: c.error ? (JSON.parse(c.error) as CallCheck['error']) : undefined }
  })

export const permissionRules = (ws: string): Promise<Rule[]> => wrap(async () => ((await Permissions.Rules(ws)) ?? []) as Rule[])

export const addPermissionRule = (ws: string, r: Rule): Promise<Rule[]> => wrap(async () => ((await Permissions.AddRule(ws, r)) ?? []) as Rule[])

// removePermissionRule takes the rule r off the project, named by what it says (a rule added meanwhile stays), and
// answers the rules left.
export const removePermissionRule = (ws: string, r: Rule): Promise<Rule[]> => wrap(async () => ((await Permissions.RemoveRule(ws, r)) ?? []) as Rule[])

export interface Job {
  id: string
  command: string
  running: boolean
  started_at: string
  exit_code: number // when not running
  killed: boolean
  duration_ms: number
  bytes: number
  error: string
  hint: string
}

export interface JobOutput extends Job {
  output: string
  next: number
  dropped: number
}

export const listJobs = (ws: string): Promise<Job[]> => wrap(async () => (await Jobs.List(ws)) ?? [])

// listJobsOf lists the jobs of open project ws, whichever is shown (the project strip's running count).
export const listJobsOf = (ws: string): Promise<Job[]> => wrap(async () => (await Jobs.List(ws)) ?? [])

export const jobOutput = (ws: string, id: string, since: number): Promise<JobOutput> => wrap(() => Jobs.Output(ws, id, since))

export const killJob = (ws: string, id: string): Promise<Job> => wrap(() => Jobs.Kill(ws, id))

// onJobsChanged hears when background jobs of the project shown start, end or write output (another open
// project's jobs run on unheard); it returns the unsubscribe function.
export function onJobsChanged(ws: string, f: (c: JobsChanged) => void): () => void {
  return EventsOn(EventJobs, (c: JobsChanged) => {
    if (c.workspace === ws) f(c)
  })
}

// onAnyJobsChanged hears when background jobs of any open project start, end or write output.
export function onAnyJobsChanged(f: (c: JobsChanged) => void): () => void {
  return EventsOn(EventJobs, f)
}

// backgroundAfter is when a command still running moves to the background, in seconds: 0 the default (a minute),
// negative never.
export const backgroundAfter = (ws: string): Promise<number> => wrap(() => Jobs.BackgroundAfter(ws))

export const setBackgroundAfter = (ws: string, sec: number): Promise<number> => wrap(() => Jobs.SetBackgroundAfter(ws, sec))
