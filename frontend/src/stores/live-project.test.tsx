// @vitest-environment jsdom
import { act } from 'react'
import { createRoot } from 'react-dom/client'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { ProjectBridge } from '../bridge'
import { ProjectScopeContext } from './project-scope'
import type { FsChange, FsChanges, WatchStatus } from '../bridge'
import { useChanges, useLiveProject } from './live-project'

// The bridge is the Wails boundary; here it is a hand-driven event source.
const bridge = vi.hoisted(() => ({
  status: { active: true, watched: 3, degraded: false } as WatchStatus,
  listeners: new Set<(c: FsChanges) => void>(),
}))
vi.mock('../bridge', () => ({
  watchStatus: () => Promise.resolve(bridge.status),
  onFsChanges: (f: (c: FsChanges) => void) => {
    bridge.listeners.add(f)
    return () => bridge.listeners.delete(f)
  },
}))

const send = (c: FsChanges) => act(() => bridge.listeners.forEach((l) => l(c)))

;(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true

// The project's view gives its hooks its bridge: here the hand-written one above, as project p-2's.
const mocked = await import('../bridge')
const scope = { bridge: { ...mocked, workspace: 'p-2' } as unknown as ProjectBridge, shown: true, report: () => undefined, unsaved: (r: string) => void mocked.setConversationUnsaved?.(r) }

function mount(root: string) {
  const heard: FsChange[][] = []
  let status: WatchStatus | null = null
  function Probe() {
    const live = useLiveProject(root)
    status = live.status
    useChanges(live.feed, (c) => heard.push(c))
    return null
  }
  const host = document.createElement('div')
  const r = createRoot(host)
  act(() => r.render(
      <ProjectScopeContext.Provider value={scope}>
        <Probe />
      </ProjectScopeContext.Provider>,
    ))
  return { heard, status: () => status, unmount: () => act(() => r.unmount()) }
}

describe('useLiveProject', () => {
  beforeEach(() => vi.useFakeTimers())
  afterEach(() => {
    vi.useRealTimers()
    bridge.listeners.clear()
  })

  it('passes on batches for its project and ignores late ones from another', async () => {
    bridge.status = { active: true, watched: 3, degraded: false }
    const p = mount('/p')
    await act(async () => {})
    expect(p.status()).toEqual(bridge.status)
    send({ workspace: 'old-1', root: '/old', changes: [{ path: 'x', op: 'create' }], watch: bridge.status })
    send({ workspace: 'p-2', root: '/p', changes: [{ path: 'a.go', op: 'write' }], watch: bridge.status })
    expect(p.heard).toEqual([[{ path: 'a.go', op: 'write' }]])
    // Live: no polling.
    act(() => vi.advanceTimersByTime(10_000))
    expect(p.heard).toHaveLength(1)
    p.unmount()
    expect(bridge.listeners.size).toBe(0)
  })

  it('re-reads what is shown every few seconds when the watch limit was reached', async () => {
    bridge.status = { active: true, watched: 3, degraded: false }
    const p = mount('/p')
    await act(async () => {})
    const degraded = { active: true, watched: 8192, degraded: true, reason: 'the system limit on file watches is reached' }
    send({ workspace: 'p-2', root: '/p', changes: [{ path: 'big', op: 'create' }], watch: degraded })
    expect(p.status()).toEqual(degraded)
    act(() => vi.advanceTimersByTime(6_500))
    expect(p.heard.slice(1)).toEqual([[{ path: '', op: 'rescan' }], [{ path: '', op: 'rescan' }]])
    p.unmount()
    act(() => vi.advanceTimersByTime(10_000))
    expect(p.heard).toHaveLength(3) // stopped with the view
  })

  it('polls from the start for a project without a watcher', async () => {
    bridge.status = { active: false, watched: 0, degraded: false }
    const p = mount('/p')
    await act(async () => {})
    act(() => vi.advanceTimersByTime(3_100))
    expect(p.heard).toEqual([[{ path: '', op: 'rescan' }]])
    p.unmount()
  })
})
