import { readdirSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { errorTitle, errorTitles } from './error-titles'

const repo = path.resolve(import.meta.dirname, '..', '..', '..')

// The codes the backend declares: every Code... = "..." constant of backend/tool/error.go.
function backendCodes(): string[] {
  const src = readFileSync(path.join(repo, 'backend', 'tool', 'error.go'), 'utf8')
  return [...src.matchAll(/\bCode\w+\s*=\s*"([a-z_]+)"/g)].map((m) => m[1])
}

// The codes the README's Codes line lists.
function readmeCodes(): string[] {
  const readme = readFileSync(path.join(repo, 'README.md'), 'utf8')
  const start = readme.indexOf('Codes: ')
  const para = readme.slice(start, readme.indexOf('\n\n', start))
  return [...para.matchAll(/(?<!with )`([a-z_]+)`/g)].map((m) => m[1]) // "(with `field`" names a field, not a code
}

// The codes the window makes itself: every `code: '...'` in its source.
function windowCodes(dir = path.join(repo, 'frontend', 'src')): string[] {
  const out: string[] = []
  for (const name of readdirSync(dir)) {
    const p = path.join(dir, name)
    if (statSync(p).isDirectory()) out.push(...windowCodes(p))
    else if (/\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name)) out.push(...[...readFileSync(p, 'utf8').matchAll(/\bcode: '([a-z_]+)'/g)].map((m) => m[1]))
  }
  return out
}

describe('error titles', () => {
  it('read the code lists it checks against', () => {
    expect(backendCodes()).toContain('outside_root')
    expect(backendCodes().length).toBeGreaterThan(10)
    expect(readmeCodes()).toContain('denied_by_user')
    expect(windowCodes()).toContain('plan_mode')
  })

  it('give every code a human title and at most one action', () => {
    const codes = [...new Set([...backendCodes(), ...readmeCodes(), ...windowCodes()])]
    const missing = codes.filter((c) => !(c in errorTitles))
    expect(missing, 'codes without a title in lib/error-titles.ts').toEqual([])
    for (const c of codes) {
      const t = errorTitles[c]
      expect(t.title, c).not.toMatch(/_/) // words, not the code again
      expect(t.title.length, c).toBeLessThan(80)
    }
  })

  it('never shows a bare code, even for one it does not know', () => {
    expect(errorTitle('outside_root').title).toBe('Outside the project folder: Rooted never goes there')
    expect(errorTitle('rate_limited').title).toBe('Failed (rate limited)')
  })
})
