import { createAnthropic } from '@ai-sdk/anthropic'
import { createOpenAI } from '@ai-sdk/openai'
import { createOpenAICompatible } from '@ai-sdk/openai-compatible'
import { wrapLanguageModel, type LanguageModel } from 'ai'
import { createOllama } from 'ollama-ai-provider-v2'
import type { ProviderView } from '../bridge'
import { defaultWindow, windowFromListing, windowFromOllamaShow } from '../agent/context'
import { relayFetch } from './relay-fetch'
import { imagesOutOfToolResults } from './tool-images'

// The key is added by the backend's relay; the SDKs want one to be present, and the relay drops what they send.
const placeholderKey = 'added-by-rooted'

const trimSlash = (u: string) => u.replace(/\/+$/, '')

// isOpenAI says whether a provider is OpenAI's own API, which Rooted speaks through the Responses API (reasoning
// effort, reasoning kept between steps); other OpenAI-compatible servers get Chat Completions, which they serve.
export function isOpenAI(p: Pick<ProviderView, 'base_url'>): boolean {
  try {
    return new URL(p.base_url).hostname === 'api.openai.com'
  } catch {
    return false
  }
}

// isOpenRouter says whether a provider is OpenRouter, which reports each request's cost when asked.
export function isOpenRouter(p: Pick<ProviderView, 'base_url'>): boolean {
  try {
    return new URL(p.base_url).hostname === 'openrouter.ai'
  } catch {
    return false
  }
}

// createModel makes the AI SDK model for a configured provider; every request goes through the backend's relay.
// An Ollama model sends its context window as options.num_ctx with every request (the server would otherwise cut
// the prompt to its own default, 4,096 tokens in recent versions, without an error); OpenRouter is asked for the
// request's cost in its usage.
export function createModel(p: ProviderView, modelId: string, fetch: typeof globalThis.fetch = relayFetch(p.id)): LanguageModel {
  if (p.kind === 'anthropic') {
    return createAnthropic({ baseURL: p.base_url, apiKey: placeholderKey, fetch })(modelId)
  }
  if (p.kind === 'ollama') {
    return wrapLanguageModel({
      model: createOllama({ baseURL: `${trimSlash(p.base_url)}/api`, fetch, name: p.id })(modelId),
      middleware: [imagesOutOfToolResults, {
        specificationVersion: 'v4',
        transformParams: async ({ params }) => {
          const numCtx = await contextWindow(p, modelId, fetch)
          const ollama = (params.providerOptions?.ollama ?? {}) as { options?: Record<string, unknown> }
          return { ...params, providerOptions: { ...params.providerOptions, ollama: { ...ollama, options: { ...ollama.options, num_ctx: numCtx } } } }
        },
      }],
    })
  }
  if (isOpenAI(p)) return createOpenAI({ baseURL: p.base_url, apiKey: placeholderKey, fetch, name: p.id }).responses(modelId)
  const openRouter = isOpenRouter(p)
  const model = createOpenAICompatible({
    name: p.id,
    baseURL: p.base_url,
    apiKey: placeholderKey,
    fetch,
    includeUsage: true,
    transformRequestBody: openRouter ? (body) => ({ ...body, usage: { include: true } }) : undefined,
  }).chatModel(modelId)
  return wrapLanguageModel({ model, middleware: imagesOutOfToolResults })
}

export interface ModelInfo {
  id: string
  window?: number // the context window, when the provider's list says
}

// listModelInfo asks the provider which models it serves (OpenAI's and Anthropic's /models share the shape; Ollama
// lists its models at /api/tags), with their context windows where the listing gives them.
export async function listModelInfo(p: ProviderView, fetch: typeof globalThis.fetch = relayFetch(p.id)): Promise<ModelInfo[]> {
  if (p.kind === 'ollama') {
    const res = await fetch(`${trimSlash(p.base_url)}/api/tags`)
    if (!res.ok) throw new Error(`${p.name}: listing models failed with HTTP ${res.status}`)
    const body = (await res.json()) as { models?: { name?: unknown; model?: unknown }[] }
    const ids = new Set<string>()
    for (const m of body.models ?? []) {
      const id = typeof m.model === 'string' ? m.model : typeof m.name === 'string' ? m.name : undefined
      if (id) ids.add(id)
    }
    return [...ids].sort((a, b) => a.localeCompare(b)).map((id) => ({ id }))
  }
  const headers: Record<string, string> = p.kind === 'anthropic' ? { 'anthropic-version': '2023-06-01' } : {}
  const res = await fetch(`${trimSlash(p.base_url)}/models`, { headers })
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
const shows = new Map<string, Promise<number | undefined>>()

// ollamaWindow asks an Ollama server for a model's context window (/api/show), once per provider, base URL and
// model; undefined when the server does not say or cannot be asked (a failure is asked again next time).
function ollamaWindow(p: ProviderView, model: string, fetch: typeof globalThis.fetch = relayFetch(p.id)): Promise<number | undefined> {
  const key = `${p.id} ${p.base_url} ${model}`
  let found = shows.get(key)
  if (!found) {
    found = (async () => {
      const res = await fetch(`${trimSlash(p.base_url)}/api/show`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ model }) })
      if (!res.ok) throw new Error(`HTTP ${res.status}`)
      return windowFromOllamaShow((await res.json()) as Record<string, unknown>)
    })().catch(() => {
      shows.delete(key)
      return undefined
    })
    shows.set(key, found)
  }
  return found
}

// contextWindow is the context window of a provider's model: the user's setting, else what the provider says (an
// Ollama server's /api/show, others' model list, asked once per provider and base URL), else the model family's
// usual size. For Ollama it is also the num_ctx every request carries, so it is the window in force.
export async function contextWindow(p: ProviderView, model: string, fetch?: typeof globalThis.fetch): Promise<number> {
  if (p.context_window > 0 && model === p.model) return p.context_window
  if (p.kind === 'ollama') return (await ollamaWindow(p, model, fetch)) ?? defaultWindow(model)
  const key = `${p.id} ${p.base_url}`
  let listing = listings.get(key)
  if (!listing) {
    listing = listModelInfo(p, fetch).catch(() => [])
    listings.set(key, listing)
  }
  const found = (await listing).find((m) => m.id === model)
  return found?.window ?? defaultWindow(model)
}
