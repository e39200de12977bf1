import { describe, expect, it } from 'vitest'
import { estimateTokens } from './context'
import { instructions } from './system-prompt'

const base = { root: '/home/u/proj', cwd: '.', os: 'Linux', allowlist: ['go', 'npm'], date: new Date('2026-11-24T10:00:00Z') }

describe('system prompt', () => {
  it('says the date, the branch, a short status and the last commits', () => {
    const p = instructions({ ...base, repo: { branch: 'feature/x', status: [' M main.go', '?? new.go'], more: 3, commits: ['abc1234 Fix the parser', 'def5678 Start'] } })
    expect(p).toContain('Date: 2026-11-24.')
    expect(p).toContain('Git branch: feature/x.')
    expect(p).toContain('Git status (short, 3 more not shown):\n   M main.go\n  ?? new.go')
    expect(p).toContain('Recent commits:\n  abc1234 Fix the parser\n  def5678 Start')
    expect(instructions({ ...base, repo: { branch: 'main', status: [], more: 0, commits: [] } })).toContain('Git status: clean.')
    expect(instructions({ ...base, repo: null })).toContain('Git: not a repository.')
  })

  it('gives the guidance rule by rule', () => {
    const p = instructions(base)
    for (const rule of ['in parallel', 'search_files and find_files', 'never grep', 'do not read the file again', 'narrowest test first', 'Never commit, push', 'path:line', 'Be brief', 'not_read']) {
      expect(p).toContain(rule)
    }
    expect(p).not.toContain('Plan mode')
    expect(instructions({ ...base, plan: true })).toContain('Plan mode is on')
  })

  it('stays lean', () => {
    const p = instructions({ ...base, repo: { branch: 'main', status: [' M a.go'], more: 0, commits: ['abc1234 One', 'def5678 Two', '0123456 Three'] } })
    const tokens = estimateTokens(p)
    console.log(`system prompt: ${p.length} characters, about ${tokens} tokens (without project instructions)`)
    expect(tokens).toBeLessThan(900)
  })
})
