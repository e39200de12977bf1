import { useEffect, useRef } from 'react'
import { useShown } from '../stores/project-scope'

// The window's keyboard shortcuts, as the list (Ctrl+/) shows them. Ctrl is Cmd on a Mac.
export const shortcuts: { keys: string; what: string }[] = [
  { keys: 'Esc', what: "Stop the agent's turn (what you queued goes back in the box); on an approval card, deny the call" },
  { keys: 'Enter', what: 'On an approval card: allow the call once; in the request box while the agent works: queue the message' },
  { keys: 'Ctrl+N', what: 'New conversation' },
  { keys: 'Ctrl+P', what: 'Open a file by name' },
  { keys: 'Ctrl+Shift+F', what: 'Search the project' },
  { keys: 'Ctrl+L', what: 'Go to the request box' },
  { keys: 'Ctrl+,', what: 'Settings' },
  { keys: 'Ctrl+/', what: 'This list of shortcuts' },
  { keys: '← →', what: "On the agent panel's edge: resize the panel (Shift: further; Home, End: widest, narrowest)" },
]

// matches says whether a key event is the combination ("Ctrl+Shift+F", "Ctrl+,", "Esc").
export function matches(e: Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'metaKey' | 'shiftKey' | 'altKey'>, combo: string): boolean {
  const parts = combo.split('+')
  const key = parts.pop() === '' ? '+' : combo.slice(combo.lastIndexOf('+') + 1)
  const ctrl = parts.includes('Ctrl')
  const shift = parts.includes('Shift')
  if (ctrl !== (e.ctrlKey || e.metaKey) || e.altKey) return false
  // Shift is part of the key itself for punctuation ("?" is Shift+/ on some layouts): only letters check it.
  if (/^[a-z]$/i.test(key) && shift !== e.shiftKey) return false
  const want = key === 'Esc' ? 'Escape' : key
  return e.key.toLowerCase() === want.toLowerCase()
}

// useShortcut calls handler when the combination is pressed anywhere in the window, unless something handled the
// key already (an approval card, a dialog, a field that uses it). handler returning false leaves the key alone.
// A project view that is not shown takes no keys: they are for the project the user sees.
export function useShortcut(combo: string, handler: (e: KeyboardEvent) => boolean | void, enabled = true) {
  const shown = useShown()
  const current = useRef(handler)
  useEffect(() => {
    current.current = handler
  })
  useEffect(() => {
    if (!enabled || !shown) return
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.isComposing || !matches(e, combo)) return
      if (current.current(e) !== false) e.preventDefault()
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [combo, enabled, shown])
}

// ShortcutsHelp is the list of shortcuts (Ctrl+/); Esc or a click outside closes it.
export function ShortcutsHelp({ onClose }: { onClose: () => void }) {
  useShortcut('Esc', () => onClose())
  return (
    <div className="dialog-overlay" onClick={onClose} data-testid="shortcuts">
      <div className="dialog" role="dialog" aria-label="Keyboard shortcuts" onClick={(e) => e.stopPropagation()}>
        <h2>Keyboard shortcuts</h2>
        <table className="shortcut-list">
          <tbody>
            {shortcuts.map((s) => (
              <tr key={s.keys} data-testid="shortcut">
                <td>
                  <kbd>{s.keys}</kbd>
                </td>
                <td>{s.what}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <button onClick={onClose} autoFocus>
          Close
        </button>
      </div>
    </div>
  )
}
