import { describe, expect, it } from 'vitest'
import { groupMatches, highlight } from './group-matches'

describe('groupMatches', () => {
  it('groups by file in result order', () => {
    const m = (path: string, line: number) => ({ path, line, column: 1, text: '' })
    const groups = groupMatches([m('b.go', 1), m('b.go', 9), m('a.go', 2)])
    expect(groups.map((g) => g.path)).toEqual(['b.go', 'a.go'])
    expect(groups[0].matches.map((x) => x.line)).toEqual([1, 9])
  })
})

describe('highlight', () => {
  it('marks a literal, case-insensitively when asked', () => {
    expect(highlight('x := Foo(1)', 6, 'foo', false, true)).toEqual(['x := ', 'Foo', '(1)'])
    expect(highlight('a.b', 2, '.', false, false)).toEqual(['a', '.', 'b'])
  })
  it('marks a regex match', () => {
    expect(highlight('func (s *S) Close()', 1, 'func \\(\\w+', true, false)).toEqual(['', 'func (s', ' *S) Close()'])
  })
  it('falls back to the byte column', () => {
    expect(highlight('é x', 4, '(?i)x', true, false)).toEqual(['é ', 'x', ''])
  })
})
