// @vitest-environment jsdom
import { act } from 'react'
import { createRoot, type Root } from 'react-dom/client'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { ProjectBridge, Rule } from '../bridge'
import { ProjectScopeContext } from '../stores/project-scope'
import { PermissionRules } from './permission-rules'

vi.mock('../bridge', () => ({ toBackendError: (e: unknown) => ({ code: 'internal', message: String(e) }) }))

;(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true

const allow = (command: string): Rule => ({ action: 'allow', tool: 'exec_shell', command })

// The backend keeps the rule list whole: each save replaces it with the list sent, and answers, when the test says,
// with the list as saved.
function backend(rules: Rule[]) {
  const store = { rules }
  const held: { sent: Rule[]; answer: () => void }[] = []
  const bridge = {
    workspace: 'w',
    permissionRules: () => Promise.resolve(store.rules),
    setPermissionRules: (rs: Rule[]) =>
      new Promise<Rule[]>((resolve) =>
        held.push({
          sent: rs,
          answer: () => {
            store.rules = rs
            resolve(rs)
          },
        }),
      ),
    backgroundAfter: () => Promise.resolve(0),
    setBackgroundAfter: (s: number) => Promise.resolve(s),
    diagnosticsMode: () => Promise.resolve(''),
    setDiagnosticsMode: (m: string) => Promise.resolve(m),
  } as unknown as ProjectBridge
  return { store, held, bridge }
}

let root: Root | null = null
afterEach(() => {
  act(() => root?.unmount())
  root = null
})

describe('PermissionRules', () => {
  it('keeps both of two rules removed quickly removed, the later save answering first', async () => {
    const { store, held, bridge } = backend([allow('go test'), allow('npm run build'), allow('make')])
    const host = document.createElement('div')
    root = createRoot(host)
    await act(async () =>
      root!.render(
        <ProjectScopeContext.Provider value={{ bridge, shown: true, report: () => undefined, unsaved: () => undefined }}>
          <PermissionRules />
        </ProjectScopeContext.Provider>,
      ),
    )
    const remove = (command: string) => act(() => host.querySelector<HTMLButtonElement>(`[data-testid="rule"][data-command="${command}"] [data-testid="rule-remove"]`)!.click())
    // Two removals before the first has answered; then the backend answers the newest save it holds first.
    remove('go test')
    remove('npm run build')
    for (;;) {
      await act(async () => undefined) // let a save waiting on the one before reach the backend
      if (!held.length) break
      await act(async () => held.pop()!.answer())
    }
    expect([...host.querySelectorAll('[data-testid="rule"]')].map((e) => e.getAttribute('data-command'))).toEqual(['make'])
    expect(store.rules.map((r) => r.command)).toEqual(['make'])
  })
})
