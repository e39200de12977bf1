import { describe, expect, it } from 'vitest'
import { skillsBlock, skillsShare, type SkillInfo } from './skills'
import { instructions } from './system-prompt'

const skill = (i: number, desc = `Does task number ${i} the way this project wants it done, with its checks.`): SkillInfo => ({
  name: `skill-${i}`,
  description: desc,
  scope: i < 25 ? 'project' : 'user',
  path: `.agents/skills/skill-${i}/SKILL.md`,
})

describe('skills in the system prompt', () => {
  it('lists every skill when they fit, in the order given (nearest first)', () => {
    const b = skillsBlock([skill(1), skill(2)], 200_000)
    expect(b.omitted).toBe(0)
    expect(b.shortened).toBe(0)
    expect(b.text).toContain('use_skill')
    expect(b.text.indexOf('- skill-1: Does task number 1')).toBeLessThan(b.text.indexOf('- skill-2:'))
    expect(skillsBlock([], 200_000).text).toBe('')
  })

  it('keeps 50 skills within 2% of the window: descriptions shortened first, then the last left out with a note', () => {
    const long = Array.from({ length: 50 }, (_, i) => skill(i, `Skill ${i}: `.padEnd(1000, 'x')))
    for (const window of [200_000, 128_000, 32_768, 8_192]) {
      const b = skillsBlock(long, window)
      console.log(`50 skills of 1000-character descriptions, ${window}-token window: ${b.tokens} tokens of a budget of ${b.budget}; ${b.listed} listed, ${b.shortened} shortened, ${b.omitted} left out`)
      expect(b.budget).toBe(Math.floor(window * skillsShare))
      expect(b.tokens).toBeLessThanOrEqual(b.budget)
      expect(b.listed + b.omitted).toBe(50)
      if (b.omitted > 0) {
        expect(b.text).toMatch(new RegExp(`${b.omitted} more skills? not listed`))
        // The first skills (nearest, the project's) are the ones kept.
        expect(b.text).toContain('- skill-0:')
        expect(b.text).not.toContain('- skill-49:')
      }
    }
    expect(skillsBlock(long, 200_000).omitted).toBe(0)
    expect(skillsBlock(long, 200_000).shortened).toBe(50)
    expect(skillsBlock(long, 8_192).omitted).toBeGreaterThan(0)
  })

  it('goes into the system prompt after the project instructions, sized by the window', () => {
    const base = { root: '/p', cwd: '.', os: 'Linux', allowlist: [], date: new Date('2026-11-24T10:00:00Z') }
    const extra = { files: [{ path: 'AGENTS.md', content: 'Run make.', size: 9, truncated: false }], user: '', skills: { skills: [skill(1), skill(2)] } }
    const p = instructions({ ...base, extra, window: 100_000 })
    expect(p).toContain('- skill-1: Does task number 1')
    expect(p.indexOf('Run make.')).toBeLessThan(p.indexOf('- skill-1'))
    expect(instructions({ ...base, extra: { ...extra, skills: { skills: [] } } })).not.toContain('use_skill {"name"')
  })
})
