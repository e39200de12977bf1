import { streamText } from 'ai'
import { describe, expect, it } from 'vitest'
import type { ProviderView } from '../bridge'
import { createModel } from './providers'

// The reasoning effort set for a model reaches each provider in its own form: Anthropic's thinking budget, the
// Responses API's reasoning.effort for OpenAI itself, reasoning_effort for other OpenAI-compatible servers, and
// Ollama's think.

const provider = (kind: ProviderView['kind'], base_url: string, model: string): ProviderView => ({ id: `p-${kind}-${Math.random()}`, name: kind, kind, base_url, model, has_key: false, context_window: 8192 })

async function sent(p: ProviderView, reasoning?: 'low' | 'high') {
  const seen: { url: string; body: Record<string, unknown> }[] = []
  const fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    seen.push({ url: String(input), body: init?.body ? (JSON.parse(String(init.body)) as Record<string, unknown>) : {} })
    if (String(input).endsWith('/api/show')) return Response.json({})
    return new Response('{"error":{"message":"stop here"}}', { status: 400, headers: { 'content-type': 'application/json' } })
  }) as typeof globalThis.fetch
  const res = streamText({ model: createModel(p, p.model, fetch), prompt: 'hi', maxRetries: 0, maxOutputTokens: 32000, ...(reasoning ? { reasoning } : {}), onError: () => undefined })
  await Promise.resolve(res.consumeStream()).catch(() => undefined)
  return seen.filter((s) => !s.url.endsWith('/api/show')).at(-1)!
}

describe('reasoning effort', () => {
  it("is Anthropic's thinking budget", async () => {
    const r = await sent(provider('anthropic', 'https://api.anthropic.com/v1', 'claude-sonnet-4-5'), 'high')
    expect(r.url).toBe('https://api.anthropic.com/v1/messages')
    expect(r.body.thinking).toMatchObject({ type: 'enabled' })
    expect((r.body.thinking as { budget_tokens: number }).budget_tokens).toBeGreaterThan(1024)
    expect((await sent(provider('anthropic', 'https://api.anthropic.com/v1', 'claude-sonnet-4-5'))).body.thinking).toBeUndefined()
  })

  it("is the Responses API's reasoning.effort for OpenAI", async () => {
    const r = await sent(provider('openai-compatible', 'https://api.openai.com/v1', 'gpt-5'), 'low')
    expect(r.url).toBe('https://api.openai.com/v1/responses')
    expect(r.body.reasoning).toMatchObject({ effort: 'low' })
  })

  it('is reasoning_effort for another OpenAI-compatible server, which gets Chat Completions', async () => {
    const r = await sent(provider('openai-compatible', 'http://localhost:8000/v1', 'qwen3'), 'high')
    expect(r.url).toBe('http://localhost:8000/v1/chat/completions')
    expect(r.body.reasoning_effort).toBe('high')
    expect((await sent(provider('openai-compatible', 'http://localhost:8000/v1', 'qwen3'))).body.reasoning_effort).toBeUndefined()
  })

  it("is Ollama's think", async () => {
    const r = await sent(provider('ollama', 'http://localhost:11434', 'qwen3:8b'), 'high')
    expect(r.url).toBe('http://localhost:11434/api/chat')
    expect(r.body.think).toBe(true)
  })
})
