import { useEffect, useRef, useState } from 'react'
import { InitializeNotifications, SendNotification, WindowSetTitle } from '../../wailsjs/runtime/runtime'
import type { Item } from '../agent/conversation'
import { agentState, attentionNeeded, elapsedText, progress, type TurnActivity } from '../agent/progress'
import { useProjectScope } from '../stores/project-scope'

// TurnStatus is the row under the log while the agent works: the step it is on, in words, and how long that step
// has taken, ticking each second ("Running go test ./... · 41 s", "Waiting for Anthropic (HTTP 529) · retry in 4 s").
// Only the pane in view ticks: with several conversations working, a hidden pane's row would re-render four times a
// second for nobody. The time shown is measured from when the step started, not counted in ticks, so it is right
// the moment the pane is shown again.
//
// clock is the time now (a test gives its own). It is read in render only when the step changes, to note when the
// step was first seen: the last tick may be long past in a hidden pane.
export function TurnStatus({ items, activity, clock = Date.now }: { items: Item[]; activity: TurnActivity; clock?: () => number }) {
  const { shown } = useProjectScope()
  // A quarter of a second between ticks keeps a countdown's whole seconds true to within that.
  const [now, setNow] = useState(clock)
  useEffect(() => {
    if (!shown) return
    const tick = () => setNow(clock())
    const first = setTimeout(tick, 0) // shown again: the time is brought up to date at once, not a tick later
    const t = setInterval(tick, 250)
    return () => {
      clearTimeout(first)
      clearInterval(t)
    }
  }, [shown, clock])
  const p = progress(items, activity, now)
  // A new step starts its count again.
  const [since, setSince] = useState(() => ({ key: p.key, at: now }))
  if (since.key !== p.key) setSince({ key: p.key, at: clock() })
  const took = elapsedText(Math.max(0, now - (since.key === p.key ? since.at : now)))
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
// ("● Needs approval — Rooted") until the window is focused again, and a desktop notification: the system's own
// through Wails (D-Bus on Linux), else the web view's Notification where it grants one (WebKitGTK asks the
// application, and Wails v2 does not answer, so that is refused there); the title is there either way. Not
// looking includes working in another project: a hidden project's agent says so even in a focused window, naming
// its project. It also reports the agent's state to the project strip.
export function useAttention(items: Item[], running: boolean, title: string, projectName: string) {
  const { shown, report } = useProjectScope()
  const wasRunning = useRef(running)
  const said = useRef<string | undefined>(undefined)
  // Whether the system's notifications were set up: once per window (setting them up again reconnects).
  const native = useRef(false)
  useEffect(() => {
    const focused = () => {
      if (!shown) return // a hidden project's news stays until it is looked at
      said.current = undefined
      setTitle(baseTitle)
    }
    window.addEventListener('focus', focused)
    return () => window.removeEventListener('focus', focused)
  }, [shown])
  // Showing the project is looking at it: what it said is read.
  useEffect(() => {
    if (!shown || said.current === undefined) return
    said.current = undefined
    setTitle(baseTitle)
  }, [shown])
  useEffect(() => {
    const need = attentionNeeded(items, running, wasRunning.current)
    const state = agentState(items, running, wasRunning.current)
    wasRunning.current = running
    // The strip marks what happened out of sight (done, failed) until the project is shown; working and waiting
    // for as long as they last.
    report((s) => (state === 'done' || state === 'failed' ? (shown ? '' : state) : state === '' && (s === 'done' || s === 'failed') && !shown ? s : state))
    if (!need || (shown && document.hasFocus()) || said.current === need) return
    said.current = need
    const heading = shown ? need : `${projectName}: ${need}`
    setTitle(`● ${heading} — ${baseTitle}`)
    void notify(native, `${heading} — ${baseTitle}`, title)
  }, [items, running, title, shown, report, projectName])
  // Shown again, a done or failed mark is read.
  useEffect(() => {
    if (shown) report((s) => (s === 'done' || s === 'failed' ? '' : s))
  }, [shown, report])
}

async function notify(native: { current: boolean }, heading: string, body: string) {
  try {
    if (!native.current) {
      await InitializeNotifications()
      native.current = true
    }
    await SendNotification({ id: `rooted-${Date.now()}`, title: heading, body })
    return
  } catch {
    // no Wails runtime (a plain browser) or no notification service (no session bus): the web view's, if any
  }
  if (typeof Notification === 'undefined') return
  const show = () => {
    try {
      new Notification(heading, { body, tag: 'rooted-agent' })
    } catch {
      // a web view that has the API but refuses to show one: the title says it
    }
  }
  if (Notification.permission === 'granted') show()
  else if (Notification.permission === 'default') void Notification.requestPermission().then((p) => (p === 'granted' ? show() : undefined)).catch(() => undefined)
}
