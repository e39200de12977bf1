// @vitest-environment jsdom
import { act } from 'react'
import { createRoot, type Root } from 'react-dom/client'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { ProjectBridge, Snapshot } from '../bridge'
import { ProjectScopeContext } from '../stores/project-scope'
import { HistoryPanel } from './history-panel'

vi.mock('../bridge', () => ({ toBackendError: (e: unknown) => ({ code: 'internal', message: String(e) }) }))

;(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true

const snap = (id: string, reason: string): Snapshot => ({ id: id.repeat(40), time: new Date(0).toISOString(), reason, files_changed: 1 })

// Each list_snapshots waits in held until the test answers it with the snapshots it names.
function backend() {
  const held: { log: boolean; answer: (s: Snapshot[]) => void }[] = []
  const callTool = (name: string, args: Record<string, unknown>) => {
    if (name !== 'list_snapshots') return Promise.reject(new Error(`unexpected ${name}`))
    return new Promise((resolve) => held.push({ log: args.log === true, answer: (s) => resolve(args.log ? { log: s.map((x) => ({ time: x.time, op: 'backup', snapshot: x.id })) } : { snapshots: s }) }))
  }
  return { held, bridge: { workspace: 'w', callTool } as unknown as ProjectBridge }
}

let root: Root | null = null
afterEach(() => {
  act(() => root?.unmount())
  root = null
})

describe('HistoryPanel', () => {
  it('shows the newest listing when an older one answers after it', async () => {
    const { held, bridge } = backend()
    const host = document.createElement('div')
    root = createRoot(host)
    const render = (refresh: number) =>
      act(() =>
        root!.render(
          <ProjectScopeContext.Provider value={{ bridge, shown: true, report: () => undefined, unsaved: () => undefined }}>
            <HistoryPanel selected={null} onSelect={() => undefined} refresh={refresh} />
          </ProjectScopeContext.Provider>,
        ),
      )
    render(0)
    const first = held.filter((h) => !h.log)
    expect(first).toHaveLength(1)
    // A restore made through Rooted: the panel lists again while the first listing is still on its way.
    render(1)
    const second = held.filter((h) => !h.log)
    expect(second).toHaveLength(2)
    await act(async () => second[1].answer([snap('b', 'before the restore'), snap('a', 'first edit')]))
    await act(async () => second[0].answer([snap('a', 'first edit')])) // the listing from before the restore, late
    const shown = [...host.querySelectorAll('[data-testid="snapshot"] .history-reason')].map((e) => e.textContent)
    expect(shown).toEqual(['before the restore', 'first edit'])
  })
})
