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
