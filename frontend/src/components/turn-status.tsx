import { useEffect, useRef, useState } from 'react'
import { WindowSetTitle } from '../../wailsjs/runtime/runtime'
import type { Item } from '../agent/conversation'
import { attentionNeeded, elapsedText, progress, type TurnActivity } from '../agent/progress'

// TurnStatus is the row under the log while the agent works: the step it is on, in words, and how long that step
// has taken, ticking each second ("Running go test ./... · 41 s", "Waiting for Anthropic (HTTP 529) · retry in 4 s").
export function TurnStatus({ items, activity }: { items: Item[]; activity: TurnActivity }) {
  // A quarter of a second between ticks keeps a countdown's whole seconds true to within that.
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), 250)
    return () => clearInterval(t)
  }, [])
  const p = progress(items, activity, now)
  // A new step starts its count again.
  const [since, setSince] = useState({ key: p.key, at: now })
  if (since.key !== p.key) setSince({ key: p.key, at: now })
  const took = elapsedText(now - (since.key === p.key ? since.at : now))
  return (
    <div className="turn-status" role="status" data-testid="turn-status">
      <span className="turn-spinner" aria-hidden="true" />
      <span data-testid="turn-status-label">{p.label}</span>
      {p.elapsed ? <span className="turn-elapsed" data-testid="turn-status-elapsed"> · {took}</span> : null}
    </div>
  )
}

export const baseTitle = 'Rooted'

function setTitle(t: string) {
  document.title = t
  try {
    WindowSetTitle(t) // the native window's title; the web view's own title is not shown by every platform
  } catch {
    // not inside the app (a plain browser): the document's title is the one shown
  }
}

// useAttention tells a person who is not looking that the agent needs them or is done: the window's title
// ("● Needs approval — Rooted") until the window is focused again, and a desktop notification where the web view
// grants them (WebKitGTK asks the application, which may refuse: the title is the fallback).
export function useAttention(items: Item[], running: boolean, title: string) {
  const wasRunning = useRef(running)
  const said = useRef<string | undefined>(undefined)
  useEffect(() => {
    const focused = () => {
      said.current = undefined
      setTitle(baseTitle)
    }
    window.addEventListener('focus', focused)
    return () => window.removeEventListener('focus', focused)
  }, [])
  useEffect(() => {
    const need = attentionNeeded(items, running, wasRunning.current)
    wasRunning.current = running
    if (!need || document.hasFocus() || said.current === need) return
    said.current = need
    setTitle(`● ${need} — ${baseTitle}`)
    notify(need, title)
  }, [items, running, title])
}

function notify(what: string, body: string) {
  if (typeof Notification === 'undefined') return
  const show = () => {
    try {
      new Notification(`${what} — ${baseTitle}`, { body, tag: 'rooted-agent' })
    } catch {
      // a web view that has the API but refuses to show one: the title says it
    }
  }
  if (Notification.permission === 'granted') show()
  else if (Notification.permission === 'default') void Notification.requestPermission().then((p) => (p === 'granted' ? show() : undefined)).catch(() => undefined)
}
