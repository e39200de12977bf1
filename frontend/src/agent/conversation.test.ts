import { describe, expect, it } from 'vitest'
import { cutBefore, newConversation, restore, snapshotBefore, type Item } from './conversation'

const items: Item[] = [
  { kind: 'user', id: 'u1', text: 'first', at: 0 },
  { kind: 'assistant', id: 'a1', text: 'done' },
  { kind: 'user', id: 'u2', text: 'second', at: 2 },
  { kind: 'assistant', id: 'a2', text: 'no changes' },
  { kind: 'user', id: 'u3', text: 'third', at: 4, snapshot: 'snap3' },
  { kind: 'assistant', id: 'a3', text: 'edited' },
  { kind: 'user', id: 'u4', text: 'fourth', at: 6, snapshot: 'snap4' },
]

describe('rewind', () => {
  it('restores code to the snapshot of the first request from there on that changed anything', () => {
    expect(snapshotBefore(items, 2)).toBe('snap3') // the second request changed nothing: the third's snapshot
    expect(snapshotBefore(items, 4)).toBe('snap3')
    expect(snapshotBefore(items, 6)).toBe('snap4')
    expect(snapshotBefore(items.slice(0, 4), 0)).toBe('') // nothing changed since
  })

  it('cuts the conversation before a request and hands back what was cut', () => {
    const c = { ...newConversation(), items, messages: Array.from({ length: 8 }, (_, i) => ({ role: i % 2 ? ('assistant' as const) : ('user' as const), content: `m${i}` })), halt: { kind: 'repeated' as const, reason: 'x' } }
    const r = cutBefore(c, 4)!
    expect(r.kept.items.map((i) => i.id)).toEqual(['u1', 'a1', 'u2', 'a2'])
    expect(r.kept.messages.map((m) => m.content)).toEqual(['m0', 'm1', 'm2', 'm3'])
    expect(r.kept.halt).toBeUndefined()
    expect(r.cut.items.map((i) => i.id)).toEqual(['u3', 'a3', 'u4'])
    expect(r.cut.messages).toHaveLength(4)
    expect(cutBefore(c, 1)).toBeUndefined() // not a request
    // After a compaction the old message positions mean nothing: refuse rather than cut the wrong place.
    const compacted = { ...c, items: [...items, { kind: 'compaction' as const, id: 'k', summary: 's', before: 0, after: 0, summarised: 3 }] }
    expect(cutBefore(compacted, 4)).toBeUndefined()
  })

  it('plan mode and the rewound history are saved with the conversation', () => {
    const c = restore('c1', 't', { items, messages: [], planMode: true, rewound: [{ at: 'then', items: [items[0]], messages: [] }] })
    expect(c.planMode).toBe(true)
    expect(c.rewound).toHaveLength(1)
  })
})
