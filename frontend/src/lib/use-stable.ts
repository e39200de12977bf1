import { useMemo } from 'react'

// useStable returns the object it was given the last time when none of its fields changed since (each compared
// with Object.is, as React compares a hook's dependencies), else the new one. A hook that returns many things makes
// its result with it, listing each field once: what takes the result whole (a memoised child) is rendered again only
// when something in it changed. The object's fields must be the same from render to render (an object literal).
export function useStable<T extends object>(obj: T): T {
  // The fields are the dependencies: the literal lists them, always the same ones in the same order.
  // eslint-disable-next-line react-hooks/exhaustive-deps, react-hooks/use-memo
  return useMemo(() => obj, Object.values(obj))
}
