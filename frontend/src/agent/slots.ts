import type { AgentState } from './progress'

// Slot is a mounted conversation pane: key names it for its life; initial is the saved conversation it opened
// (none: it began as a new one); focus, that its request box takes the focus as it mounts (the user asked for it).
export interface Slot {
  key: string
  initial?: { id: string; title: string }
  focus?: boolean
}

// SlotLook is what deciding whether a pane stays needs to know of it.
export interface SlotLook {
  running: boolean
  loaded: boolean
}

// keepSlot says whether the pane in slot key stays mounted when shownKey is put in view. A pane goes only when
// nobody needs it: not in view, no turn running, nothing waiting for the user or not yet seen (done, failed), its
// conversation saved and loaded. Its conversation is in the store; opening it again makes a new pane.
export function keepSlot(key: string, shownKey: string, look: SlotLook | undefined, state: AgentState | undefined, unsaved: string | undefined): boolean {
  if (key === shownKey) return true
  if (!look) return true // not yet reported: it is being made
  return look.running || !look.loaded || !!state || !!unsaved
}

// projectState is what the project's rail shows from its conversations' states: needs you if any does, else
// working if any works; done or failed (news not yet seen) only while the project is out of sight, since in sight
// the conversations' list says which one it was.
export function projectState(states: AgentState[], projectShown: boolean): AgentState {
  if (states.includes('waiting')) return 'waiting'
  if (states.includes('working')) return 'working'
  if (projectShown) return ''
  if (states.includes('failed')) return 'failed'
  if (states.includes('done')) return 'done'
  return ''
}
