// @vitest-environment jsdom
import { act } from 'react'
import { createRoot } from 'react-dom/client'
import { describe, expect, it } from 'vitest'
import { held, type Held } from '../test/held'
import { readInOrder, useOrdered, useSequence, type Fresh } from './use-sequence'

;(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true

describe('useSequence', () => {
  it('keeps only the newest ask fresh, across renders, and keeps next the same function', () => {
    const nexts: (() => Fresh)[] = []
    function Probe({ n }: { n: number }) {
      nexts.push(useSequence())
      return <i>{n}</i>
    }
    const r = createRoot(document.createElement('div'))
    act(() => r.render(<Probe n={1} />))
    const first = nexts[0]()
    expect(first()).toBe(true)
    act(() => r.render(<Probe n={2} />))
    expect(nexts[1]).toBe(nexts[0])
    expect(first()).toBe(true) // a render is no ask: what is on its way stays wanted
    const second = nexts[1]()
    expect(first()).toBe(false)
    expect(second()).toBe(true)
    act(() => r.unmount())
  })

  it('gives each component its own sequence', () => {
    const nexts: (() => Fresh)[] = []
    function Probe() {
      nexts.push(useSequence())
      return null
    }
    const r = createRoot(document.createElement('div'))
    act(() =>
      r.render(
        <>
          <Probe />
          <Probe />
        </>,
      ),
    )
    const a = nexts[0]()
    nexts[1]()
    expect(a()).toBe(true)
    act(() => r.unmount())
  })
})

// mountOrdered mounts a component holding one useOrdered and gives its next.
function mountOrdered() {
  let next: (() => Fresh) | null = null
  function Probe() {
    next = useOrdered()
    return null
  }
  const r = createRoot(document.createElement('div'))
  act(() => r.render(<Probe />))
  return { next: () => next!(), unmount: () => act(() => r.unmount()) }
}

describe('useOrdered', () => {
  it('applies answers unless a later one was applied, so a failed later read leaves the earlier answer standing', () => {
    const { next, unmount } = mountOrdered()
    // Two reads on their way; the later one fails (its Fresh never called): the earlier one's answer is applied.
    const first = next()
    next()
    expect(first()).toBe(true)
    // Out of order: the later answer applied first, the earlier one is dropped when it comes.
    const older = next()
    const newer = next()
    expect(newer()).toBe(true)
    expect(older()).toBe(false)
    unmount()
  })
})

describe('readInOrder', () => {
  it('sets the answers of reads in the order asked, drops one older than one set, and lets a failure leave the last', async () => {
    const { next, unmount } = mountOrdered()
    const reads: Held<string>[] = []
    const read = () => {
      const answer = held<string>()
      reads.push(answer)
      return answer.promise
    }
    const shown: string[] = []
    const set = (v: string) => void shown.push(v)
    readInOrder(next, read, set)
    readInOrder(next, read, set)
    // The later read answers first; the earlier one's answer, older, is dropped when it comes.
    await act(async () => reads[1].resolve('second'))
    await act(async () => reads[0].resolve('first'))
    expect(shown).toEqual(['second'])
    // A read that fails sets nothing and throws nothing: the list shown stays.
    readInOrder(next, read, set)
    await act(async () => reads[2].reject(new Error('the backend is gone')))
    expect(shown).toEqual(['second'])
    // The next read's answer is set.
    readInOrder(next, read, set)
    await act(async () => reads[3].resolve('fourth'))
    expect(shown).toEqual(['second', 'fourth'])
    unmount()
  })
})
