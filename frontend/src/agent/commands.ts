// Commands: a request that starts with /name runs the prompt file called name (.agents/commands/name.md, the
// project's or the user's) or the skill called name: the model gets its body, with $ARGUMENTS replaced by what
// follows the name; the conversation shows the request as typed. The backend finds and reads the files.

export interface CommandInfo {
  name: string
  description: string
  argument_hint?: string
  scope: string
  path: string
}

export interface CommandBody {
  name: string
  kind: 'command' | 'skill'
  path: string
  body: string
}

// parseCommand splits "/name args" into its name and arguments; null when the text is not a command.
export function parseCommand(text: string): { name: string; args: string } | null {
  const m = /^\/([A-Za-z0-9][A-Za-z0-9._-]{0,63})(?:\s+([\s\S]*))?$/.exec(text.trim())
  return m ? { name: m[1], args: (m[2] ?? '').trim() } : null
}

// expandBody is what the model gets for a command: a prompt file's body with $ARGUMENTS (and $1, $2...) replaced,
// the arguments added at the end when the body does not place them; a skill's instructions, with the arguments
// as the task.
export function expandBody(c: CommandBody, args: string): string {
  if (c.kind === 'skill') {
    return `Use the skill ${c.name} (${c.path}):\n\n${c.body.trim()}${args ? `\n\nThe task: ${args}` : ''}`
  }
  const words = args.split(/\s+/).filter(Boolean)
  let placed = false
  const body = c.body.replace(/\$ARGUMENTS\b|\$(\d)/g, (_m, n: string | undefined) => {
    placed = true
    return n === undefined ? args : (words[Number(n) - 1] ?? '')
  })
  return placed || !args ? body.trim() : `${body.trim()}\n\nArguments: ${args}`
}

// expandCommand turns a request into what the model gets: the expanded command, or the text as it is. load reads
// a command's body through the backend; a name it does not know is an error to show, not a request to send.
export async function expandCommand(text: string, load: (name: string) => Promise<CommandBody>): Promise<{ content: string; command?: string }> {
  const c = parseCommand(text)
  if (!c) return { content: text }
  const body = await load(c.name)
  return { content: expandBody(body, c.args), command: body.name }
}

// commandAt finds the /name being typed at the start of the request box, for completion: the text after /.
export function commandAt(text: string, caret: number): { start: number; query: string } | null {
  const m = /^\/([A-Za-z0-9._-]*)$/.exec(text.slice(0, caret))
  return m ? { start: 0, query: m[1] } : null
}

// commandOptions are the names completing query: commands first, then skills, each name once, prefix matches
// before others.
export function commandOptions(query: string, commands: { name: string }[], skills: { name: string }[], max = 8): string[] {
  const names = [...new Set([...commands, ...skills].map((c) => c.name))]
  const q = query.toLowerCase()
  const prefix = names.filter((n) => n.toLowerCase().startsWith(q))
  const inner = names.filter((n) => !n.toLowerCase().startsWith(q) && n.toLowerCase().includes(q))
  return [...prefix, ...inner].slice(0, max)
}
