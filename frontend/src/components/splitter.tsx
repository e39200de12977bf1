import { useRef } from 'react'
import { clampWidth, keyWidth, minWidth } from '../lib/panel-width'

interface Props {
  width: number
  // room is the width the panel and the centre pane share.
  room: () => number
  onChange: (w: number) => void
  // onDone is called when a drag or a key ends a change (to keep the width).
  onDone: (w: number) => void
}

// Splitter is the edge between the centre pane and the agent panel: dragged with the pointer, or focused and
// moved with the arrow keys (Shift for bigger steps, Home/End for the widest and narrowest).
export function Splitter({ width, room, onChange, onDone }: Props) {
  const drag = useRef<{ x: number; w: number; last: number } | null>(null)
  return (
    <div
      className="splitter"
      role="separator"
      aria-orientation="vertical"
      aria-label="Resize the agent panel"
      aria-valuemin={minWidth}
      aria-valuemax={clampWidth(Number.POSITIVE_INFINITY, room())}
      aria-valuenow={width}
      tabIndex={0}
      data-testid="agent-splitter"
      title="Drag, or use the arrow keys, to resize the agent panel"
      onPointerDown={(e) => {
        e.preventDefault()
        e.currentTarget.setPointerCapture(e.pointerId)
        drag.current = { x: e.clientX, w: width, last: width }
      }}
      onPointerMove={(e) => {
        const d = drag.current
        if (!d) return
        // The panel is on the right: moving the edge left widens it.
        d.last = clampWidth(d.w + d.x - e.clientX, room())
        onChange(d.last)
      }}
      onPointerUp={(e) => {
        const d = drag.current
        drag.current = null
        e.currentTarget.releasePointerCapture(e.pointerId)
        if (d) onDone(d.last)
      }}
      onKeyDown={(e) => {
        const w = keyWidth(width, e.key, e.shiftKey, room())
        if (w === undefined) return
        e.preventDefault()
        onChange(w)
        onDone(w)
      }}
    />
  )
}
