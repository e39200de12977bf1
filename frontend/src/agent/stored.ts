import type { ModelMessage } from 'ai'
import { conversationBlob } from '../bridge'
import { keepTurns } from './context'

// A loaded conversation holds references in place of long strings (tool results over 8 KiB, kept once by the
// store beside its log): {"$blob": hash, "bytes": n}. They are read when a card shows them or the model needs
// them, through a cache of bounded size, so a long day's conversation opens without its results in memory.

export interface BlobRef {
  $blob: string
  bytes: number
}

export function isRef(v: unknown): v is BlobRef {
  return typeof v === 'object' && v !== null && typeof (v as BlobRef).$blob === 'string' && typeof (v as BlobRef).bytes === 'number' && Object.keys(v).length === 2
}

// refsIn returns the hashes v refers to.
export function refsIn(v: unknown, out: string[] = []): string[] {
  if (isRef(v)) out.push(v.$blob)
  else if (Array.isArray(v)) for (const x of v) refsIn(x, out)
  else if (typeof v === 'object' && v !== null) for (const x of Object.values(v)) refsIn(x, out)
  return out
}

// replaceRefs returns v with every reference replaced by f of it (v itself when it has none).
export function replaceRefs<T>(v: T, f: (r: BlobRef) => string): T {
  if (isRef(v)) return f(v) as T
  if (Array.isArray(v)) {
    let changed = false
    const n = v.map((x) => {
      const y = replaceRefs(x, f)
      if (y !== x) changed = true
      return y
    })
    return (changed ? n : v) as T
  }
  if (typeof v === 'object' && v !== null) {
    let changed = false
    const n: Record<string, unknown> = {}
    for (const [k, x] of Object.entries(v)) {
      const y = replaceRefs(x, f)
      if (y !== x) changed = true
      n[k] = y
    }
    return (changed ? n : v) as T
  }
  return v
}

const budget = 48 << 20 // characters of results kept in memory
const cache = new Map<string, string>() // insertion order is use order
let held = 0

function remember(hash: string, text: string) {
  cache.delete(hash)
  cache.set(hash, text)
  held += text.length
  for (const [k, t] of cache) {
    if (held <= budget || k === hash) break
    cache.delete(k)
    held -= t.length
  }
}

// cached returns a result already read, or undefined.
export function cached(hash: string): string | undefined {
  const t = cache.get(hash)
  if (t !== undefined) {
    cache.delete(hash)
    cache.set(hash, t)
  }
  return t
}

// readBlob returns the result a reference names, stored with conversation convId of project ws.
export async function readBlob(ws: string, convId: string, hash: string): Promise<string> {
  const hit = cached(hash)
  if (hit !== undefined) return hit
  const text = await conversationBlob(ws, convId, hash)
  remember(hash, text)
  return text
}

// hydrate returns v with every reference replaced by what it names (what the model is sent).
export async function hydrate<T>(ws: string, convId: string, v: T): Promise<T> {
  const hashes = [...new Set(refsIn(v))]
  if (hashes.length === 0) return v
  const texts = new Map<string, string>()
  for (const h of hashes) texts.set(h, await readBlob(ws, convId, h))
  return replaceRefs(v, (r) => texts.get(r.$blob) ?? '')
}

// forModel returns the model's messages for a request: the latest keep turns with their stored results read in,
// the older ones with a note in place of each (context's elideOld sends any result of theirs over 2,000
// characters as such a note anyway), so a reopened day's conversation is not read whole to ask one question.
export async function forModel(ws: string, convId: string, messages: ModelMessage[], keep = keepTurns): Promise<ModelMessage[]> {
  let turns = 0
  let cut = 0
  for (let i = messages.length - 1; i >= 0; i--) {
    if (messages[i].role === 'user' && ++turns === keep) {
      cut = i
      break
    }
  }
  const older = messages.slice(0, cut).map((m) => replaceRefs(m, (r) => `[Rooted: this result (${r.bytes.toLocaleString('en')} bytes) was elided from the conversation to save context; call the tool again if you need it.]`))
  return [...older, ...(await hydrate(ws, convId, messages.slice(cut)))]
}

// sizeText says how large a stored result is, for the line that stands in for it until it is read.
export function sizeText(bytes: number): string {
  return bytes >= 1 << 20 ? `${(bytes / (1 << 20)).toFixed(1)} MB` : `${Math.round(bytes / 1024)} KB`
}
