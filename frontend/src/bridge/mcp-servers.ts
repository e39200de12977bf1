// Typed wrappers for the open project's MCP servers: the servers the user's settings name, whose tools the agent
// uses, each started in Rooted's sandbox.
import * as MCPServers from '../../wailsjs/go/app/MCPServers'
import { EventsOn } from '../../wailsjs/runtime/runtime'
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
  stderr?: string // the last of its error output
  sandbox?: { active: boolean; readable?: string[]; writable?: string[]; network: boolean; reason?: string }
  data_dir?: string
}

export const mcpServers = (): Promise<MCPServerStatus[]> => wrap(async () => ((await MCPServers.Status()) ?? []) as MCPServerStatus[])

// restartMCPServers ends the project's servers and starts them again with the settings as they are now.
export const restartMCPServers = (): Promise<MCPServerStatus[]> => wrap(async () => ((await MCPServers.Restart()) ?? []) as MCPServerStatus[])

// onMCPServersChanged hears when a server of the open project changes state or tools; it returns the unsubscribe
// function.
export function onMCPServersChanged(f: (root: string) => void): () => void {
  return EventsOn(EventMCPServers, f)
}

// mcpServersConfig is the project's mcp_servers entry as JSON text ('{}' for none).
export const mcpServersConfig = (): Promise<string> => wrap(() => MCPServers.Config())

// saveMCPServersConfig replaces the project's mcp_servers with text, checked by the backend first (a mistake is
// invalid_argument and changes nothing), and starts the servers again with it.
export const saveMCPServersConfig = (text: string): Promise<MCPServerStatus[]> => wrap(async () => ((await MCPServers.SaveConfig(text)) ?? []) as MCPServerStatus[])
