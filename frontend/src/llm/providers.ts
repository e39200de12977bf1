import { createAnthropic } from '@ai-sdk/anthropic'
import { createOpenAICompatible } from '@ai-sdk/openai-compatible'
import type { LanguageModel } from 'ai'
import type { ProviderView } from '../bridge'
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

// listModels asks the provider which models it serves (OpenAI's and Anthropic's /models share the shape).
export async function listModels(p: ProviderView, fetch: typeof globalThis.fetch = relayFetch(p.id)): Promise<string[]> {
  const headers: Record<string, string> = p.kind === 'anthropic' ? { 'anthropic-version': '2023-06-01' } : {}
  const res = await fetch(`${p.base_url.replace(/\/+$/, '')}/models`, { headers })
  if (!res.ok) throw new Error(`${p.name}: listing models failed with HTTP ${res.status}`)
  const body = (await res.json()) as { data?: { id?: string }[]; models?: { name?: string }[] }
  const ids = (body.data ?? []).map((m) => m.id).filter((id): id is string => typeof id === 'string')
  return [...new Set(ids)].sort()
}
