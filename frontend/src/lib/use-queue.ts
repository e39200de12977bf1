import { useCallback, useRef } from 'react'

// Queue runs a change after every change given to it before has answered, and gives back its answer.
export type Queue = <T>(change: () => Promise<T>) => Promise<T>

// useQueue orders the changes of one thing saved whole (the project's settings, its rule list): the backend takes
// the whole of it, so two changes made quickly that both start from what was last saved would each put back what
// the other changed. Queued, each starts once the one before has answered, from what that one saved, and the
// answers come in the order the changes were made. A change that fails does not stop those after it. The queue
// keeps its identity, for hooks' dependency lists.
export function useQueue(): Queue {
  const tail = useRef<Promise<unknown>>(Promise.resolve())
  return useCallback(<T>(change: () => Promise<T>) => {
    const run = tail.current.then(change)
    tail.current = run.catch(() => undefined)
    return run
  }, [])
}
