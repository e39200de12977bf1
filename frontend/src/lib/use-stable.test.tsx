// @vitest-environment jsdom
import { act } from 'react'
import { createRoot } from 'react-dom/client'
import { describe, expect, it } from 'vitest'
import { useStable } from './use-stable'

;(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true

describe('useStable', () => {
  it('keeps the object while its fields are the same, and gives the new one when one changes', () => {
    const seen: object[] = []
    const f = () => undefined
    function Probe({ n, list }: { n: number; list: number[] }) {
      seen.push(useStable({ n, list, f }))
      return null
    }
    const r = createRoot(document.createElement('div'))
    const list = [1]
    act(() => r.render(<Probe n={1} list={list} />))
    act(() => r.render(<Probe n={1} list={list} />)) // a render for something else: the same object
    act(() => r.render(<Probe n={2} list={list} />)) // a field changed
    act(() => r.render(<Probe n={2} list={[1]} />)) // a field is another array, equal or not
    act(() => r.unmount())
    expect(seen).toHaveLength(4)
    expect(seen[1]).toBe(seen[0])
    expect(seen[2]).not.toBe(seen[1])
    expect(seen[2]).toEqual({ n: 2, list, f })
    expect(seen[3]).not.toBe(seen[2])
  })
})
