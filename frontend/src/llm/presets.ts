import type { ProviderKind, ProviderView } from '../bridge'

// A preset is a provider a newcomer picks by name: its protocol, its address, whether it needs a key, and which of
// its models to start with.
export interface Preset {
  id: string
  name: string
  kind: ProviderKind
  baseURL: string // '' for "any OpenAI-compatible server": the user types it
  key: 'required' | 'optional' | 'none'
  keyHint?: string // where the key comes from
  prefer: string[] // model id prefixes to start with, best first
}

export const presets: Preset[] = [
  { id: 'anthropic', name: 'Anthropic', kind: 'anthropic', baseURL: 'https://api.anthropic.com/v1', key: 'required', keyHint: 'console.anthropic.com → API keys', prefer: ['claude-sonnet-4', 'claude-sonnet', 'claude'] },
  { id: 'openai', name: 'OpenAI', kind: 'openai-compatible', baseURL: 'https://api.openai.com/v1', key: 'required', keyHint: 'platform.openai.com → API keys', prefer: ['gpt-5', 'gpt-4.1', 'gpt-4o', 'gpt'] },
  { id: 'openrouter', name: 'OpenRouter', kind: 'openai-compatible', baseURL: 'https://openrouter.ai/api/v1', key: 'required', keyHint: 'openrouter.ai → Keys', prefer: ['anthropic/claude-sonnet', 'openai/gpt', 'qwen/qwen3-coder'] },
  { id: 'ollama', name: 'Ollama', kind: 'ollama', baseURL: 'http://localhost:11434', key: 'none', prefer: ['qwen3-coder', 'qwen2.5-coder', 'qwen3', 'llama3'] },
  { id: 'custom', name: 'Other (OpenAI-compatible)', kind: 'openai-compatible', baseURL: '', key: 'optional', keyHint: 'only if the server asks for one', prefer: [] },
]

// startingModel is the model a new provider starts with: the first listed that the preset prefers, else the first.
export function startingModel(preset: Pick<Preset, 'prefer'>, models: string[]): string {
  for (const p of preset.prefer) {
    const m = models.find((id) => id.startsWith(p))
    if (m) return m
  }
  return models[0] ?? ''
}

// providerId is an id for a new provider of the preset that no saved provider has yet; a custom server is named by
// its host (localhost-8080).
export function providerId(preset: Pick<Preset, 'id'>, baseURL: string, taken: Pick<ProviderView, 'id'>[]): string {
  let base = preset.id
  if (preset.id === 'custom') {
    try {
      base = new URL(baseURL).host.replace(/[^a-zA-Z0-9.-]+/g, '-') || 'custom'
    } catch {
      base = 'custom'
    }
  }
  let id = base
  for (let n = 2; taken.some((p) => p.id === id); n++) id = `${base}-${n}`
  return id
}
