import { describe, expect, it } from 'vitest'
import { newConversation, type Conversation, type Item } from './conversation'
import { applyEvents, diffEvents } from './conversation-events'

const user = (id: string, text: string): Item => ({ kind: 'user', id, text })
const answer = (id: string, text: string): Item => ({ kind: 'assistant', id, text })

describe('diffEvents', () => {
  const base: Conversation = { ...newConversation(), title: 'Fix it', items: [user('u1', 'fix it'), answer('a1', 'on it')], messages: [{ role: 'user', content: 'fix it' }] }

  it('sends only what changed: a grown answer, a new item, new messages', () => {
    const next: Conversation = { ...base, items: [base.items[0], answer('a1', 'on it, done'), user('u2', 'thanks')], messages: [...base.messages, { role: 'assistant', content: 'done' }] }
    const ev = diffEvents(base, next)
    expect(ev).toEqual([
      { t: 'item', i: 1, item: next.items[1] },
      { t: 'item', i: 2, item: next.items[2] },
      { t: 'messages', from: 1, messages: [{ role: 'assistant', content: 'done' }] },
    ])
    expect(applyEvents(base, ev)).toEqual(next)
  })

  it('says nothing when nothing changed', () => {
    expect(diffEvents(base, base)).toEqual([])
  })

  it('makes a new conversation whole from nothing', () => {
    const ev = diffEvents(null, base)
    expect(ev[0]).toEqual({ t: 'title', title: 'Fix it' })
    expect(applyEvents({ ...newConversation(), id: base.id }, ev)).toMatchObject({ title: 'Fix it', items: base.items, messages: base.messages })
  })

  it('cuts and keeps what a rewind cut off', () => {
    const next: Conversation = { ...base, items: [user('u3', 'again')], messages: [], rewound: [{ at: 'now', items: base.items, messages: base.messages }], halt: undefined, planMode: true }
    const ev = diffEvents(base, next)
    expect(ev.slice(0, 2)).toEqual([{ t: 'items', n: 0 }, { t: 'item', i: 0, item: next.items[0] }])
    expect(ev).toContainEqual({ t: 'state', state: { planMode: true } })
    expect(applyEvents(base, ev)).toMatchObject({ items: next.items, messages: [], planMode: true, rewound: next.rewound })
  })
})
