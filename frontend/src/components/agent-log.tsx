import { memo, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react'
import { useVirtualizer } from '@tanstack/react-virtual'
import type { Item } from '../agent/conversation'
import { planToolName } from '../agent/plan'
import { hydrate, refsIn, replaceRefs, sizeText } from '../agent/stored'
import { useBridge, useProjectScope } from '../stores/project-scope'
import { turnEnds, turnRange } from '../agent/turn-review'
import { FindBar } from './find-bar'
import { TurnBar } from './turn-bar'
import { LogItem, type ItemSession, type Session } from './log-item'

interface Props {
  s: Session
  // placeholder is what an empty conversation shows.
  placeholder: string
  onOpen: (rel: string, line?: number) => void
  // onEditResend takes the text of a request cut off by Edit and resend, for the request box.
  onEditResend: (text: string) => void
  // onReview opens the review of the turn of the request at this index.
  onReview?: (index: number) => void
}

// nearBottom is how close to the end (px) the reader counts as following the output.
const nearBottom = 48

// AgentLog is the conversation as the user reads it: a block per request, answer and thought, a card per tool
// call, and the controls that act on the whole log (Retry, Start, Continue). Only the items in view are in the
// page (a day's conversation has thousands). While the agent writes, the log follows the end unless the reader
// scrolled up: then it stays where they are and a pill says there is new output. Ctrl+F finds a word in the whole
// conversation, stored tool results included. It is memoised: a key typed in the request box does not render it.
export const AgentLog = memo(function AgentLog({ s, placeholder, onOpen, onEditResend, onReview }: Props) {
  const scroller = useRef<HTMLDivElement>(null)
  const items = s.conv.items
  // The items' view of the session changes when a turn starts or ends, not with each piece of a streamed answer.
  const itemsNow = useRef(items)
  useLayoutEffect(() => {
    itemsNow.current = items
  })
  const { running, answer, undo, undoRestore, rewind } = s
  const convId = s.conv.id
  const view = useMemo<ItemSession>(() => ({ convId, running, items: () => itemsNow.current, answer, undo, undoRestore, rewind }), [convId, running, answer, undo, undoRestore, rewind])
  // rows are the indices of the items shown (the plan tool's calls show as the plan above the log).
  const rows = useMemo(() => items.flatMap((it, i) => (it.kind === 'tool' && it.name === planToolName ? [] : [i])), [items])
  // The virtualizer hands out functions the React compiler cannot memoise; this component is left to React.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virt = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => 64,
    overscan: 6,
    getItemKey: (r) => `${items[rows[r]]?.id ?? ''}:${rows[r]}`,
  })

  // Following the end: true until the reader scrolls away from it, true again when they come back.
  const following = useRef(true)
  const [unseen, setUnseen] = useState(false)
  const seen = useRef({ id: s.conv.id, items })
  const [shownConv, setShownConv] = useState(s.conv.id)
  if (shownConv !== s.conv.id) {
    setShownConv(s.conv.id)
    setUnseen(false)
  }
  useEffect(() => {
    if (seen.current.id !== s.conv.id) following.current = true // another conversation opens at its end
    else if (seen.current.items !== items && !following.current) setUnseen(true)
    seen.current = { id: s.conv.id, items }
  }, [s.conv.id, items])
  // After every render (new output, or rows measured), a reader following the end stays at it. Reading the
  // heights lays the page out then and there; a pane out of sight (display: none) has none to read, and with
  // several conversations at work that was a layout for each of their changes. It comes to its end when shown.
  const { shown } = useProjectScope()
  useLayoutEffect(() => {
    const el = scroller.current
    if (shown && el && following.current && el.scrollHeight - el.scrollTop - el.clientHeight > 1) el.scrollTop = el.scrollHeight
  })
  const onScroll = () => {
    const el = scroller.current
    if (!el) return
    const atEnd = el.scrollHeight - el.scrollTop - el.clientHeight < nearBottom
    following.current = atEnd
    if (atEnd && unseen) setUnseen(false)
  }
  const toEnd = () => {
    following.current = true
    setUnseen(false)
    const el = scroller.current
    if (el) el.scrollTop = el.scrollHeight
  }

  // Find: the item shown as the current match, scrolled into the middle of the view.
  const [current, setCurrent] = useState<number | null>(null)
  const reveal = (index: number | null) => {
    setCurrent(index)
    if (index === null) return
    const r = rows.indexOf(index)
    if (r < 0) return
    following.current = false
    virt.scrollToIndex(r, { align: 'center' })
  }

  // Each finished turn that changed files ends with its bar, after its last item shown.
  const ends = useMemo(() => {
    const shown = new Map<number, number>()
    for (const [end, request] of turnEnds(items, s.running)) {
      const at = rows.findLast((r) => r <= end)
      if (at !== undefined) shown.set(at, request)
    }
    return shown
  }, [items, rows, s.running])
  let lastUser = -1
  items.forEach((it, i) => {
    if (it.kind === 'user') lastUser = i
  })
  return (
    <div className="agent-log-frame">
      {s.saveError ? (
        <div className="save-error" role="alert" data-testid="save-error">
          <span>
            Not saved since {new Date(s.saveError.since).toLocaleTimeString()}: {s.saveError.message}. Rooted tries again every few seconds, and keeps this
            conversation open until it is saved.
          </span>
          <button className="link-button" onClick={() => void s.flush()} data-testid="save-retry">
            Try now
          </button>
        </div>
      ) : null}
      <FindBar convId={s.conv.id} items={items} onCurrent={reveal} />
      <div className="agent-log" data-testid="agent-log" ref={scroller} onScroll={onScroll}>
        {items.length === 0 ? <div className="placeholder">{placeholder}</div> : null}
        <div className="agent-log-rows" style={{ height: virt.getTotalSize() }}>
          {virt.getVirtualItems().map((v) => {
            const index = rows[v.index]
            return (
              <div
                key={v.key}
                data-index={v.index}
                ref={virt.measureElement}
                className={`agent-log-row${index === current ? ' find-current' : ''}`}
                data-find={index === current ? 'current' : undefined}
                style={{ transform: `translateY(${v.start}px)` }}
              >
                <Resolved convId={s.conv.id} it={items[index]} index={index} s={view} onOpen={onOpen} onEditResend={onEditResend} />
                {ends.has(index) ? <TurnEnd items={items} request={ends.get(index)!} seq={s.filesSeq} onReview={onReview} /> : null}
              </div>
            )
          })}
        </div>
        {s.compacting ? <div className="msg notice info" data-testid="compacting">Compacting the conversation…</div> : null}
        {!s.running && lastUser >= 0 ? (
          <button
            className="link-button retry"
            onClick={() => void s.rewind(lastUser, { code: false, conversation: true }).then((t) => (t !== undefined ? s.send(t) : undefined))}
            disabled={!s.ready}
            data-testid="agent-retry"
            title="Run the last request again (its answer stays in the saved history)"
          >
            Retry
          </button>
        ) : null}
        {s.conv.planMode && !s.running && lastUser >= 0 ? (
          <button
            onClick={() => {
              s.setPlanMode(false)
              void s.send('Start: carry out the plan.')
            }}
            disabled={!s.ready}
            data-testid="plan-start"
          >
            Start
          </button>
        ) : null}
        {s.conv.halt && !s.running ? (
          <div className="msg notice info halt" data-testid="agent-halt" data-kind={s.conv.halt.kind}>
            <button onClick={() => void s.send('', { resume: true })} disabled={!s.ready} data-testid="agent-continue">
              Continue
            </button>
          </div>
        ) : null}
      </div>
      {unseen ? (
        <button className="new-output" onClick={toEnd} data-testid="new-output">
          New output ↓
        </button>
      ) : null}
    </div>
  )
})

// TurnEnd is the bar of the turn of the request at index request, when it changed anything.
function TurnEnd({ items, request, seq, onReview }: { items: Item[]; request: number; seq: number; onReview?: (index: number) => void }) {
  const range = turnRange(items, request)
  if (!range) return null
  return <TurnBar range={range} seq={seq} onReview={() => onReview?.(request)} />
}

// Resolved shows an item with its stored results read in (a line stands in for each until it is): only the
// items in view are, so a long conversation's results are read as the reader reaches them.
const Resolved = memo(function Resolved({ convId, it, ...rest }: { convId: string; it: Item; index: number; s: ItemSession; onOpen: (rel: string, line?: number) => void; onEditResend: (text: string) => void }) {
  const { workspace } = useBridge()
  const stored = useMemo(() => refsIn(it).length > 0, [it])
  const [loaded, setLoaded] = useState<{ from: Item; item: Item } | null>(null)
  useEffect(() => {
    if (!stored) return
    let live = true
    hydrate(workspace, convId, it)
      .then((item) => {
        if (live) setLoaded({ from: it, item })
      })
      .catch(() => undefined)
    return () => {
      live = false
    }
  }, [workspace, convId, it, stored])
  const shown = !stored ? it : loaded?.from === it ? loaded.item : replaceRefs(it, (r) => `[stored result, ${sizeText(r.bytes)}: loading…]`)
  return <LogItem it={shown} {...rest} />
})
