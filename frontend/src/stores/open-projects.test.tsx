// @vitest-environment jsdom
import { act } from 'react'
import { createRoot } from 'react-dom/client'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Project } from '../bridge'
import { useOpenProjects, type OpenProjects } from './open-projects'

// The bridge is the Wails boundary; here it is a list of open projects.
const bridge = vi.hoisted(() => ({
  open: [] as Project[],
  current: null as Project | null,
  closed: [] as string[],
  focused: [] as string[],
}))
vi.mock('../bridge', () => ({
  currentProject: () => Promise.resolve(bridge.current),
  openProjects: () => Promise.resolve(bridge.open),
  closeProject: (id: string) => {
    bridge.closed.push(id)
    return Promise.resolve()
  },
  focusProject: (id: string) => {
    bridge.focused.push(id)
    return Promise.resolve()
  },
  toBackendError: (e: unknown) => e,
}))

;(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true

const project = (id: string, name: string): Project => ({ id, root: `/p/${name}`, name, cwd: `/p/${name}`, cwd_relative: '.' })
const alpha = project('alpha-1', 'alpha')
const beta = project('beta-2', 'beta')

async function mount(): Promise<{ get: () => OpenProjects }> {
  let state!: OpenProjects
  function Probe() {
    state = useOpenProjects()
    return null
  }
  const host = document.createElement('div')
  await act(async () => createRoot(host).render(<Probe />))
  return { get: () => state }
}

describe('useOpenProjects', () => {
  afterEach(() => {
    Object.assign(bridge, { open: [], current: null, closed: [], focused: [] })
  })

  it('comes back to the projects open in the backend and the one shown', async () => {
    bridge.open = [alpha, beta]
    bridge.current = beta
    const s = await mount()
    expect(s.get().ready).toBe(true)
    expect(s.get().projects.map((p) => p.id)).toEqual(['alpha-1', 'beta-2'])
    expect(s.get().current?.id).toBe('beta-2')
  })

  it('shows another project, adds one just opened, and tells the backend which is shown', async () => {
    bridge.open = [alpha]
    bridge.current = alpha
    const s = await mount()
    await act(async () => s.get().show(beta))
    expect(s.get().current?.id).toBe('beta-2')
    expect(s.get().projects.map((p) => p.id)).toEqual(['alpha-1', 'beta-2'])
    expect(bridge.focused.at(-1)).toBe('beta-2')
    await act(async () => s.get().show(alpha))
    expect(s.get().projects).toHaveLength(2) // shown again, not added twice
    expect(s.get().current?.id).toBe('alpha-1')
  })

  it('closing the project shown shows none and leaves the other project open', async () => {
    bridge.open = [alpha, beta]
    bridge.current = alpha
    const s = await mount()
    await act(async () => s.get().close(alpha))
    expect(bridge.closed).toEqual(['alpha-1'])
    expect(s.get().projects.map((p) => p.id)).toEqual(['beta-2'])
    expect(s.get().current).toBeNull()
    // Closing one not shown keeps the one shown.
    await act(async () => s.get().show(beta))
    bridge.open = [beta]
    await act(async () => s.get().close(project('gamma-3', 'gamma')))
    expect(s.get().current?.id).toBe('beta-2')
  })
})
