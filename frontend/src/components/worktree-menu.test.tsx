// @vitest-environment jsdom
import { act } from 'react'
import { createRoot, type Root } from 'react-dom/client'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Project, ProjectBridge, Worktree } from '../bridge'
import { ProjectScopeContext } from '../stores/project-scope'
import { WorktreeMenu } from './worktree-menu'

// Each listing of the worktrees waits in held until the test answers it.
const listings = vi.hoisted(() => ({ held: [] as ((w: Worktree[]) => void)[] }))
vi.mock('../bridge', () => ({
  worktrees: () => new Promise((resolve) => listings.held.push(resolve)),
  startWorktree: () => new Promise(() => undefined),
  openWorktree: () => new Promise(() => undefined),
  toBackendError: (e: unknown) => ({ code: 'internal', message: String(e) }),
}))

;(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true

const project: Project = { id: 'p', root: '/src/app', name: 'app', cwd: '/src/app', cwd_relative: '' }
const worktree = (name: string): Worktree => ({ name, path: `/src/app-${name}`, branch: name, changed_files: 1 }) as Worktree

let root: Root | null = null
afterEach(() => {
  act(() => root?.unmount())
  root = null
  listings.held = []
})

describe('WorktreeMenu', () => {
  it('lists the worktrees of the newest listing when an older one answers after it', async () => {
    const host = document.createElement('div')
    root = createRoot(host)
    act(() =>
      root!.render(
        <ProjectScopeContext.Provider value={{ bridge: { workspace: 'p' } as unknown as ProjectBridge, shown: true, report: () => undefined, unsaved: () => undefined }}>
          <WorktreeMenu project={project} open={[project]} onOpened={() => undefined} />
        </ProjectScopeContext.Provider>,
      ),
    )
    expect(listings.held).toHaveLength(1) // the project shown lists them
    // The user opens the menu while that listing is on its way (a worktree was made meanwhile in another window).
    act(() => host.querySelector<HTMLButtonElement>('[data-testid="worktree-menu"]')!.click())
    expect(listings.held).toHaveLength(2)
    await act(async () => listings.held[1]([worktree('fix-login'), worktree('docs')]))
    await act(async () => listings.held[0]([worktree('fix-login')])) // the earlier listing, late
    expect([...host.querySelectorAll('[data-testid="worktree-item"]')].map((e) => e.getAttribute('data-name'))).toEqual(['fix-login', 'docs'])
    expect(host.querySelector('[data-testid="worktree-menu"]')!.textContent).toBe(' Worktree (2)')
  })
})
