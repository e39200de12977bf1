import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import type { Item } from './conversation'
import { changedLines, conversationRange, diffSummary, hunkLine, parseDiff, revertHunk, turnEnds, turnRange } from './turn-review'

// Diffs made by git itself, as diff_snapshot makes them, of two versions of files.
const dir = mkdtempSync(path.join(tmpdir(), 'turn-review-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))
function gitDiff(before: Record<string, string | null>, after: Record<string, string | null>): string {
  const git = (...args: string[]) => execFileSync('git', ['-c', 'core.autocrlf=false', '-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd: dir }).toString()
  rmSync(dir, { recursive: true, force: true })
  execFileSync('mkdir', ['-p', dir])
  git('init', '-q')
  const put = (files: Record<string, string | null>) => {
    for (const [name, content] of Object.entries(files)) if (content === null) rmSync(path.join(dir, name), { force: true })
    else writeFileSync(path.join(dir, name), content)
  }
  put(before)
  git('add', '-A')
  git('commit', '-q', '--allow-empty', '-m', 'before')
  for (const name of Object.keys(before)) if (!(name in after)) rmSync(path.join(dir, name))
  put(after)
  git('add', '-A')
  return git('diff', '--cached', '--no-color')
}

const numbered = (n: number, change: Record<number, string> = {}) =>
  Array.from({ length: n }, (_, i) => change[i + 1] ?? `line ${i + 1}`).join('\n') + '\n'

describe('parseDiff', () => {
  test('reads each file with its change, its hunks and its counts', () => {
    const d = gitDiff({ 'a.txt': numbered(30), 'gone.txt': 'bye\n' }, { 'a.txt': numbered(30, { 2: 'two', 28: 'twenty-eight' }), 'new.txt': 'x\ny\n' })
    const files = parseDiff(d)
    expect(files.map((f) => [f.path, f.status, f.hunks.length, f.added, f.removed])).toEqual([
      ['a.txt', 'modified', 2, 2, 2],
      ['gone.txt', 'deleted', 1, 0, 1],
      ['new.txt', 'added', 1, 2, 0],
    ])
    expect(diffSummary(files)).toBe('3 files +4 −3')
    expect(diffSummary(files.slice(0, 1))).toBe('1 file +2 −2')
  })

  test('an empty file made by a command is a file of the turn, with no hunk', () => {
    const files = parseDiff(gitDiff({}, { 'empty.txt': '' }))
    expect(files.map((f) => [f.path, f.status, f.hunks.length])).toEqual([['empty.txt', 'added', 0]])
  })
})

describe('revertHunk', () => {
  const cases: { name: string; before: string; after: string }[] = [
    { name: 'two changes far apart', before: numbered(30), after: numbered(30, { 2: 'two', 28: 'twenty-eight' }) },
    { name: 'lines added and removed', before: numbered(20), after: numbered(20, { 5: 'five\nfive and a half', 15: 'fifteen' }).replace('line 10\n', '') },
    { name: 'the last line loses its newline', before: numbered(12), after: numbered(12, { 1: 'one' }).slice(0, -1) + 'x' },
    { name: 'the last line gains one', before: 'a\nb', after: 'a\nB\n' },
    { name: 'lines added at the end', before: numbered(12), after: numbered(12, { 1: 'first' }) + 'more\nlines\n' },
    { name: 'CRLF lines', before: numbered(20).replace(/\n/g, '\r\n'), after: numbered(20, { 3: 'three', 18: 'eighteen' }).replace(/\n/g, '\r\n') },
  ]
  for (const c of cases) {
    test(`${c.name}: each hunk alone, then all of them, give back exactly the lines before`, () => {
      const [f] = parseDiff(gitDiff({ 'f.txt': c.before }, { 'f.txt': c.after }))
      expect(f.hunks.length).toBeGreaterThan(0)
      // All hunks, last first and then first first (an earlier one taken back moves the later ones' lines).
      for (const order of [[...f.hunks].reverse(), f.hunks]) {
        let content = c.after
        for (const h of order) {
          const r = revertHunk(content, h)
          expect(r.ok, JSON.stringify(r)).toBe(true)
          if (r.ok) content = r.content
        }
        expect(content).toBe(c.before)
      }
      // One alone: the diff left from before to it is the other hunks, unchanged.
      if (f.hunks.length > 1) {
        const r = revertHunk(c.after, f.hunks[0])
        if (!r.ok) throw new Error(r.reason)
        const [left] = parseDiff(gitDiff({ 'f.txt': c.before }, { 'f.txt': r.content }))
        expect(left.hunks.map((h) => h.lines)).toEqual(f.hunks.slice(1).map((h) => h.lines))
      }
    })
  }

  test('lines changed since are left alone, with the reason', () => {
    const [f] = parseDiff(gitDiff({ 'f.txt': numbered(10) }, { 'f.txt': numbered(10, { 4: 'four' }) }))
    const r = revertHunk(numbered(10, { 4: 'FOUR, edited since' }), f.hunks[0])
    expect(r).toEqual({ ok: false, reason: 'those lines have changed since; the file is left as it is' })
  })

  test('a comment names the line in the file after the change; a removed line, its number before', () => {
    const [f] = parseDiff(gitDiff({ 'f.txt': numbered(10) }, { 'f.txt': numbered(10, { 5: 'five\nfive b' }) }))
    const h = f.hunks[0]
    const at = (text: string) => hunkLine(h, h.lines.findIndex((l) => l === text))
    expect(at('-line 5')).toEqual({ line: 5, side: 'old' })
    expect(at('+five')).toEqual({ line: 5, side: 'new' })
    expect(at('+five b')).toEqual({ line: 6, side: 'new' })
    expect(at(' line 6')).toEqual({ line: 7, side: 'new' })
    // A revert names the lines changed, not the hunk's context around them.
    expect(changedLines(h)).toBe('lines 5–6')
    const [g] = parseDiff(gitDiff({ 'f.txt': numbered(10) }, { 'f.txt': numbered(10).replace('line 3\nline 4\n', '') }))
    expect(changedLines(g.hunks[0])).toBe('removed lines 3–4')
  })
})

describe('turn ranges', () => {
  const user = (id: string, snapshot?: string): Item => ({ kind: 'user', id, text: id, ...(snapshot ? { snapshot } : {}) })
  const said = (id: string): Item => ({ kind: 'assistant', id, text: 'ok' })
  const items = [user('one', 's1'), said('a1'), user('two'), said('a2'), user('three', 's3'), said('a3')]

  test('a turn runs from its snapshot to the next turn that changed anything, the last to now', () => {
    expect(turnRange(items, 0)).toEqual({ from: 's1', to: 's3' })
    expect(turnRange(items, 2)).toBeUndefined()
    expect(turnRange(items, 4)).toEqual({ from: 's3', to: '' })
    expect(conversationRange(items)).toEqual({ from: 's1', to: '' })
    expect(conversationRange([user('x'), said('y')])).toBeUndefined()
  })

  test("each finished turn's bar goes after its last item; the running turn has none yet", () => {
    expect([...turnEnds(items, false)]).toEqual([
      [1, 0],
      [3, 2],
      [5, 4],
    ])
    expect([...turnEnds(items, true)]).toEqual([
      [1, 0],
      [3, 2],
    ])
  })
})
