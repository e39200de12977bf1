// A project's bridge: every project-scoped call with the project's workspace id bound in. The window keeps every
// open project's view mounted (a hidden one's agent works on), so no call may read "the project shown" from a
// global when it is made: the view gets its project's bridge when it mounts and every call it, its agent and its
// stores make carries that id, whichever project the window shows by then.
import * as agent from './agent'
import * as diagnostics from './diagnostics'
import * as core from './core'
import * as mcp from './mcp-servers'
import * as permissions from './permissions'
import type { ToolOutput } from './events'
import type { ToolResults } from './types'

// Bound is f without its leading workspace id.
type Bound<F> = F extends (ws: string, ...args: infer A) => infer R ? (...args: A) => R : never

// ProjectBridge is the project-scoped half of the bridge, for one workspace.
export interface ProjectBridge {
  workspace: string
  callTool: {
    <N extends keyof ToolResults>(name: N, args: Record<string, unknown>, conversation?: string): Promise<ToolResults[N]>
    (name: string, args: Record<string, unknown>, conversation?: string): Promise<unknown>
  }
  userCall<N extends 'read_file' | 'write_file' | 'find_files' | 'list_directory'>(name: N, args: Record<string, unknown>): Promise<ToolResults[N]>
  runTool<N extends keyof ToolResults>(name: N, args: Record<string, unknown>, onOutput: (o: ToolOutput) => void, conversation?: string): core.RunningCall<ToolResults[N]>
  toolSpecs: Bound<typeof core.toolSpecs>
  allowHost: Bound<typeof core.allowHost>
  answerHost: Bound<typeof core.answerHost>
  onFsChanges: Bound<typeof core.onFsChanges>
  watchStatus: Bound<typeof core.watchStatus>
  conversations: Bound<typeof agent.conversations>
  loadConversation: Bound<typeof agent.loadConversation>
  conversationBlob: Bound<typeof agent.conversationBlob>
  conversationBlobsContaining: Bound<typeof agent.conversationBlobsContaining>
  exportConversation: Bound<typeof agent.exportConversation>
  saveConversationExport: Bound<typeof agent.saveConversationExport>
  renameConversation: Bound<typeof agent.renameConversation>
  deleteConversation: Bound<typeof agent.deleteConversation>
  projectSettings: Bound<typeof agent.projectSettings>
  saveProjectSettings: Bound<typeof agent.saveProjectSettings>
  instructions: Bound<typeof agent.instructions>
  saveUserInstructions: Bound<typeof agent.saveUserInstructions>
  repoInfo: Bound<typeof agent.repoInfo>
  command: Bound<typeof agent.command>
  checkCall: Bound<typeof permissions.checkCall>
  permissionRules: Bound<typeof permissions.permissionRules>
  addPermissionRule: Bound<typeof permissions.addPermissionRule>
  removePermissionRule: Bound<typeof permissions.removePermissionRule>
  listJobs: Bound<typeof permissions.listJobs>
  jobOutput: Bound<typeof permissions.jobOutput>
  killJob: Bound<typeof permissions.killJob>
  onJobsChanged: Bound<typeof permissions.onJobsChanged>
  backgroundAfter: Bound<typeof permissions.backgroundAfter>
  setBackgroundAfter: Bound<typeof permissions.setBackgroundAfter>
  diagnose: Bound<typeof diagnostics.diagnose>
  diagnosticsMode: Bound<typeof diagnostics.diagnosticsMode>
  setDiagnosticsMode: Bound<typeof diagnostics.setDiagnosticsMode>
  mcpServers: Bound<typeof mcp.mcpServers>
  settledMCPServers: Bound<typeof mcp.settledMCPServers>
  restartMCPServers: Bound<typeof mcp.restartMCPServers>
  onMCPServersChanged: Bound<typeof mcp.onMCPServersChanged>
  mcpServersConfig: Bound<typeof mcp.mcpServersConfig>
  saveMCPServersConfig: Bound<typeof mcp.saveMCPServersConfig>
  signInMCPServer: Bound<typeof mcp.signInMCPServer>
  signOutMCPServer: Bound<typeof mcp.signOutMCPServer>
  allowMCPServerHost: Bound<typeof mcp.allowMCPServerHost>
  removeMCPServerHost: Bound<typeof mcp.removeMCPServerHost>
}

// bridgeFor is project ws's bridge. An empty id is refused: a call with no project would reach none (no_project)
// at best, so it is a programming error caught where the bridge is made.
export function bridgeFor(ws: string): ProjectBridge {
  if (!ws) throw new Error('bridgeFor: no workspace id')
  const bind =
    <A extends unknown[], R>(f: (ws: string, ...args: A) => R) =>
    (...args: A): R =>
      f(ws, ...args)
  return {
    workspace: ws,
    callTool: ((name: string, args: Record<string, unknown>, conversation?: string) => core.callTool(ws, name, args, conversation)) as ProjectBridge['callTool'],
    userCall: (name, args) => core.userCall(ws, name, args),
    runTool: (name, args, onOutput, conversation) => core.runTool(ws, name, args, onOutput, conversation),
    toolSpecs: bind(core.toolSpecs),
    allowHost: bind(core.allowHost),
    answerHost: bind(core.answerHost),
    onFsChanges: bind(core.onFsChanges),
    watchStatus: bind(core.watchStatus),
    conversations: bind(agent.conversations),
    loadConversation: bind(agent.loadConversation),
    conversationBlob: bind(agent.conversationBlob),
    conversationBlobsContaining: bind(agent.conversationBlobsContaining),
    exportConversation: bind(agent.exportConversation),
    saveConversationExport: bind(agent.saveConversationExport),
    renameConversation: bind(agent.renameConversation),
    deleteConversation: bind(agent.deleteConversation),
    projectSettings: bind(agent.projectSettings),
    saveProjectSettings: bind(agent.saveProjectSettings),
    instructions: bind(agent.instructions),
    saveUserInstructions: bind(agent.saveUserInstructions),
    repoInfo: bind(agent.repoInfo),
    command: bind(agent.command),
    checkCall: bind(permissions.checkCall),
    permissionRules: bind(permissions.permissionRules),
    addPermissionRule: bind(permissions.addPermissionRule),
    removePermissionRule: bind(permissions.removePermissionRule),
    listJobs: bind(permissions.listJobs),
    jobOutput: bind(permissions.jobOutput),
    killJob: bind(permissions.killJob),
    onJobsChanged: bind(permissions.onJobsChanged),
    backgroundAfter: bind(permissions.backgroundAfter),
    setBackgroundAfter: bind(permissions.setBackgroundAfter),
    diagnose: bind(diagnostics.diagnose),
    diagnosticsMode: bind(diagnostics.diagnosticsMode),
    setDiagnosticsMode: bind(diagnostics.setDiagnosticsMode),
    mcpServers: bind(mcp.mcpServers),
    settledMCPServers: bind(mcp.settledMCPServers),
    restartMCPServers: bind(mcp.restartMCPServers),
    onMCPServersChanged: bind(mcp.onMCPServersChanged),
    mcpServersConfig: bind(mcp.mcpServersConfig),
    saveMCPServersConfig: bind(mcp.saveMCPServersConfig),
    signInMCPServer: bind(mcp.signInMCPServer),
    signOutMCPServer: bind(mcp.signOutMCPServer),
    allowMCPServerHost: bind(mcp.allowMCPServerHost),
    removeMCPServerHost: bind(mcp.removeMCPServerHost),
  }
}
