import { describe, expect, test } from 'vitest'
import { nameSnapshot, snapshotNames, type NameStore } from './snapshot-names'

// A Storage as the web view has one: strings by key.
function storage(): NameStore & { data: Map<string, string> } {
  const data = new Map<string, string>()
  return { data, getItem: (k) => data.get(k) ?? null, setItem: (k, v) => void data.set(k, v) }
}

describe('snapshots named by the request that made them', () => {
  test('a name is kept per project, and the first name given stays', () => {
    const s = storage()
    nameSnapshot(s, '/p/one', 'abc123', 'Before: add a test for main')
    nameSnapshot(s, '/p/one', 'abc123', 'Before: something later')
    nameSnapshot(s, '/p/two', 'def456', 'Before: fix the build')
    expect(snapshotNames(s, '/p/one')).toEqual(new Map([['abc123', 'Before: add a test for main']]))
    expect(snapshotNames(s, '/p/two').get('abc123')).toBeUndefined()
  })

  test('a damaged store names nothing rather than failing', () => {
    const s = storage()
    s.setItem('rooted.snapshot-names:/p', '{not json')
    expect(snapshotNames(s, '/p').size).toBe(0)
    nameSnapshot(s, '/p', 'x1', 'Before: again')
    expect(snapshotNames(s, '/p').get('x1')).toBe('Before: again')
  })

  test('only the newest thousand are kept', () => {
    const s = storage()
    for (let i = 0; i < 1005; i++) nameSnapshot(s, '/p', `id${i}`, `Before: ${i}`)
    const names = snapshotNames(s, '/p')
    expect(names.size).toBe(1000)
    expect(names.has('id4')).toBe(false)
    expect(names.get('id1004')).toBe('Before: 1004')
  })
})
