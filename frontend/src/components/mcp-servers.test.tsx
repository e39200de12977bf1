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
