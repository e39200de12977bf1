import { estimateTokens } from './context'

// Skills in the system prompt: the names and descriptions of the project's and the user's Agent Skills (found by
// the backend, nearest first), so the model knows when to read one with use_skill. Like Codex, the list is held to
// a share of the model's context window: past it, descriptions are shortened, then the last skills (the farthest,
// the user's) are left out, with a note saying how to list them all.

export interface SkillInfo {
  name: string
  description: string
  scope: string // project or user
  path: string
}

export interface SkillCatalog {
  skills: SkillInfo[]
  problems?: { path: string; reason: string }[]
}

// skillsShare is the share of the context window the list may take.
export const skillsShare = 0.02

// shortest is how short a description may be cut before skills are left out instead.
const shortest = 60

export interface SkillsBlock {
  text: string // '' when there are no skills
  listed: number
  shortened: number // descriptions cut to fit
  omitted: number // skills left out
  tokens: number // the block's estimated size
  budget: number // its budget, in tokens
}

const header =
  'Skills (instructions for particular tasks, written by the project or the user): when a task matches one, read it with use_skill {"name": ...} before you start and follow it. A skill\'s scripts run only through exec_shell, under its rules.'

const line = (s: SkillInfo, max = Infinity) => `- ${s.name}: ${s.description.length > max ? s.description.slice(0, Math.max(0, max - 1)).trimEnd() + '…' : s.description}`

// skillsBlock is the system prompt's list of skills, within skillsShare of window tokens.
export function skillsBlock(skills: SkillInfo[], window: number): SkillsBlock {
  const budget = Math.floor(window * skillsShare)
  const done = (lines: string[], shortened: number, omitted: number): SkillsBlock => {
    const note = omitted > 0 ? [`(${omitted} more skill${omitted === 1 ? '' : 's'} not listed, to keep this list within its share of the context window: use_skill {} lists them all.)`] : []
    const text = lines.length || omitted ? [header, ...lines, ...note].join('\n') : ''
    return { text, listed: lines.length, shortened, omitted, tokens: estimateTokens(text), budget }
  }
  if (skills.length === 0) return done([], 0, 0)
  const full = skills.map((s) => line(s))
  if (estimateTokens([header, ...full].join('\n')) <= budget) return done(full, 0, 0)
  // Shorten every description to an even share, keeping at least `shortest` characters of each; then keep as many
  // skills, in precedence order, as fit with the note.
  const reserve = header.length + 160 // the note
  const each = Math.max(shortest, Math.floor((budget * 4 - reserve) / skills.length) - 6) // "- ", ": ", the newline
  const lines: string[] = []
  let used = reserve
  let shortened = 0
  for (const s of skills) {
    const l = line(s, Math.max(shortest, each - s.name.length))
    if (Math.ceil((used + l.length + 1) / 4) > budget) break
    used += l.length + 1
    lines.push(l)
    if (l !== line(s)) shortened++
  }
  return done(lines, shortened, skills.length - lines.length)
}
