// @vitest-environment jsdom
import { act } from 'react'
import { createRoot } from 'react-dom/client'
import { describe, expect, it, vi } from 'vitest'
import type { MCPServerStatus, ProjectBridge } from '../bridge'
import { ProjectScopeContext } from '../stores/project-scope'

;(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true

vi.mock('../../wailsjs/go/app/MCPServers', () => ({
  SecretNames: async () => ['docs-token'],
  SetSecret: async () => ['docs-token'],
  SecretStorage: async () => ({ keyring: false, name: '~/.local/share/rooted/mcp-secrets.json', reason: 'no session bus: DBUS_SESSION_BUS_ADDRESS is not set' }),
}))

const { MCPServers } = await import('./mcp-servers')

const flush = () => act(async () => await new Promise((r) => setTimeout(r, 0)))

// render shows the servers' settings over bridge, as the project's window does, once its first answers are in.
async function render(bridge: ProjectBridge) {
  const div = document.createElement('div')
  const root = createRoot(div)
  act(() =>
    root.render(
      <ProjectScopeContext.Provider value={{ bridge, shown: true, report: () => undefined, unsaved: () => undefined }}>
        <MCPServers />
      </ProjectScopeContext.Provider>,
    ),
  )
  await flush()
  return { div, root }
}

// A server that asks for OAuth offers Sign in; the click signs in to that server (the backend opens the browser) and
// the list shows what the backend answers, Sign out for a server signed in.
describe('MCPServers', () => {
  it('offers Sign in to a server that asks for it, and signs in to that one', async () => {
    const needs: MCPServerStatus = { name: 'docs', state: 'failed', transport: 'http', auth: 'sign_in', error: '"docs" it needs you to sign in' }
    const signedIn: MCPServerStatus = { name: 'docs', state: 'connected', transport: 'http', auth: 'signed_in', tools: ['mcp__docs__search'] }
    const signIn = vi.fn(async (_name: string) => [signedIn])
    const bridge = {
      mcpServers: async () => [needs, { name: 'local', state: 'connected', transport: 'stdio', tools: [] }],
      mcpServersConfig: async () => '{}',
      onMCPServersChanged: () => () => undefined,
      restartMCPServers: async () => [],
      saveMCPServersConfig: async () => [],
      signInMCPServer: signIn,
      signOutMCPServer: async () => [],
    } as unknown as ProjectBridge
    const { div, root } = await render(bridge)
    const buttons = div.querySelectorAll<HTMLButtonElement>('[data-testid="mcp-server-sign-in"]')
    expect(buttons).toHaveLength(1) // the program has nothing to sign in to
    expect(buttons[0].textContent).toBe('Sign in')
    expect(div.textContent).toContain('${keyring:docs-token}')
    // The secrets say where they are kept, in the API keys' words.
    expect(div.querySelector('[data-testid="mcp-secret-storage"]')?.textContent).toBe(
      'Secrets and sign-ins: Stored in ~/.local/share/rooted/mcp-secrets.json (readable only by you) — no system keyring found: no session bus: DBUS_SESSION_BUS_ADDRESS is not set',
    )
    await act(async () => buttons[0].click())
    await flush()
    expect(signIn).toHaveBeenCalledWith('docs')
    expect(div.querySelector('[data-testid="mcp-server-sign-in"]')?.textContent).toBe('Sign out')
    expect(div.querySelector('[data-testid="mcp-server-docs"]')?.textContent).toContain('connected, 1 tool')
    act(() => root.unmount())
  })
})

// The hosts a server's proxy refused are listed under it with how often and when last; one a grant can change has
// Allow HOST for SERVER, which allows it for that server alone (never a project-wide network rule, which would open
// it to the project's commands too) and shows the status as the backend then answers: the host gone from the
// refused, listed among the server's own hosts with Remove, which takes it back. A host no grant can change (a
// private address) says why, with no button.
describe('MCPServers refused hosts', () => {
  it('allows a refused host for that server alone, and removes it', async () => {
    const last = '2026-11-27T00:20:00Z'
    const api = { host: 'api.example.com', count: 3, last, reason: "api.example.com is not on this project's list of hosts", allowable: true }
    const inward = { host: 'inward.example.com', count: 1, last, reason: 'inward.example.com resolves to 10.9.8.7, a private address, which commands never reach through the proxy', allowable: false }
    const docs: MCPServerStatus = { name: 'docs', state: 'connected', transport: 'stdio', tools: ['mcp__docs__search'], refused_hosts: [api, inward] }
    const calc: MCPServerStatus = { name: 'calc', state: 'connected', transport: 'stdio', tools: [], refused_hosts: [api] }
    const calls: string[] = []
    const addPermissionRule = vi.fn(async () => [])
    const bridge = {
      mcpServers: async () => [calc, docs],
      mcpServersConfig: async () => '{}',
      onMCPServersChanged: () => () => undefined,
      addPermissionRule,
      allowMCPServerHost: async (name: string, host: string) => {
        calls.push(`allow ${name} ${host}`)
        return [calc, { ...docs, refused_hosts: [inward], allowed_hosts: [host] }]
      },
      removeMCPServerHost: async (name: string, host: string) => {
        calls.push(`remove ${name} ${host}`)
        return [calc, { ...docs, refused_hosts: [inward] }]
      },
    } as unknown as ProjectBridge
    const { div, root } = await render(bridge)
    const under = (server: string, sel: string) => div.querySelector(`[data-testid="mcp-server-${server}"] ${sel}`)
    const host = (server: string, h: string) => under(server, `[data-testid="mcp-refused-host"][data-host="${h}"]`)
    expect(host('docs', 'api.example.com')?.textContent).toContain('3 times, last at')
    expect(host('docs', 'inward.example.com')?.textContent).toContain('once, last at')
    expect(host('docs', 'inward.example.com')?.querySelector('[data-testid="mcp-allow-host"]')).toBeNull()
    expect(host('docs', 'inward.example.com')?.querySelector('[data-testid="mcp-refused-why"]')?.textContent).toContain('private address')
    expect(host('calc', 'api.example.com')?.querySelector('[data-testid="mcp-allow-host"]')?.textContent).toBe('Allow api.example.com for calc')
    const allow = host('docs', 'api.example.com')?.querySelector('[data-testid="mcp-allow-host"]') as HTMLButtonElement
    expect(allow.textContent).toBe('Allow api.example.com for docs')
    await act(async () => allow.click())
    await flush()
    expect(calls).toEqual(['allow docs api.example.com'])
    expect(addPermissionRule).not.toHaveBeenCalled()
    expect(host('docs', 'api.example.com')).toBeNull()
    expect(host('docs', 'inward.example.com')).not.toBeNull()
    expect(host('calc', 'api.example.com')).not.toBeNull() // the other server is still refused it
    expect(under('calc', '[data-testid="mcp-allowed-host"]')).toBeNull()
    expect(under('docs', '[data-testid="mcp-host-allowed"]')?.textContent).toBe('api.example.com is allowed for docs alone: it reaches it at its next connection')
    const listed = under('docs', '[data-testid="mcp-allowed-host"][data-host="api.example.com"]')
    expect(listed?.textContent).toContain('api.example.com')
    await act(async () => (listed?.querySelector('[data-testid="mcp-remove-host"]') as HTMLButtonElement).click())
    await flush()
    expect(calls).toEqual(['allow docs api.example.com', 'remove docs api.example.com'])
    expect(under('docs', '[data-testid="mcp-allowed-host"]')).toBeNull()
    expect(under('docs', '[data-testid="mcp-host-allowed"]')).toBeNull()
    act(() => root.unmount())
  })

  it('shows why a grant was refused', async () => {
    const docs: MCPServerStatus = {
      name: 'docs',
      state: 'connected',
      transport: 'stdio',
      refused_hosts: [{ host: 'api.example.com', count: 1, last: '2026-11-27T00:20:00Z', reason: 'not on the list', allowable: true }],
    }
    const bridge = {
      mcpServers: async () => [docs],
      mcpServersConfig: async () => '{}',
      onMCPServersChanged: () => () => undefined,
      allowMCPServerHost: async () => {
        throw new Error(JSON.stringify({ error: { code: 'not_found', field: 'server', message: 'this project\'s settings name no MCP server "docs"' } }))
      },
    } as unknown as ProjectBridge
    const { div, root } = await render(bridge)
    await act(async () => (div.querySelector('[data-testid="mcp-allow-host"]') as HTMLButtonElement).click())
    await flush()
    expect(div.textContent).toContain('no MCP server "docs"')
    expect(div.querySelector('[data-testid="mcp-refused-host"][data-host="api.example.com"]')).not.toBeNull()
    act(() => root.unmount())
  })
})
