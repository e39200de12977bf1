import type { Item } from './conversation'
import { isRef } from './stored'

// Find over a whole conversation: the items in memory and the stored results they refer to (which the store
// searches, see conversationBlobsContaining), not only what the log has rendered.

const skip = new Set(['id', 'kind', 'state', 'snapshot', 'at', 'tone'])

// itemText is the text of an item a reader can find: every string in it but its bookkeeping.
export function itemText(v: unknown, out: string[] = []): string[] {
  if (typeof v === 'string') out.push(v)
  else if (Array.isArray(v)) for (const x of v) itemText(x, out)
  else if (typeof v === 'object' && v !== null && !isRef(v)) for (const [k, x] of Object.entries(v)) if (!skip.has(k)) itemText(x, out)
  return out
}

// findItems returns the indices of the items that hold query (ignoring case), in their own text or in a stored
// result whose hash is in stored.
export function findItems(items: Item[], query: string, stored: ReadonlySet<string> = new Set()): number[] {
  const q = query.toLowerCase()
  if (!q) return []
  const out: number[] = []
  items.forEach((it, i) => {
    if (itemText(it).some((t) => t.toLowerCase().includes(q)) || (stored.size > 0 && hasStored(it, stored))) out.push(i)
  })
  return out
}

function hasStored(v: unknown, stored: ReadonlySet<string>): boolean {
  if (isRef(v)) return stored.has(v.$blob)
  if (Array.isArray(v)) return v.some((x) => hasStored(x, stored))
  if (typeof v === 'object' && v !== null) return Object.values(v).some((x) => hasStored(x, stored))
  return false
}
