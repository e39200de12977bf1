// Typed wrappers for the shown project's MCP servers: the servers the user's settings name, whose tools the agent
// uses, each started in Rooted's sandbox.
import * as MCPServers from '../../wailsjs/go/app/MCPServers'
import { EventsOn } from '../../wailsjs/runtime/runtime'
import type { KeyStorage } from './agent'
import { EventMCPServers } from './events'
import { wrap } from './wrap'

// MCPServerStatus is one server's state (backend/mcpclient Status).
export interface MCPServerStatus {
  name: string
  state: 'starting' | 'connected' | 'failed' | 'stopped' | 'disabled'
  transport: 'stdio' | 'http'
  protocol?: string
  tools?: string[]
  error?: string // why it failed, and what to grant it when that is the likely cause
  auth?: 'sign_in' | 'signed_in' // an HTTP server that wants the user to sign in (OAuth), or one signed in
  stderr?: string // the last of its error output
  sandbox?: { active: boolean; readable?: string[]; writable?: string[]; network: boolean; reason?: string }
  data_dir?: string
  // in allow-list mode, the hosts its proxy refused (the most recent first; those it may reach now left out)
  refused_hosts?: MCPRefusedHost[]
  // the hosts allowed for this server alone, besides the project's (its proxy reaches them, the project's commands never)
  allowed_hosts?: string[]
}

// MCPRefusedHost is a host a server's proxy refused: how many connections, the last when (RFC 3339), why; allowable
// when allowing it for the server lets the server reach it (not denied by a rule, not a private address).
export interface MCPRefusedHost {
  host: string
  count: number
  last: string
  reason: string
  allowable: boolean
}

export const mcpServers = (ws: string): Promise<MCPServerStatus[]> => wrap(async () => ((await MCPServers.Status(ws)) ?? []) as MCPServerStatus[])

// settledMCPServers waits until none of the project's servers is still starting (at most 10 s) and answers their
// state: a request waits for it, so one sent just after the project opened or its servers restarted has their tools.
export const settledMCPServers = (ws: string): Promise<MCPServerStatus[]> => wrap(async () => ((await MCPServers.Settled(ws)) ?? []) as MCPServerStatus[])

// restartMCPServers ends the project's servers and starts them again with the settings as they are now.
export const restartMCPServers = (ws: string): Promise<MCPServerStatus[]> => wrap(async () => ((await MCPServers.Restart(ws)) ?? []) as MCPServerStatus[])

// MCPServersChanged names the project whose servers changed.
export interface MCPServersChanged {
  workspace: string
  root: string
}

// onMCPServersChanged hears when a server of the shown project changes state or tools (another project's changes
// are not for this view); it returns the unsubscribe function.
export function onMCPServersChanged(ws: string, f: (e: MCPServersChanged) => void): () => void {
  return EventsOn(EventMCPServers, (e: MCPServersChanged) => {
    if (e.workspace === ws) f(e)
  })
}

// mcpServersConfig is the project's mcp_servers entry as JSON text ('{}' for none).
export const mcpServersConfig = (ws: string): Promise<string> => wrap(() => MCPServers.Config(ws))

// saveMCPServersConfig replaces the project's mcp_servers with text, checked by the backend first (a mistake is
// invalid_argument and changes nothing), and starts the servers again with it.
export const saveMCPServersConfig = (ws: string, text: string): Promise<MCPServerStatus[]> => wrap(async () => ((await MCPServers.SaveConfig(ws, text)) ?? []) as MCPServerStatus[])

// signInMCPServer signs the user in to the project's HTTP server name with OAuth in the system browser; it settles
// when the browser comes back (or the sign-in times out), with the servers' state.
export const signInMCPServer = (ws: string, name: string): Promise<MCPServerStatus[]> => wrap(async () => ((await MCPServers.SignIn(ws, name)) ?? []) as MCPServerStatus[])

// signOutMCPServer forgets the user's sign-in for the project's HTTP server name.
export const signOutMCPServer = (ws: string, name: string): Promise<MCPServerStatus[]> => wrap(async () => ((await MCPServers.SignOut(ws, name)) ?? []) as MCPServerStatus[])

// allowMCPServerHost lets the project's server name reach host besides the project's hosts (its proxy alone, from its
// next connection; the project's commands and other servers are still refused it); a host that is not one is
// invalid_argument, a server the project does not name not_found. It answers the servers' state.
export const allowMCPServerHost = (ws: string, name: string, host: string): Promise<MCPServerStatus[]> =>
  wrap(async () => ((await MCPServers.AllowHost(ws, name, host)) ?? []) as MCPServerStatus[])

// removeMCPServerHost takes host off the hosts allowed for the project's server name, from its next connection.
export const removeMCPServerHost = (ws: string, name: string, host: string): Promise<MCPServerStatus[]> =>
  wrap(async () => ((await MCPServers.RemoveHost(ws, name, host)) ?? []) as MCPServerStatus[])

// mcpSecretNames lists the secrets stored for servers' entries to name as ${keyring:NAME} (names only, never values).
export const mcpSecretNames = (): Promise<string[]> => wrap(async () => (await MCPServers.SecretNames()) ?? [])

// setMCPSecret stores a secret for servers' entries (an empty value removes it); it answers the names stored.
export const setMCPSecret = (name: string, value: string): Promise<string[]> => wrap(async () => (await MCPServers.SetSecret(name, value)) ?? [])

// mcpSecretStorage says where the servers' secrets and sign-ins are kept: the system keyring, or (with why not) a
// file; in the API keys' words (KeyStorage).
export const mcpSecretStorage = (): Promise<KeyStorage> => wrap(() => MCPServers.SecretStorage() as Promise<KeyStorage>)
