import { createAnthropic } from '@ai-sdk/anthropic'
import { createOpenAICompatible } from '@ai-sdk/openai-compatible'
import type { LanguageModel } from 'ai'
import type { ProviderView } from '../bridge'
import { defaultWindow, windowFromListing } from '../agent/context'
import { relayFetch } from './relay-fetch'

// The key is added by the backend's relay; the SDKs want one to be present, and the relay drops what they send.
const placeholderKey = 'added-by-rooted'

// createModel makes the AI SDK model for a configured provider; every request goes through the backend's relay.
export function createModel(p: ProviderView, modelId: string, fetch: typeof globalThis.fetch = relayFetch(p.id)): LanguageModel {
  if (p.kind === 'anthropic') {
    return createAnthropic({ baseURL: p.base_url, apiKey: placeholderKey, fetch })(modelId)
  }
  return createOpenAICompatible({ name: p.id, baseURL: p.base_url, apiKey: placeholderKey, fetch, includeUsage: true }).chatModel(modelId)
}

export interface ModelInfo {
  id: string
  window?: number // the context window, when the provider's list says
}

// listModelInfo asks the provider which models it serves (OpenAI's and Anthropic's /models share the shape), with
// their context windows where the listing gives them.
export async function listModelInfo(p: ProviderView, fetch: typeof globalThis.fetch = relayFetch(p.id)): Promise<ModelInfo[]> {
  const headers: Record<string, string> = p.kind === 'anthropic' ? { 'anthropic-version': '2023-06-01' } : {}
  const res = await fetch(`${p.base_url.replace(/\/+$/, '')}/models`, { headers })
  if (!res.ok) throw new Error(`${p.name}: listing models failed with HTTP ${res.status}`)
  const body = (await res.json()) as { data?: Record<string, unknown>[] }
  const seen = new Map<string, ModelInfo>()
  for (const m of body.data ?? []) {
    if (typeof m.id === 'string' && !seen.has(m.id)) seen.set(m.id, { id: m.id, window: windowFromListing(m) })
  }
  return [...seen.values()].sort((a, b) => a.id.localeCompare(b.id))
}

// listModels lists the ids of the provider's models.
export async function listModels(p: ProviderView, fetch?: typeof globalThis.fetch): Promise<string[]> {
  return (await listModelInfo(p, fetch)).map((m) => m.id)
}

const listings = new Map<string, Promise<ModelInfo[]>>()

// contextWindow is the context window of a provider's model: the user's setting, else the provider's model list
// (asked once per provider and base URL), else the model family's usual size.
export async function contextWindow(p: ProviderView, model: string, fetch?: typeof globalThis.fetch): Promise<number> {
  if (p.context_window > 0 && model === p.model) return p.context_window
  const key = `${p.id} ${p.base_url}`
  let listing = listings.get(key)
  if (!listing) {
    listing = listModelInfo(p, fetch).catch(() => [])
    listings.set(key, listing)
  }
  const found = (await listing).find((m) => m.id === model)
  return found?.window ?? defaultWindow(model)
}
