// Typed wrappers for the agent's bound services: providers (keys stay in Go), the LLM relay, conversations and the
// project's settings.
import * as Agent from '../../wailsjs/go/app/Agent'
import * as Settings from '../../wailsjs/go/app/Settings'
import { app } from '../../wailsjs/go/models'
import { EventsOn } from '../../wailsjs/runtime/runtime'
import { EventLLM, type LLMStream } from './events'
import { wrap } from './wrap'
import type { Price } from '../llm/cost'
import type { SkillCatalog } from '../agent/skills'
import type { CommandBody, CommandInfo } from '../agent/commands'

export type ProviderKind = 'openai-compatible' | 'anthropic' | 'ollama'

export interface ProviderView {
  id: string
  name: string
  kind: ProviderKind
  base_url: string
  model: string
  has_key: boolean
  key_source?: string
  context_window: number // the user's setting for the chosen model; 0: automatic
  price?: Price // the user's price for the chosen model
  effort?: Effort // the reasoning effort set for the chosen model; absent: the provider's default
  text_only?: boolean // the user marked the chosen model as taking no images
}

// Effort is how hard a reasoning model thinks, sent as the AI SDK's reasoning setting (each provider in its own
// form: Anthropic's thinking budget, OpenAI's reasoning effort, Ollama's think); '' leaves it to the provider.
export type Effort = '' | 'none' | 'low' | 'medium' | 'high'
export const efforts: Effort[] = ['', 'none', 'low', 'medium', 'high']

export interface ProvidersView {
  providers: ProviderView[]
  active: string
}

export interface ProviderInput {
  id: string
  name: string
  kind: ProviderKind
  base_url: string
  model: string
  api_key: string
  clear_key: boolean
  context_window: number
  price: Price | null // the chosen model's price; null: none
  effort?: Effort // the chosen model's reasoning effort; '' or absent: the provider's default
  text_only?: boolean // the chosen model takes no images
}

export interface LLMRequest {
  provider: string
  url: string
  method: string
  headers: Record<string, string>
  body: string
}

export interface ConversationMeta {
  id: string
  title: string
  created: string
  updated: string
  cost?: number // US dollars of the requests whose cost is known, as saved; absent: none known
  cost_unknown?: number // requests whose cost is not known
}

export interface ProjectSettings {
  root: string
  allowlist: string[]
  default_allowlist: string[]
  network: boolean // every host
  // network_mode: 'off', 'on' (every host), or 'allowlist': only default_hosts and network_hosts, through Rooted's proxy.
  network_mode: 'off' | 'on' | 'allowlist'
  network_hosts: string[]
  default_hosts: string[]
  writable: string[]
  readable: string[]
  unix_sockets: string[] // socket files outside the project commands may connect to (docker's, say)
  env_allow: string[] // environment variables (NAME or PREFIX*) commands get besides the builds' own
  auto_approve_edits: boolean
  snapshot_keep: number
  snapshot_max_age_days: number
  // proxy: allow-list mode holds (the proxy's address inside the command's network namespace); network_note: why it cannot.
  sandbox: { active: boolean; kind: string; level: number; network: boolean; proxy?: string; network_note?: string; reason: string; readable: string[]; writable: string[] }
  file: string
  search_memory_mib: number
  search: { budget_mib: number; cached_mib: number; index_ready: boolean; index_files: number; index_disk_mib: number; changed: number }
}

// network_mode and network_hosts are sent only to change them: without network_mode, network true is 'on' and false
// keeps allow-list mode where it is in force.
export type ProjectSettingsInput = Pick<ProjectSettings, 'allowlist' | 'network' | 'readable' | 'unix_sockets' | 'env_allow' | 'auto_approve_edits' | 'snapshot_keep' | 'snapshot_max_age_days' | 'search_memory_mib'> &
  Partial<Pick<ProjectSettings, 'network_mode' | 'network_hosts'>>

export const providers = (): Promise<ProvidersView> => wrap(() => Agent.Providers() as Promise<ProvidersView>)
export const saveProvider = (p: ProviderInput): Promise<ProvidersView> => wrap(() => Agent.SaveProvider(app.ProviderInput.createFrom(p)) as Promise<ProvidersView>)
export const deleteProvider = (id: string): Promise<ProvidersView> => wrap(() => Agent.DeleteProvider(id) as Promise<ProvidersView>)
// ProbeResult is what Test connection found: the models a provider serves, or why it cannot be used, in words.
export interface ProbeResult {
  ok: boolean
  models: string[] | null
  status?: number // the HTTP status of an answer that was an error
  problem?: string // "Ollama isn't running at http://localhost:11434"
}

// testProvider tries a provider as the form describes it, before it is saved; nothing is saved.
export const testProvider = (p: ProviderInput): Promise<ProbeResult> => wrap(() => Agent.TestProvider(app.ProviderInput.createFrom(p)) as Promise<ProbeResult>)
// KeyStorage says where the providers' API keys are kept: the system keyring, or (with why not) a file.
export interface KeyStorage {
  keyring: boolean
  name: string // "GNOME Keyring (Secret Service)", or the keys file ("~/.config/rooted/keys.json")
  reason?: string // why no system keyring is used
  problem?: string // keys that could not be moved into the keyring at start, and why
}
export const keyStorage = (): Promise<KeyStorage> => wrap(() => Agent.KeyStorage() as Promise<KeyStorage>)
export const setActiveProvider = (id: string, model: string): Promise<ProvidersView> => wrap(() => Agent.SetActive(id, model) as Promise<ProvidersView>)

// relay sends a request through the backend; the response arrives as onLLMStream events carrying id.
export const relay = (id: string, req: LLMRequest): Promise<void> => wrap(() => Agent.Fetch(id, req))
export const cancelRelay = (id: string): Promise<boolean> => wrap(() => Agent.CancelFetch(id))
export function onLLMStream(f: (e: LLMStream) => void): () => void {
  return EventsOn(EventLLM, f)
}

export const conversations = (ws: string): Promise<ConversationMeta[]> => wrap(async () => (await Agent.Conversations(ws)) ?? [])
export const loadConversation = (ws: string, id: string): Promise<unknown> => wrap(async () => JSON.parse(await Agent.LoadConversation(ws, id)) as unknown)
// appendConversation saves events (see agent/conversation-events) to a conversation of the project at root: on
// disk when it resolves, none of them when it rejects.
export const appendConversation = (root: string, id: string, events: unknown[]): Promise<ConversationMeta> => wrap(() => Agent.AppendConversation(root, id, JSON.stringify(events)))
// conversationBlob reads a stored result a loaded conversation refers to ({"$blob": hash, "bytes": n}).
export const conversationBlob = (ws: string, id: string, hash: string): Promise<string> => wrap(() => Agent.ConversationBlob(ws, id, hash))
export const conversationBlobsContaining = (ws: string, id: string, text: string): Promise<string[]> => wrap(async () => (await Agent.ConversationBlobsContaining(ws, id, text)) ?? [])
// setConversationUnsaved tells the backend why the open conversation is not saved ('' once it is): closing the
// window asks first meanwhile.
export const setConversationUnsaved = (reason: string): Promise<void> => wrap(() => Agent.SetConversationUnsaved(reason))
export const exportConversation = (ws: string, id: string, format: 'markdown' | 'json'): Promise<string> => wrap(() => Agent.ExportConversation(ws, id, format))
export const saveConversationExport = (ws: string, id: string, format: 'markdown' | 'json'): Promise<string> => wrap(() => Agent.SaveConversationExport(ws, id, format))
export const renameConversation = (ws: string, id: string, title: string): Promise<ConversationMeta> => wrap(() => Agent.RenameConversation(ws, id, title))
export const deleteConversation = (ws: string, id: string): Promise<void> => wrap(() => Agent.DeleteConversation(ws, id))

export const projectSettings = (ws: string): Promise<ProjectSettings> => wrap(() => Settings.Project(ws) as Promise<ProjectSettings>)
export const saveProjectSettings = (ws: string, s: ProjectSettingsInput): Promise<ProjectSettings> => wrap(() => Settings.Save(ws, s) as Promise<ProjectSettings>)

export interface InstructionFile {
  path: string
  content: string
  size: number
  truncated: boolean
}

// Instructions are what goes into the system prompt besides Rooted's rules: the project's AGENTS.md files (or
// CLAUDE.md, copilot-instructions.md) and the user's own instructions.
export interface Instructions {
  files: InstructionFile[]
  user: string
  skills?: SkillCatalog // the project's and the user's skills, nearest first
  commands?: CommandInfo[] // the prompt files /name runs, nearest first
}

export const instructions = (ws: string): Promise<Instructions> => wrap(() => Settings.Instructions(ws) as Promise<Instructions>)
// RepoInfo is the project's git branch, short status and last commits, for the system prompt.
export interface RepoInfo {
  branch: string // "" when the project is not a git repository
  status: string[]
  more: number // status lines left out
  commits: string[]
}
export const repoInfo = (ws: string): Promise<RepoInfo> => wrap(() => Agent.RepoInfo(ws) as Promise<RepoInfo>)
// command reads what /name expands: the prompt file called name, else the skill.
export const command = (ws: string, name: string): Promise<CommandBody> => wrap(() => Settings.Command(ws, name) as Promise<CommandBody>)
export const saveUserInstructions = (ws: string, text: string): Promise<Instructions> => wrap(() => Settings.SaveUserInstructions(ws, text) as Promise<Instructions>)

// The step limit: how many model calls one request may take before the agent stops and offers Continue (settings.json,
// the same for every project; 100 until set).
export const loadStepLimit = (): Promise<number> => wrap(() => Settings.StepLimit())
export const saveStepLimit = (n: number): Promise<number> => wrap(() => Settings.SaveStepLimit(n))

// The search service web_search asks (a SearXNG instance's address, or a URL with {query}), the same for every
// project; '' while web_search is off. Saving one the backend cannot ask is refused with invalid_argument.
export const loadSearchEndpoint = (): Promise<string> => wrap(() => Settings.SearchEndpoint())
export const saveSearchEndpoint = (endpoint: string): Promise<string> => wrap(() => Settings.SaveSearchEndpoint(endpoint))
