import { streamText } from 'ai'
import { describe, expect, it } from 'vitest'
import type { ProviderView } from '../bridge'
import { reportedCost } from './cost'
import { contextWindow, createModel, listModels } from './providers'

const ollama = (over: Partial<ProviderView> = {}): ProviderView => ({
  id: `ollama-${Math.random().toString(36).slice(2)}`, // each test its own provider: windows are remembered per provider
  name: 'Ollama',
  kind: 'ollama',
  base_url: 'http://localhost:11434',
  model: 'qwen3:8b',
  has_key: false,
  context_window: 0,
  ...over,
})

interface Seen {
  url: string
  body: Record<string, unknown>
}

// ollamaServer answers as Ollama does: /api/show with the model's details, /api/tags with the list, /api/chat as
// NDJSON lines, the last one with done and the token counts.
function ollamaServer(show: Record<string, unknown> | null) {
  const seen: Seen[] = []
  const fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const url = String(input)
    const body = init?.body ? (JSON.parse(String(init.body)) as Record<string, unknown>) : {}
    seen.push({ url, body })
    if (url.endsWith('/api/show')) return show ? Response.json(show) : new Response('{"error":"model not found"}', { status: 404 })
    if (url.endsWith('/api/tags')) return Response.json({ models: [{ name: 'qwen3:8b', model: 'qwen3:8b' }, { name: 'llama3.2:latest', model: 'llama3.2:latest' }] })
    if (url.endsWith('/api/chat')) {
      const at = '2026-01-01T00:00:00Z'
      const lines = [
        { model: body.model, created_at: at, message: { role: 'assistant', content: 'Hel' }, done: false },
        { model: body.model, created_at: at, message: { role: 'assistant', content: 'lo' }, done: false },
        { model: body.model, created_at: at, message: { role: 'assistant', content: '' }, done: true, done_reason: 'stop', prompt_eval_count: 1200, eval_count: 2 },
      ]
      return new Response(lines.map((l) => JSON.stringify(l) + '\n').join(''), { headers: { 'content-type': 'application/x-ndjson' } })
    }
    return new Response('not found', { status: 404 })
  }
  return { fetch: fetch as typeof globalThis.fetch, seen }
}

async function ask(p: ProviderView, fetch: typeof globalThis.fetch) {
  const res = streamText({ model: createModel(p, p.model, fetch), prompt: 'hi', maxRetries: 0 })
  return { text: await res.text, usage: await res.usage }
}

const show = {
  parameters: 'stop "<|im_end|>"\ntemperature 0.6',
  model_info: { 'general.architecture': 'qwen3', 'qwen3.context_length': 40960, 'qwen3.embedding_length': 4096 },
}

describe('Ollama through its own API', () => {
  it('sends the window read from /api/show as num_ctx with every request, asking /api/show once', async () => {
    const p = ollama()
    const srv = ollamaServer(show)
    expect(await contextWindow(p, p.model, srv.fetch)).toBe(40960)
    for (let i = 0; i < 2; i++) {
      const { text, usage } = await ask(p, srv.fetch)
      expect(text).toBe('Hello')
      expect(usage.inputTokens).toBe(1200)
    }
    const chats = srv.seen.filter((s) => s.url === 'http://localhost:11434/api/chat')
    expect(chats).toHaveLength(2)
    for (const c of chats) {
      expect(c.body.model).toBe('qwen3:8b')
      expect((c.body.options as Record<string, unknown>).num_ctx).toBe(40960)
    }
    expect(srv.seen.filter((s) => s.url.endsWith('/api/show')).map((s) => s.body)).toEqual([{ model: 'qwen3:8b' }])
  })

  it("prefers the Modelfile's num_ctx to the trained window, and the user's setting to both", async () => {
    const srv = ollamaServer({ ...show, parameters: 'num_ctx 16384\nstop "<|im_end|>"' })
    const p = ollama()
    await ask(p, srv.fetch)
    expect((srv.seen.at(-1)!.body.options as Record<string, unknown>).num_ctx).toBe(16384)
    const mine = ollama({ context_window: 65536 })
    await ask(mine, srv.fetch)
    expect((srv.seen.at(-1)!.body.options as Record<string, unknown>).num_ctx).toBe(65536)
  })

  it("falls back to the model family's window, still sent, when /api/show cannot tell", async () => {
    const srv = ollamaServer(null)
    const p = ollama({ model: 'my-own-model' })
    await ask(p, srv.fetch)
    expect((srv.seen.at(-1)!.body.options as Record<string, unknown>).num_ctx).toBe(32768)
  })

  it('lists the models from /api/tags', async () => {
    const srv = ollamaServer(show)
    expect(await listModels(ollama(), srv.fetch)).toEqual(['llama3.2:latest', 'qwen3:8b'])
    expect(srv.seen.map((s) => s.url)).toEqual(['http://localhost:11434/api/tags'])
  })
})

// openAIServer answers chat completions as an SSE stream whose last chunk carries the usage, with OpenRouter's cost.
function openAIServer(cost?: number) {
  const seen: Seen[] = []
  const fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    seen.push({ url: String(input), body: JSON.parse(String(init?.body)) as Record<string, unknown> })
    const chunk = (o: unknown) => `data: ${JSON.stringify(o)}\n\n`
    const base = { id: 'x', object: 'chat.completion.chunk', created: 1, model: 'm' }
    const usage = { prompt_tokens: 1000, completion_tokens: 10, total_tokens: 1010, ...(cost === undefined ? {} : { cost }) }
    const body =
      chunk({ ...base, choices: [{ index: 0, delta: { role: 'assistant', content: 'ok' }, finish_reason: null }] }) +
      chunk({ ...base, choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] }) +
      chunk({ ...base, choices: [], usage }) +
      'data: [DONE]\n\n'
    return new Response(body, { headers: { 'content-type': 'text/event-stream' } })
  }
  return { fetch: fetch as typeof globalThis.fetch, seen }
}

describe('cost reported by the provider', () => {
  const compatible = (base_url: string): ProviderView => ({ id: 'p', name: 'P', kind: 'openai-compatible', base_url, model: 'm', has_key: true, context_window: 0 })

  it("asks OpenRouter for the cost and reads it from the step's usage", async () => {
    const srv = openAIServer(0.00123)
    const res = streamText({ model: createModel(compatible('https://openrouter.ai/api/v1'), 'm', srv.fetch), prompt: 'hi', maxRetries: 0 })
    const steps = await res.steps
    expect(srv.seen[0].body.usage).toEqual({ include: true })
    expect(reportedCost(steps[0].usage.raw)).toBe(0.00123)
  })

  it('asks no other provider for it, and finds none where none is reported', async () => {
    const srv = openAIServer()
    const res = streamText({ model: createModel(compatible('https://api.together.xyz/v1'), 'm', srv.fetch), prompt: 'hi', maxRetries: 0 })
    const steps = await res.steps
    expect(srv.seen[0].body.usage).toBeUndefined()
    expect(reportedCost(steps[0].usage.raw)).toBeUndefined()
  })
})
