import { useCallback, useEffect, useRef, useState } from 'react'
import { toBackendError } from '../bridge'
import { useSequence } from '../lib/use-sequence'

// Parsed is a field's text read as the value it saves, or why it cannot be.
export type Parsed<T> = { ok: true; value: T } | { ok: false; error: string }

export interface AutoField {
  text: string
  // change is the user typing: the text is checked at once and saved a moment after the typing stops.
  change: (text: string) => void
  // load shows a value read from the settings, saving nothing.
  load: (text: string) => void
  error: string | null
  saved: boolean
}

// useAutoField is a setting that saves as it changes: no Save button. Text that does not parse shows its error
// beside the field and nothing is saved; text that does is saved delay ms after the last key, and the field says
// Saved (or the backend's refusal, beside it, with nothing saved).
export function useAutoField<T>(parse: (text: string) => Parsed<T>, save: (value: T) => Promise<unknown>, delay = 500): AutoField {
  const [text, setText] = useState('')
  const [error, setError] = useState<string | null>(null)
  const [saved, setSaved] = useState(false)
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined)
  const nextSave = useSequence()
  // The latest parse and save, so a pending save uses them rather than those of the render that scheduled it.
  const fns = useRef({ parse, save })
  useEffect(() => {
    fns.current = { parse, save }
  })
  useEffect(() => () => clearTimeout(timer.current), [])
  const change = useCallback(
    (t: string) => {
      setText(t)
      setSaved(false)
      clearTimeout(timer.current)
      const p = fns.current.parse(t)
      if (!p.ok) {
        setError(p.error)
        return
      }
      setError(null)
      const fresh = nextSave()
      timer.current = setTimeout(() => {
        fns.current
          .save(p.value)
          .then(() => {
            if (fresh()) setSaved(true)
          })
          .catch((e: unknown) => {
            if (fresh()) setError(toBackendError(e).message)
          })
      }, delay)
    },
    [delay, nextSave],
  )
  const load = useCallback((t: string) => {
    clearTimeout(timer.current)
    setText(t)
    setError(null)
  }, [])
  return { text, change, load, error, saved }
}

// FieldNote is what a field says after a change: its error, or Saved.
export function FieldNote({ field, id }: { field: AutoField; id: string }) {
  if (field.error)
    return (
      <span className="field-error" role="alert" data-testid={`${id}-error`}>
        {field.error}
      </span>
    )
  return field.saved ? (
    <span className="field-saved" role="status" data-testid={`${id}-saved`}>
      Saved
    </span>
  ) : null
}

// Parsers for the kinds of text Settings takes.
export const parseWhole =
  (min: number, max = Number.MAX_SAFE_INTEGER) =>
  (t: string): Parsed<number> => {
    const n = Number(t.trim())
    return t.trim() !== '' && Number.isInteger(n) && n >= min && n <= max ? { ok: true, value: n } : { ok: false, error: max < Number.MAX_SAFE_INTEGER ? `a whole number from ${min} to ${max}` : `a whole number, ${min} or more` }
  }

export const parseWords = (t: string): Parsed<string[]> => ({ ok: true, value: t.split(/[\s,]+/).filter(Boolean) })

export const parseAbsoluteLines = (t: string): Parsed<string[]> => {
  const lines = t
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
  const bad = lines.find((l) => !l.startsWith('/') && !/^[A-Za-z]:[\\/]/.test(l))
  return bad ? { ok: false, error: `not an absolute path: ${bad}` } : { ok: true, value: lines }
}

export const parseAny = (t: string): Parsed<string> => ({ ok: true, value: t })
