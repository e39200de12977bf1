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

// The backend keeps the rule list: an add or a removal changes it by one rule, and answers, when the test says, with
// the whole list as it then is.
function backend(rules: Rule[]) {
  const store = { rules }
  const held: (() => void)[] = []
  const change = (apply: (rs: Rule[]) => Rule[]) =>
    new Promise<Rule[]>((resolve) =>
      held.push(() => {
        store.rules = apply(store.rules)
        resolve(store.rules)
      }),
    )
  const same = (a: Rule, b: Rule) => a.action === b.action && a.tool === b.tool && a.command === b.command
  const bridge = {
    workspace: 'w',
    permissionRules: () => Promise.resolve(store.rules),
    addPermissionRule: (r: Rule) => change((rs) => [...rs, r]),
    removePermissionRule: (r: Rule) => change((rs) => rs.filter((x) => !same(x, r))),
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
  it('removes two rules quickly, both gone, and keeps a rule an approval card added while the list was shown', async () => {
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
    // An approval card's Always for curl lands in the backend; the screen still shows the list it read.
    store.rules = [...store.rules, allow('curl')]
    // Two removals before the first has answered, each answered when the test says.
    remove('go test')
    remove('npm run build')
    for (;;) {
      await act(async () => undefined) // let a change waiting on the one before reach the backend
      if (!held.length) break
      await act(async () => held.shift()!())
    }
    expect([...host.querySelectorAll('[data-testid="rule"]')].map((e) => e.getAttribute('data-command'))).toEqual(['make', 'curl'])
    expect(store.rules.map((r) => r.command)).toEqual(['make', 'curl'])
  })
})
