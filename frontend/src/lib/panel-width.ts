// The agent panel's width: dragged or keyed on its splitter, kept in the window's storage so it is the same after
// a restart, and always clamped so the centre pane keeps room to read a file.

export const defaultWidth = 440
export const minWidth = 320
// minCentre is the narrowest the centre pane may become beside the panel.
export const minCentre = 360
// step is how far an arrow key moves the splitter (Shift: four times as far).
export const step = 16

const key = 'rooted.agent-panel-width'

export type WidthStore = Pick<Storage, 'getItem' | 'setItem'>

// clampWidth keeps w between the panel's minimum and what leaves the centre pane minCentre of the room.
export function clampWidth(w: number, room: number): number {
  const max = Math.max(minWidth, room - minCentre)
  return Math.round(Math.min(max, Math.max(minWidth, w)))
}

export function loadWidth(store: WidthStore | undefined): number {
  const n = Number(store?.getItem(key))
  return Number.isFinite(n) && n >= minWidth ? n : defaultWidth
}

export function saveWidth(store: WidthStore | undefined, w: number): void {
  try {
    store?.setItem(key, String(Math.round(w)))
  } catch {
    // storage full or refused: the width holds for this run
  }
}

// keyWidth is the width after a key on the splitter (the panel is on the right: Left widens it), or undefined for
// a key the splitter leaves alone.
export function keyWidth(w: number, k: string, shift: boolean, room: number): number | undefined {
  const d = shift ? step * 4 : step
  switch (k) {
    case 'ArrowLeft':
      return clampWidth(w + d, room)
    case 'ArrowRight':
      return clampWidth(w - d, room)
    case 'Home':
      return clampWidth(Number.POSITIVE_INFINITY, room)
    case 'End':
      return clampWidth(minWidth, room)
    default:
      return undefined
  }
}
