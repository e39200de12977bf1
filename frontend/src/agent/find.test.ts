import { describe, expect, it } from 'vitest'
import type { Item } from './conversation'
import { findItems } from './find'

const items: Item[] = [
  { kind: 'user', id: 'u1', text: 'Why does the Parser fail?' },
  { kind: 'tool', id: 't1', name: 'read_file', input: { path: 'parse.go' }, state: 'done', output: { content: { $blob: 'h1', bytes: 90000 } } },
  { kind: 'assistant', id: 'a1', text: 'Line 40 returns early.' },
  { kind: 'notice', id: 'n1', tone: 'info', text: 'stopped' },
]

describe('findItems', () => {
  it('finds words in any item, ignoring case, not in bookkeeping fields', () => {
    expect(findItems(items, 'parser')).toEqual([0])
    expect(findItems(items, 'PARSE.GO')).toEqual([1])
    expect(findItems(items, 'tool')).toEqual([])
    expect(findItems(items, 'info')).toEqual([])
    expect(findItems(items, '')).toEqual([])
  })
  it('finds an item by a stored result the store matched', () => {
    expect(findItems(items, 'unexported', new Set(['h1']))).toEqual([1])
    expect(findItems(items, 'unexported', new Set(['h2']))).toEqual([])
  })
})
