import { generateText, type ModelMessage } from 'ai'
import { describe, expect, it } from 'vitest'
import type { ProviderKind, ProviderView } from '../bridge'
import { modelOutput } from '../agent/model-text'
import { createModel } from './providers'

// A 1×1 PNG, as read_file returns it.
const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=='
const readResult = { path: 'shot.png', exists: true, image: { media_type: 'image/png', data: png, width: 1, height: 1, bytes: 70 } }

const provider = (kind: ProviderKind, base: string): ProviderView => ({
  id: `${kind}-${Math.random().toString(36).slice(2)}`,
  name: kind,
  kind,
  base_url: base,
  model: 'm',
  has_key: false,
  context_window: 8192,
})

// requestBody sends a conversation whose last message is read_file's image result through the provider kind's
// real AI SDK provider and returns the request body it would send (the request itself is refused).
async function requestBody(kind: ProviderKind, base: string): Promise<Record<string, unknown>> {
  let body: Record<string, unknown> | null = null
  const fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    if (String(input).endsWith('/api/show')) return Response.json({ parameters: 'num_ctx 8192' })
    body = JSON.parse(String(init?.body)) as Record<string, unknown>
    return new Response('{"error": "stand-in"}', { status: 400 })
  }
  const output = await modelOutput('read_file', readResult, async () => 'shot.png: image, image/png, 1×1 pixels, 70 B; the image itself is attached')
  const messages: ModelMessage[] = [
    { role: 'user', content: 'look at shot.png' },
    { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'read_file', input: { path: 'shot.png' } }] },
    { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 'read_file', output }] },
  ]
  await generateText({ model: createModel(provider(kind, base), 'm', fetch), messages, maxRetries: 0 }).catch(() => undefined)
  if (!body) throw new Error(`${kind}: no request was made`)
  return body
}

describe('an image read_file returned reaches each provider kind as an image', () => {
  it('Anthropic: inside the tool result, as a base64 image block', async () => {
    const body = await requestBody('anthropic', 'https://api.anthropic.com/v1')
    const messages = body.messages as { role: string; content: { type: string; content?: unknown[] }[] }[]
    const result = messages.at(-1)!.content.find((c) => c.type === 'tool_result')!
    expect(result.content).toContainEqual({ type: 'image', source: { type: 'base64', media_type: 'image/png', data: png } })
  })
  it('OpenAI-compatible: the tool message says so, and a user message after it carries the image', async () => {
    const body = await requestBody('openai-compatible', 'https://api.example.com/v1')
    const messages = body.messages as { role: string; content: unknown }[]
    const tool = messages.find((m) => m.role === 'tool')!
    expect(String(tool.content)).toContain('the image follows in the next message')
    expect(String(tool.content)).not.toContain(png)
    const last = messages.at(-1)!
    expect(last.role).toBe('user')
    expect(last.content).toContainEqual({ type: 'image_url', image_url: { url: `data:image/png;base64,${png}` } })
  })
  it('Ollama: a user message after the tool result carries the image in images', async () => {
    const body = await requestBody('ollama', 'http://localhost:11434')
    const messages = body.messages as { role: string; content: string; images?: string[] }[]
    expect(messages.find((m) => m.role === 'tool')!.content).not.toContain(png)
    expect(messages.at(-1)).toMatchObject({ role: 'user', images: [png] })
  })
})
