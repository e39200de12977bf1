import type { Instructions, RepoInfo } from '../bridge'
import { skillsBlock } from './skills'

export interface PromptContext {
  root: string
  cwd: string
  os: string
  allowlist: string[]
  extra?: Instructions
  repo?: RepoInfo | null
  date?: Date
  // plan is set in plan mode: the model may only explore and propose.
  plan?: boolean
  // window is the model's context window in tokens, which the list of skills is kept within a share of.
  window?: number
}

// instructions is the system prompt: where the agent is (date, project, git), the rules the backend enforces
// anyway (stated so the model does not waste steps discovering them), how to work well with these tools, then the
// project's own instructions (AGENTS.md and the like) and the user's. One rule a line, as Codex's prompt.md.
export function instructions(p: PromptContext): string {
  const date = (p.date ?? new Date()).toISOString().slice(0, 10)
  const lines = [
    "You are Rooted, a coding agent working on one project on the user's machine through tools.",
    `Date: ${date}. Operating system: ${p.os}.`,
    `Project root: ${p.root}`,
    `Working directory: ${p.cwd} (relative paths resolve here; change it with change_working_directory).`,
    ...repoLines(p.repo),
    '',
    'Rules:',
    '- Paths stay inside the project root (no .., no absolute paths elsewhere, no symlinks out): outside_root otherwise.',
    '- Read a file before changing it: an edit of an unread file fails with not_read. Prefer patch_file for changes; write_file for new files or full rewrites.',
    '- A successful patch_file or write_file returns the diff: do not read the file again to check it.',
    '- stale_file means the file changed on disk since you read it (the user may have edited it): read it again, redo the edit.',
    `- exec_shell runs one program with arguments, no shell (no pipes, redirects, && or $VARS). Allowed programs: ${p.allowlist.join(', ') || 'none'}.`,
    '- Use search_files and find_files to search, never grep, rg or find through exec_shell.',
    '- Make independent calls (reads, searches) in parallel, in one step.',
    '- Edits, commands and restores may wait for the user. denied_by_user: respect the reason, do not retry as it was.',
    '- Every edit is backed up first; restore_snapshot undoes it.',
    '- Failures come back as {"error": {"code", "message"}}: read both and adapt; never repeat a call that failed the same way.',
    '- Large results are cut with a note: ask for less (a line range, a narrower search) rather than repeating the call.',
    '- Verify a change with the narrowest test first (one test, one package), then wider.',
    '- Never commit, push or change git history unless the user asks.',
    '- For a task of several steps, keep a plan with update_plan and update it as you go.',
    '- Refer to code as path:line. Be brief; answer in Markdown. When done, say what you changed and how you checked it.',
  ]
  if (p.plan) {
    lines.push(
      '',
      'Plan mode is on: only read-only tools and update_plan work; edits, commands and restores are refused. Explore, then end with a concise plan ' +
        '(files and changes, how to verify). The user starts the work when they agree.',
    )
  }
  for (const f of p.extra?.files ?? []) {
    lines.push('', `Project instructions from ${f.path}${f.truncated ? ' (cut: the file is longer)' : ''}:`, f.content.trim())
  }
  if (p.extra?.user) lines.push('', "The user's own instructions:", p.extra.user.trim())
  const skills = skillsBlock(p.extra?.skills?.skills ?? [], p.window ?? 32_768).text
  if (skills) lines.push('', skills)
  return lines.join('\n')
}

// repoLines say where the repository stands: the branch, what is changed, the last commits.
function repoLines(r: RepoInfo | null | undefined): string[] {
  if (!r?.branch) return ['Git: not a repository.']
  const out = [`Git branch: ${r.branch}.`]
  if (r.status.length === 0) out.push('Git status: clean.')
  else out.push(`Git status (short${r.more ? `, ${r.more} more not shown` : ''}):`, ...r.status.map((s) => `  ${s}`))
  if (r.commits.length > 0) out.push('Recent commits:', ...r.commits.map((c) => `  ${c}`))
  return out
}
