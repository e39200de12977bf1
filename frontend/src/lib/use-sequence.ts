import { useCallback, useRef } from 'react'

// Fresh says whether an answer is still wanted: no later call of the sequence's next has been made since the one that
// gave it.
export type Fresh = () => boolean

// useSequence orders the asynchronous answers of one thing a component shows (a list read again, a file saved, a
// lookup): next() is called as each is asked for, and the answer is applied only while the Fresh it returned says
// so. A later ask, or something the user did that makes the pending answers meaningless (another file opened, a
// form for another provider), calls next() too, so an answer that arrives late, or out of order, is dropped rather
// than shown over what the user now looks at. next keeps its identity, for hooks' dependency lists.
export function useSequence(): () => Fresh {
  const n = useRef(0)
  return useCallback(() => {
    const mine = ++n.current
    return () => mine === n.current
  }, [])
}

// useOrdered orders the answers of reads of one thing (a list read again on each change): next() is called as each
// is asked for, and an answer is applied unless one asked for later has been applied already. Answers out of order
// never put back an older state, and a later read that fails leaves the earlier one's answer standing, where
// useSequence would have dropped it (a list never shown at all). Calling the Fresh marks its answer applied, so it
// is called once, where the answer is applied. next keeps its identity, for hooks' dependency lists.
export function useOrdered(): () => Fresh {
  const asked = useRef(0)
  const applied = useRef(0)
  return useCallback(() => {
    const mine = ++asked.current
    return () => {
      if (mine < applied.current) return false
      applied.current = mine
      return true
    }
  }, [])
}

// readInOrder is one read of a thing ordered by next (useOrdered's): its answer is set unless an answer asked for
// later has been set already, and a read that fails sets nothing, so the last answer stands. A list read again on
// its own occasions needs nothing more; next is the caller's so that other places can order against the same reads
// (a value put by hand, a read that waits for something first).
export function readInOrder<T>(next: () => Fresh, read: () => Promise<T>, set: (value: T) => void): void {
  const fresh = next()
  read()
    .then((v) => fresh() && set(v))
    .catch(() => undefined)
}
