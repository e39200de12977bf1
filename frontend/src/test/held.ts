// Held is an answer a stand-in backend keeps until the test releases it: the promise the code under test awaits, and
// the two ways the test settles it. Tests use it to put the backend's answers in the order the case is about (a save
// answering after the user moved on, a server that is still starting) rather than the order they happen to land.
export type Held<T> = { promise: Promise<T>; resolve: (value: T) => void; reject: (reason: unknown) => void }

// held makes one Held; Promise.withResolvers is ES2024, above the project's language level.
export function held<T>(): Held<T> {
  let resolve!: (value: T) => void
  let reject!: (reason: unknown) => void
  const promise = new Promise<T>((res, rej) => {
    resolve = res
    reject = rej
  })
  return { promise, resolve, reject }
}
