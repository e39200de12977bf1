import { generateText, type ModelMessage } from 'ai'
import { describe, expect, it } from 'vitest'
import type { ProviderKind, ProviderView } from '../bridge'
import { modelOutput } from '../agent/model-text'
import { createModel } from './providers'
import { fitSize, userContent, type PastedImage } from '../lib/paste-image'

// A 1×1 PNG, as read_file returns it.
const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=='
const readResult = { path: 'shot.png', exists: true, image: { media_type: 'image/png', data: png, width: 1, height: 1, bytes: 70 } }

// A pasted photo, as the request box holds it (prepareImage's result).
const jpeg = '/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAAMCAgICAgMCAgIDAwMDBAYEBAQEBAgGBgUGCQgKCgkICQkKDA8MCgsOCwkJDRENDg8QEBEQCgwSExIQEw8QEBD/wAALCAABAAEBAREA/8QAFAABAAAAAAAAAAAAAAAAAAAACf/EABQQAQAAAAAAAAAAAAAAAAAAAAD/2gAIAQEAAD8AKp//2Q=='
const pasted: PastedImage = { id: 'i1', name: 'photo.jpg', mediaType: 'image/jpeg', data: jpeg, width: 1, height: 1, bytes: 160 }

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
async function requestBody(kind: ProviderKind, base: string, pastedOnly = false): Promise<Record<string, unknown>> {
  let body: Record<string, unknown> | null = null
  const fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    if (String(input).endsWith('/api/show')) return Response.json({ parameters: 'num_ctx 8192' })
    body = JSON.parse(String(init?.body)) as Record<string, unknown>
    return new Response('{"error": "stand-in"}', { status: 400 })
  }
  const output = await modelOutput('read_file', readResult, async () => 'shot.png: image, image/png, 1×1 pixels, 70 B; the image itself is attached')
  const messages: ModelMessage[] = pastedOnly ? [{ role: 'user', content: userContent('what is in this photo?', [pasted]) }] : [
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
  it("OpenAI's Responses API: inside the function call's output, as an input image", async () => {
    const body = await requestBody('openai-compatible', 'https://api.openai.com/v1')
    const out = (body.input as { type: string; output?: unknown }[]).find((i) => i.type === 'function_call_output')!
    expect(JSON.stringify(out.output)).toContain(`data:image/png;base64,${png}`)
    expect((body.input as { role?: string }[]).filter((i) => i.role === 'user')).toHaveLength(1)
  })
  it('Ollama: a user message after the tool result carries the image in images', async () => {
    const body = await requestBody('ollama', 'http://localhost:11434')
    const messages = body.messages as { role: string; content: string; images?: string[] }[]
    expect(messages.find((m) => m.role === 'tool')!.content).not.toContain(png)
    expect(messages.at(-1)).toMatchObject({ role: 'user', images: [png] })
  })
})

describe('a pasted image reaches each provider kind with its media type', () => {
  it('Anthropic: an image block in the user message', async () => {
    const body = await requestBody('anthropic', 'https://api.anthropic.com/v1', true)
    const user = (body.messages as { content: unknown[] }[])[0]
    expect(user.content).toContainEqual({ type: 'image', source: { type: 'base64', media_type: 'image/jpeg', data: jpeg } })
  })
  it('OpenAI-compatible: an image_url data URL', async () => {
    const body = await requestBody('openai-compatible', 'https://api.example.com/v1', true)
    const user = (body.messages as { role: string; content: unknown[] }[]).find((m) => m.role === 'user')!
    expect(user.content).toContainEqual({ type: 'image_url', image_url: { url: `data:image/jpeg;base64,${jpeg}` } })
  })
  it('Ollama: the base64 in images', async () => {
    const body = await requestBody('ollama', 'http://localhost:11434', true)
    expect((body.messages as unknown[]).at(-1)).toMatchObject({ role: 'user', content: 'what is in this photo?', images: [jpeg] })
  })
  it('fits an image to 1568 pixels on its long edge, keeping its shape', () => {
    expect(fitSize(800, 600)).toEqual({ width: 800, height: 600, scaled: false })
    expect(fitSize(3136, 1000)).toEqual({ width: 1568, height: 500, scaled: true })
    expect(fitSize(10, 20000)).toEqual({ width: 1, height: 1568, scaled: true })
    expect(userContent('hi', [])).toBe('hi')
  })
})
