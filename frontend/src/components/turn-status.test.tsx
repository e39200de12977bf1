// @vitest-environment jsdom
import { act, Profiler } from 'react'
import { createRoot } from 'react-dom/client'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { ProjectBridge } from '../bridge'
import type { Item } from '../agent/conversation'
import { ProjectScopeContext, type ProjectScope } from '../stores/project-scope'
import { TurnStatus } from './turn-status'

;(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true

const scope = (shown: boolean): ProjectScope => ({ bridge: {} as ProjectBridge, shown, report: () => undefined, unsaved: () => undefined })
const running = (id: string, command: string): Item[] => [
  { kind: 'user', id: 'u', text: 'test it' },
  { kind: 'tool', id, name: 'exec_shell', input: { command }, state: 'running' },
]
const activity = { provider: 'Anthropic' }

describe('TurnStatus in a pane out of view', () => {
  beforeEach(() => vi.useFakeTimers({ now: 1_000_000 }))
  afterEach(() => vi.useRealTimers())

  // A hidden pane's row does not re-render while its turn works, and when it is shown again it says how long the
  // step has really taken, including a step that began while it was hidden.
  it('does not tick while hidden and shows the true elapsed time when shown again', async () => {
    const host = document.createElement('div')
    document.body.append(host)
    const r = createRoot(host)
    let commits = 0
    const view = (shown: boolean, items: Item[]) => (
      <ProjectScopeContext.Provider value={scope(shown)}>
        <Profiler id="status" onRender={() => void commits++}>
          <TurnStatus items={items} activity={activity} />
        </Profiler>
      </ProjectScopeContext.Provider>
    )
    const elapsed = () => host.querySelector('[data-testid="turn-status-elapsed"]')?.textContent
    // Time passes a quarter second at a time, each its own act, so every tick that renders is a commit counted.
    const pass = async (ms: number) => {
      for (let t = 0; t < ms; t += 250) await act(async () => void vi.advanceTimersByTime(Math.min(250, ms - t)))
    }
    const label = () => host.querySelector('[data-testid="turn-status-label"]')?.textContent

    await act(async () => r.render(view(true, running('a', 'go build ./...'))))
    await pass(3_000)
    expect(elapsed()).toBe(' · 3 s')

    // Hidden: ten seconds pass without a single render.
    await act(async () => r.render(view(false, running('a', 'go build ./...'))))
    commits = 0
    await pass(10_000)
    expect(commits).toBe(0)

    // A new step begins while hidden (the pane re-renders for the new item), then seven more seconds pass.
    await act(async () => r.render(view(false, running('b', 'go test ./...'))))
    expect(label()).toBe('Running go test ./...')
    commits = 0
    await pass(7_000)
    expect(commits).toBe(0)

    // Shown again: the new step has taken seven seconds, said at once.
    await act(async () => r.render(view(true, running('b', 'go test ./...'))))
    await act(async () => void vi.advanceTimersByTime(1))
    expect(elapsed()).toBe(' · 7 s')
    // And it ticks again.
    await pass(2_000)
    expect(elapsed()).toBe(' · 9 s')
    act(() => r.unmount())
    host.remove()
  })
})
