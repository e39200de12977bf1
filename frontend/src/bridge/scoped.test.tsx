// @vitest-environment jsdom
import { act, useEffect } from 'react'
import { createRoot } from 'react-dom/client'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { ProjectScopeContext, useBridge, type ProjectScope } from '../stores/project-scope'

// The Wails bindings, each recording the workspace id it was called with (a project-scoped binding takes it
// first) and answering with something its wrapper can parse.
const wails = vi.hoisted(() => {
  const calls: { binding: string; ws: unknown }[] = []
  const listeners = new Map<string, Set<(p: unknown) => void>>()
  const answer = (binding: string): unknown => {
    if (binding === 'Tools.CallIn' || binding === 'Tools.UserCall' || binding === 'Tools.RunIn' || binding.startsWith('Agent.LoadConversation')) return '{}'
    if (binding === 'Tools.Specs') return []
    if (binding === 'Permissions.Check') return { action: 'ask' }
    if (binding === 'Diagnostics.After') return { checks: [], problems: [], error: '' }
    return null
  }
  const mod = (name: string, fns: string[]) =>
    Object.fromEntries(
      fns.map((f) => [
        f,
        (...args: unknown[]) => {
          calls.push({ binding: `${name}.${f}`, ws: args[0] })
          return Promise.resolve(answer(`${name}.${f}`))
        },
      ]),
    )
  return { calls, listeners, mod }
})
vi.mock('../../wailsjs/go/app/Tools', () => wails.mod('Tools', ['Specs', 'CallIn', 'UserCall', 'RunIn', 'Cancel', 'Text', 'AllowHost', 'AnswerHost']))
vi.mock('../../wailsjs/go/app/Projects', () => wails.mod('Projects', ['Open', 'Choose', 'Current', 'List', 'Close', 'Focus', 'Recent', 'Forget', 'Watch']))
vi.mock('../../wailsjs/go/app/Agent', () =>
  wails.mod('Agent', ['Conversations', 'LoadConversation', 'ConversationBlob', 'ConversationBlobsContaining', 'ExportConversation', 'SaveConversationExport', 'RenameConversation', 'DeleteConversation', 'RepoInfo']),
)
vi.mock('../../wailsjs/go/app/Settings', () => wails.mod('Settings', ['Project', 'Save', 'Instructions', 'SaveUserInstructions', 'Command']))
vi.mock('../../wailsjs/go/app/Permissions', () => wails.mod('Permissions', ['Check', 'Rules', 'AddRule', 'RemoveRule']))
vi.mock('../../wailsjs/go/app/Jobs', () => wails.mod('Jobs', ['List', 'Output', 'Kill', 'BackgroundAfter', 'SetBackgroundAfter']))
vi.mock('../../wailsjs/go/app/Diagnostics', () => wails.mod('Diagnostics', ['After', 'Mode', 'SetMode']))
vi.mock('../../wailsjs/go/app/MCPServers', () => wails.mod('MCPServers', ['Status', 'Settled', 'Restart', 'Config', 'SaveConfig', 'SignIn', 'SignOut', 'AllowHost', 'RemoveHost']))
vi.mock('../../wailsjs/runtime/runtime', () => ({
  BrowserOpenURL: () => undefined,
  EventsOn: (name: string, f: (p: unknown) => void) => {
    const set = wails.listeners.get(name) ?? new Set()
    set.add(f)
    wails.listeners.set(name, set)
    return () => set.delete(f)
  },
}))

const { bridgeFor } = await import('./scoped')
const emit = (name: string, payload: unknown) => wails.listeners.get(name)?.forEach((f) => f(payload))

;(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true

afterEach(() => {
  wails.calls.length = 0
  wails.listeners.clear()
})

// Every project-scoped call, with arguments its wrapper accepts.
const everyCall: [string, unknown[]][] = [
  ['callTool', ['read_file', { path: 'a' }]],
  ['userCall', ['read_file', { path: 'a' }]],
  ['runTool', ['exec_shell', { command: 'true' }, () => undefined]],
  ['toolSpecs', []],
  ['allowHost', ['conv-1', 'pypi.example.org']],
  ['answerHost', ['call-1', 'pypi.example.org', true]],
  ['watchStatus', []],
  ['conversations', []],
  ['loadConversation', ['c']],
  ['conversationBlob', ['c', 'h']],
  ['conversationBlobsContaining', ['c', 'x']],
  ['exportConversation', ['c', 'json']],
  ['saveConversationExport', ['c', 'json']],
  ['renameConversation', ['c', 't']],
  ['deleteConversation', ['c']],
  ['projectSettings', []],
  ['saveProjectSettings', [{}]],
  ['instructions', []],
  ['saveUserInstructions', ['be brief']],
  ['repoInfo', []],
  ['command', ['review']],
  ['checkCall', ['read_file', { path: 'a' }]],
  ['permissionRules', []],
  ['addPermissionRule', [{ action: 'allow', tool: 'exec_shell', command: 'go test' }]],
  ['removePermissionRule', [{ action: 'allow', tool: 'exec_shell', command: 'go test' }]],
  ['listJobs', []],
  ['jobOutput', ['j', 0]],
  ['killJob', ['j']],
  ['backgroundAfter', []],
  ['setBackgroundAfter', [30]],
  ['diagnose', [['a.go']]],
  ['diagnosticsMode', []],
  ['setDiagnosticsMode', ['off']],
  ['mcpServers', []],
  ['settledMCPServers', []],
  ['restartMCPServers', []],
  ['mcpServersConfig', []],
  ['saveMCPServersConfig', ['{}']],
  ['signInMCPServer', ['docs']],
  ['signOutMCPServer', ['docs']],
  ['allowMCPServerHost', ['docs', 'api.example.com']],
  ['removeMCPServerHost', ['docs', 'api.example.com']],
]

describe('bridgeFor', () => {
  it('sends every project-scoped call to its own project, whichever bridge was made last', async () => {
    const a = bridgeFor('alpha-1')
    bridgeFor('beta-2') // the project shown now: it must not matter to alpha's calls
    const names = Object.keys(a).filter((k) => k !== 'workspace' && !k.startsWith('on'))
    expect(names.sort()).toEqual(everyCall.map(([n]) => n).sort()) // the table covers the whole bridge
    for (const [name, args] of everyCall) {
      wails.calls.length = 0
      const fn = (a as unknown as Record<string, (...a: unknown[]) => unknown>)[name]
      const r = fn(...args)
      await ((r as { result?: Promise<unknown> }).result ?? r)
      expect(wails.calls, name).toHaveLength(1)
      expect(wails.calls[0].ws, `${name} (${wails.calls[0].binding})`).toBe('alpha-1')
    }
  })

  it('hears only its own project’s events', () => {
    const heard: string[] = []
    const a = bridgeFor('alpha-1')
    const offs = [
      a.onFsChanges((c) => heard.push(`fs ${c.workspace}`)),
      a.onJobsChanged((c) => heard.push(`jobs ${c.workspace}`)),
      a.onMCPServersChanged((c) => heard.push(`mcp ${c.workspace}`)),
    ]
    for (const ws of ['beta-2', 'alpha-1']) {
      emit('fs:changes', { workspace: ws, root: '/p', changes: [] })
      emit('jobs:changed', { workspace: ws, root: '/p', ids: [] })
      emit('mcp:servers', { workspace: ws, root: '/p' })
    }
    offs.forEach((off) => off())
    expect(heard).toEqual(['fs alpha-1', 'jobs alpha-1', 'mcp alpha-1'])
  })

  it('refuses to make a bridge for no project', () => {
    expect(() => bridgeFor('')).toThrow(/no workspace/)
  })
})

describe('a project view’s calls', () => {
  it('go to its own project after another is shown', async () => {
    // Two open projects' views, as the window mounts them; each keeps a way to call later (its agent's next
    // tool call, say), made when it was shown.
    const later: Record<string, () => Promise<unknown>> = {}
    function Agent({ name }: { name: string }) {
      const { callTool } = useBridge()
      useEffect(() => {
        later[name] = () => callTool('write_file', { path: 'a.txt', content: name })
      }, [callTool, name])
      return null
    }
    const scopes = (shown: string): Record<string, ProjectScope> => ({
      alpha: { bridge: bridges.alpha, shown: shown === 'alpha', report: () => undefined, unsaved: () => undefined },
      beta: { bridge: bridges.beta, shown: shown === 'beta', report: () => undefined, unsaved: () => undefined },
    })
    const bridges = { alpha: bridgeFor('alpha-1'), beta: bridgeFor('beta-2') }
    const render = (s: Record<string, ProjectScope>) => (
      <>
        {Object.entries(s).map(([name, scope]) => (
          <ProjectScopeContext.Provider key={name} value={scope}>
            <Agent name={name} />
          </ProjectScopeContext.Provider>
        ))}
      </>
    )
    const root = createRoot(document.createElement('div'))
    act(() => root.render(render(scopes('alpha'))))
    act(() => root.render(render(scopes('beta')))) // the user switches to beta while alpha's turn runs
    await later.alpha()
    await later.beta()
    expect(wails.calls.map((c) => [c.binding, c.ws])).toEqual([
      ['Tools.CallIn', 'alpha-1'],
      ['Tools.CallIn', 'beta-2'],
    ])
    act(() => root.unmount())
  })
})
