import { useEffect, useRef, useState } from 'react'
import { useBridge, useShown } from '../stores/project-scope'
import type { Item } from '../agent/conversation'
import { findItems } from '../agent/find'
import { refsIn } from '../agent/stored'

interface Props {
  convId: string
  items: Item[]
  // onCurrent is told the item index of the current match (null: none), to scroll it into view.
  onCurrent: (index: number | null) => void
}

// FindBar is Ctrl+F over the open conversation: every item's text and the stored tool results it refers to
// (searched by the store), so a word is found in an item the log has not rendered. Enter goes to the next
// match, Shift+Enter to the one before, Escape closes.
export function FindBar({ convId, items, onCurrent }: Props) {
  const { conversationBlobsContaining } = useBridge()
  const shown = useShown()
  const [open, setOpen] = useState(false)
  const [query, setQuery] = useState('')
  const [hits, setHits] = useState<number[]>([])
  const [at, setAt] = useState(0)
  const input = useRef<HTMLInputElement>(null)
  const onCurrentRef = useRef(onCurrent)
  useEffect(() => {
    onCurrentRef.current = onCurrent
  })

  useEffect(() => {
    if (!shown) return // Ctrl+F is for the project shown
    const onKey = (e: KeyboardEvent) => {
      if (!(e.ctrlKey || e.metaKey) || e.key.toLowerCase() !== 'f' || e.shiftKey || e.altKey) return
      // The file pane's editor has its own search.
      if (e.target instanceof Element && e.target.closest('.cm-editor')) return
      e.preventDefault()
      setOpen(true)
      requestAnimationFrame(() => {
        input.current?.focus()
        input.current?.select()
      })
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [shown])

  // The search runs again when the query or the conversation changes (a word may arrive in new output).
  useEffect(() => {
    if (!open || !query.trim()) return
    let live = true
    const q = query.trim()
    const timer = setTimeout(() => {
      const stored = refsIn(items).length > 0 ? conversationBlobsContaining(convId, q).catch(() => [] as string[]) : Promise.resolve([] as string[])
      void stored.then((hashes) => {
        if (!live) return
        const found = findItems(items, q, new Set(hashes))
        setHits((prev) => {
          if (prev.join() !== found.join()) setAt(0)
          return found
        })
      })
    }, 120)
    return () => {
      live = false
      clearTimeout(timer)
    }
  }, [open, query, items, convId, conversationBlobsContaining])

  const found = open && query.trim() ? hits : []
  const current = found.length > 0 ? found[Math.min(at, found.length - 1)] : null
  useEffect(() => {
    onCurrentRef.current(open ? current : null)
  }, [open, current])

  if (!open) return null
  const step = (d: number) => {
    if (found.length > 0) setAt((a) => (Math.min(a, found.length - 1) + d + found.length) % found.length)
  }
  return (
    <div className="find-bar" role="search" data-testid="find-bar">
      <input
        ref={input}
        value={query}
        onChange={(e) => setQuery(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter') {
            e.preventDefault()
            step(e.shiftKey ? -1 : 1)
          } else if (e.key === 'Escape') {
            setOpen(false)
          }
        }}
        placeholder="Find in this conversation"
        aria-label="Find in this conversation"
        data-testid="find-input"
      />
      <span className="muted" data-testid="find-count">
        {query.trim() ? (found.length ? `${Math.min(at, found.length - 1) + 1} of ${found.length}` : 'no match') : ''}
      </span>
      <button className="link-button" onClick={() => step(-1)} disabled={found.length === 0} title="Previous match (Shift+Enter)" data-testid="find-prev">
        ↑
      </button>
      <button className="link-button" onClick={() => step(1)} disabled={found.length === 0} title="Next match (Enter)" data-testid="find-next">
        ↓
      </button>
      <button className="link-button" onClick={() => setOpen(false)} title="Close (Escape)" data-testid="find-close">
        ×
      </button>
    </div>
  )
}
