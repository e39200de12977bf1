// @vitest-environment jsdom
import { act } from 'react'
import { createRoot } from 'react-dom/client'
import { describe, expect, it } from 'vitest'
import { useQueue, type Queue } from './use-queue'

;(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true

function mount(): Queue[] {
  const queues: Queue[] = []
  function Probe() {
    queues.push(useQueue())
    return null
  }
  const r = createRoot(document.createElement('div'))
  act(() => r.render(<Probe />))
  act(() => r.render(<Probe />))
  return queues
}

describe('useQueue', () => {
  it('starts a change only once the one before answered, failed or not, and keeps its identity', async () => {
    const [queue, again] = mount()
    expect(again).toBe(queue)
    const started: string[] = []
    const answers: Record<string, { ok: () => void; fail: () => void }> = {}
    const change = (name: string) => () =>
      new Promise<string>((resolve, reject) => {
        started.push(name)
        answers[name] = { ok: () => resolve(name), fail: () => reject(new Error(name)) }
      })
    const first = queue(change('first'))
    const second = queue(change('second'))
    const third = queue(change('third'))
    await Promise.resolve()
    expect(started).toEqual(['first'])
    answers.first.fail()
    await expect(first).rejects.toThrow('first')
    expect(started).toEqual(['first', 'second'])
    answers.second.ok()
    await expect(second).resolves.toBe('second')
    expect(started).toEqual(['first', 'second', 'third'])
    answers.third.ok()
    await expect(third).resolves.toBe('third')
  })
})
