import type { ModelMessage } from 'ai'
import type { Conversation, Item } from './conversation'

// The store keeps a conversation as a log of events (backend/conversations): the window sends what changed since
// the last save, never the whole conversation. Items and messages are compared by identity: every change makes a
// new object (React state), so what is the same object was saved already.

export type ConvEvent =
  | { t: 'title'; title: string }
  | { t: 'item'; i: number; item: Item }
  | { t: 'items'; n: number }
  | { t: 'messages'; from: number; messages: ModelMessage[] }
  | { t: 'state'; state: Record<string, unknown> }
  | { t: 'rewound'; rewound: NonNullable<Conversation['rewound']>[number] }

// stateKeys are the top-level fields saved as they are (null removes one).
export const stateKeys = ['usage', 'notes', 'plan', 'context', 'halt', 'planMode'] as const

// diffEvents returns the events that turn prev (what the store has; null for nothing yet) into cur.
export function diffEvents(prev: Conversation | null, cur: Conversation): ConvEvent[] {
  const out: ConvEvent[] = []
  const p: Conversation = prev ?? { id: cur.id, title: '', items: [], messages: [], usage: undefined as never }
  if (cur.title && cur.title !== p.title) out.push({ t: 'title', title: cur.title })

  if (cur.items.length < p.items.length) {
    // A rewind: keep the common start, then the items after it.
    let k = 0
    while (k < cur.items.length && cur.items[k] === p.items[k]) k++
    out.push({ t: 'items', n: k })
    for (let i = k; i < cur.items.length; i++) out.push({ t: 'item', i, item: cur.items[i] })
  } else {
    for (let i = 0; i < cur.items.length; i++) if (i >= p.items.length || cur.items[i] !== p.items[i]) out.push({ t: 'item', i, item: cur.items[i] })
  }

  let m = 0
  while (m < cur.messages.length && m < p.messages.length && cur.messages[m] === p.messages[m]) m++
  if (m < cur.messages.length || m < p.messages.length) out.push({ t: 'messages', from: m, messages: cur.messages.slice(m) })

  const state: Record<string, unknown> = {}
  for (const k of stateKeys) if (cur[k] !== p[k]) state[k] = cur[k] ?? null
  if (Object.keys(state).length > 0) out.push({ t: 'state', state })

  const was = p.rewound?.length ?? 0
  for (const r of (cur.rewound ?? []).slice(was)) out.push({ t: 'rewound', rewound: r })
  return out
}

// applyEvents is what the store does with events, for tests: the conversation the events make of c.
export function applyEvents(c: Conversation, events: ConvEvent[]): Conversation {
  let n: Conversation = { ...c, items: [...c.items], messages: [...c.messages] }
  for (const e of events) {
    switch (e.t) {
      case 'title':
        n.title = e.title
        break
      case 'item':
        n.items[e.i] = e.item
        break
      case 'items':
        n.items = n.items.slice(0, e.n)
        break
      case 'messages':
        n.messages = [...n.messages.slice(0, e.from), ...e.messages]
        break
      case 'state':
        n = { ...n, ...Object.fromEntries(Object.entries(e.state).map(([k, v]) => [k, v ?? undefined])) }
        break
      case 'rewound':
        n.rewound = [...(n.rewound ?? []), e.rewound]
        break
    }
  }
  return n
}
