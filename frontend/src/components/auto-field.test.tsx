// @vitest-environment jsdom
import { act } from 'react'
import { createRoot } from 'react-dom/client'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { BackendError } from '../bridge/backend-error'
import { held, type Held } from '../test/held'
import { parseAbsoluteLines, parseWhole, useAutoField, type AutoField } from './auto-field'

;(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true

// A field driven as the settings screen drives it, with a save that records what it was given.
function mount(save: (v: number) => Promise<unknown>) {
  const field: { current?: AutoField } = {}
  function Probe() {
    field.current = useAutoField(parseWhole(1, 100), save)
    return null
  }
  const div = document.createElement('div')
  const root = createRoot(div)
  act(() => root.render(<Probe />))
  return { field: () => field.current!, unmount: () => act(() => root.unmount()) }
}

describe('useAutoField', () => {
  beforeEach(() => vi.useFakeTimers())
  afterEach(() => vi.useRealTimers())

  it('saves a moment after the typing stops, once, with the last text, and then says Saved', async () => {
    const saved: number[] = []
    const f = mount(async (v) => void saved.push(v))
    act(() => f.field().change('4'))
    act(() => f.field().change('42'))
    expect(saved).toEqual([])
    await act(async () => vi.advanceTimersByTimeAsync(600))
    expect(saved).toEqual([42])
    expect(f.field().saved).toBe(true)
    expect(f.field().error).toBeNull()
    f.unmount()
  })

  it('text that does not parse shows its error and saves nothing', async () => {
    const saved: number[] = []
    const f = mount(async (v) => void saved.push(v))
    act(() => f.field().change('0'))
    expect(f.field().error).toBe('a whole number from 1 to 100')
    act(() => f.field().change('7'))
    act(() => f.field().change('seven'))
    await act(async () => vi.advanceTimersByTimeAsync(600))
    expect(saved).toEqual([]) // the valid 7 was typed over before its moment came
    expect(f.field().saved).toBe(false)
    f.unmount()
  })

  it("the backend's refusal is the field's error", async () => {
    const f = mount(() => Promise.reject(new BackendError('invalid_argument', 'too many')))
    act(() => f.field().change('9'))
    await act(async () => vi.advanceTimersByTimeAsync(600))
    expect(f.field().error).toBe('too many')
    expect(f.field().saved).toBe(false)
    f.unmount()
  })

  // A save's answer that lands once a later change was typed is not the field's: neither Saved nor its error.
  for (const late of ['answers', 'fails'] as const)
    it(`says nothing of a save that ${late} once a later change was typed`, async () => {
      const answers: Held<void>[] = []
      const f = mount(() => {
        const answer = held<void>()
        answers.push(answer)
        return answer.promise
      })
      act(() => f.field().change('4'))
      await act(async () => vi.advanceTimersByTimeAsync(600))
      expect(answers).toHaveLength(1) // 4's save, on its way
      act(() => f.field().change('42'))
      await act(async () => (late === 'answers' ? answers[0].resolve() : answers[0].reject(new BackendError('invalid_argument', 'too small'))))
      expect(f.field().saved).toBe(false)
      expect(f.field().error).toBeNull()
      // 42's own answer is said.
      await act(async () => vi.advanceTimersByTimeAsync(600))
      expect(answers).toHaveLength(2)
      await act(async () => answers[1].resolve())
      expect(f.field().saved).toBe(true)
      f.unmount()
    })

  it('loading a value shows it without saving it', async () => {
    const save = vi.fn(async () => undefined)
    const f = mount(save)
    act(() => f.field().load('12'))
    await act(async () => vi.advanceTimersByTimeAsync(600))
    expect(f.field().text).toBe('12')
    expect(save).not.toHaveBeenCalled()
    f.unmount()
  })
})

describe('parsers', () => {
  it('reads paths one a line, each absolute', () => {
    expect(parseAbsoluteLines('/opt/sdk\n\n  /var/run/docker.sock ')).toEqual({ ok: true, value: ['/opt/sdk', '/var/run/docker.sock'] })
    expect(parseAbsoluteLines('/opt\nrelative/x')).toEqual({ ok: false, error: 'not an absolute path: relative/x' })
  })
})
