import { simulateReadableStream } from 'ai'
import { MockLanguageModelV4 } from 'ai/test'
import { describe, expect, it, vi } from 'vitest'
import type { ModelMessage } from 'ai'
import type { ToolSpec } from '../bridge'
import { defaultMaxSteps, runTurn, type TurnEvent } from './run-turn'

// The backend makes a result's text form; here a stand-in that shows which result it was given.
vi.mock('../bridge/tool-text', () => ({ toolText: async (name: string, output: unknown) => `text form of ${name}: ${JSON.stringify(output)}` }))

const usage = { inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined }, outputTokens: { total: 5, text: 5, reasoning: undefined } }

type Chunk = Record<string, unknown>

const textReply = (text: string): Chunk[] => [
  { type: 'text-start', id: 't' },
  { type: 'text-delta', id: 't', delta: text },
  { type: 'text-end', id: 't' },
  { type: 'finish', finishReason: { unified: 'stop', raw: undefined }, usage },
]

const toolReply = (id: string, name: string, input: unknown): Chunk[] => [
  { type: 'tool-call', toolCallId: id, toolName: name, input: JSON.stringify(input) },
  { type: 'finish', finishReason: { unified: 'tool-calls', raw: undefined }, usage },
]

// scripted answers each model call with the next reply, and records the prompts it was given.
function scripted(replies: Chunk[][]) {
  const prompts: unknown[] = []
  let i = 0
  const model = new MockLanguageModelV4({
    doStream: async (opts) => {
      prompts.push(opts.prompt)
      const chunks = replies[Math.min(i++, replies.length - 1)]
      return { stream: simulateReadableStream({ chunks: chunks as never[] }) }
    },
  })
  return { model, prompts }
}

const specs: ToolSpec[] = [
  { name: 'read_file', title: 'Read', description: 'Read a file', input_schema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] }, read_only: true, destructive: false, idempotent: true },
  { name: 'write_file', title: 'Write', description: 'Write a file', input_schema: { type: 'object', properties: { path: { type: 'string' }, content: { type: 'string' } } }, read_only: false, destructive: true, idempotent: true },
]

describe('runTurn', () => {
  it('gives the model what the user sent while it worked at its next step, and keeps it in the turn there', async () => {
    const { model, prompts } = scripted([toolReply('c1', 'read_file', { path: 'a.go' }), toolReply('c2', 'read_file', { path: 'b.go' }), textReply('Done.')])
    const queue: string[] = []
    const res = await runTurn({
      model,
      instructions: '',
      messages: [{ role: 'user', content: 'read both' }],
      specs,
      execute: async (call) => {
        // Typed while the first call ran: the second step is the first to hear of it.
        if (call.id === 'c1') queue.push('Sent while you worked: use tabs')
        return { ok: true }
      },
      onEvent: () => undefined,
      steer: () => queue.splice(0),
    })
    const users = (p: unknown) => (p as { role: string; content: unknown }[]).filter((m) => m.role === 'user').map((m) => JSON.stringify(m.content))
    expect(users(prompts[0]).join()).not.toContain('use tabs')
    expect(users(prompts[1]).at(-1)).toContain('Sent while you worked: use tabs')
    expect(users(prompts[2]).filter((u) => u.includes('use tabs'))).toHaveLength(1)
    // In the turn's messages it sits after the first call's result, before the second call.
    expect(res.messages.map((m) => m.role)).toEqual(['assistant', 'tool', 'user', 'assistant', 'tool', 'assistant'])
    expect(res.messages[2]).toEqual({ role: 'user', content: 'Sent while you worked: use tabs' })
  })

  it('runs tool calls step by step and hands results back to the model in their text form', async () => {
    const { model, prompts } = scripted([toolReply('c1', 'read_file', { path: 'main.go' }), textReply('The file says hello.')])
    const events: TurnEvent[] = []
    const calls: unknown[] = []
    const res = await runTurn({
      model,
      instructions: 'rules',
      messages: [{ role: 'user', content: 'what does main.go say?' }],
      specs,
      execute: async (call) => {
        calls.push(call)
        return { path: 'main.go', content: 'hello' }
      },
      onEvent: (e) => events.push(e),
    })
    expect(calls).toEqual([{ id: 'c1', name: 'read_file', input: { path: 'main.go' } }])
    expect(res.finish).toBe('done')
    expect(res.messages.map((m) => m.role)).toEqual(['assistant', 'tool', 'assistant'])
    expect(events.filter((e) => e.type === 'text').map((e) => (e as { delta: string }).delta).join('')).toBe('The file says hello.')
    expect(events.filter((e) => e.type === 'step')).toHaveLength(2)
    // The second call saw the tool's result in the text form the backend made of it.
    expect(JSON.stringify(prompts[1])).toContain('text form of read_file: {\\"path\\":\\"main.go\\",\\"content\\":\\"hello\\"}')
  })

  it('returns a tool error JSON to the model like any result, so it can adapt', async () => {
    const { model, prompts } = scripted([toolReply('c1', 'read_file', { path: '../etc/passwd' }), textReply('That path is outside the project.')])
    await runTurn({
      model,
      instructions: '',
      messages: [{ role: 'user', content: 'read /etc/passwd' }],
      specs,
      execute: async () => ({ error: { code: 'outside_root', message: 'outside the project root: ../etc/passwd' } }),
      onEvent: () => undefined,
    })
    expect(JSON.stringify(prompts[1])).toContain('outside_root')
  })

  it('stops at the step limit', async () => {
    const { model } = scripted([toolReply('c', 'read_file', { path: 'a' })])
    const res = await runTurn({ model, instructions: '', messages: [{ role: 'user', content: 'loop' }], specs, execute: async () => ({}), onEvent: () => undefined, maxSteps: 3 })
    expect(res.finish).toBe('step-limit')
    expect(res.messages.filter((m) => m.role === 'tool')).toHaveLength(3)
  })

  it('stops when aborted and keeps only finished steps', async () => {
    const { model } = scripted([toolReply('c1', 'write_file', { path: 'a', content: 'x' }), textReply('never')])
    const ctl = new AbortController()
    const res = await runTurn({
      model,
      instructions: '',
      messages: [{ role: 'user', content: 'write' }],
      specs,
      execute: async (_call, signal) => {
        ctl.abort()
        if (signal?.aborted) return { error: { code: 'cancelled', message: 'stopped' } }
        return {}
      },
      onEvent: () => undefined,
      signal: ctl.signal,
    })
    expect(res.finish).toBe('stopped')
    // Whatever was kept is a valid history: every tool call has its result (providers reject one without).
    const parts = res.messages.flatMap((m) => (Array.isArray(m.content) ? (m.content as { type: string; toolCallId?: string }[]) : []))
    const calls = parts.filter((p) => p.type === 'tool-call').map((p) => p.toolCallId)
    const results = parts.filter((p) => p.type === 'tool-result').map((p) => p.toolCallId)
    expect(calls).toEqual(results)
  })

  it('reports a provider error that retries did not cure', async () => {
    const model = new MockLanguageModelV4({
      doStream: async () => {
        throw Object.assign(new Error('model not found'), { statusCode: 404 })
      },
    })
    const events: TurnEvent[] = []
    const res = await runTurn({ model, instructions: '', messages: [{ role: 'user', content: 'hi' }], specs, execute: async () => ({}), onEvent: (e) => events.push(e), maxRetries: 0 })
    expect(res.finish).toBe('error')
    expect(events).toContainEqual({ type: 'error', message: 'model not found (HTTP 404)' })
  })
})

describe('runTurn loop guards', () => {
  it('allows 100 steps by default', () => {
    expect(defaultMaxSteps).toBe(100)
  })

  it('stops when the same call fails the same way three times in a row, and says why', async () => {
    const { model, prompts } = scripted([toolReply('c', 'read_file', { path: 'gone.go' })])
    const res = await runTurn({
      model,
      instructions: '',
      messages: [{ role: 'user', content: 'read gone.go' }],
      specs,
      execute: async () => ({ error: { code: 'not_found', message: 'not found: gone.go' } }),
      onEvent: () => undefined,
    })
    expect(res.finish).toBe('repeated')
    expect(res.reason).toContain('read_file failed 3 times in a row')
    expect(res.reason).toContain('not_found: not found: gone.go')
    expect(prompts).toHaveLength(3)
  })

  it('goes on when the failures differ', async () => {
    let n = 0
    const { model } = scripted([toolReply('c1', 'read_file', { path: 'a' }), toolReply('c2', 'read_file', { path: 'b' }), toolReply('c3', 'read_file', { path: 'c' }), textReply('gave up')])
    const res = await runTurn({
      model,
      instructions: '',
      messages: [{ role: 'user', content: 'read' }],
      specs,
      execute: async () => ({ error: { code: 'not_found', message: `not found ${n++}` } }),
      onEvent: () => undefined,
    })
    expect(res.finish).toBe('done')
  })
})

describe('runTurn prompt caching', () => {
  it('marks the system prompt, the tools and the last two messages as cache breakpoints for Anthropic only', async () => {
    for (const provider of ['anthropic.messages', 'openai-compatible.chat']) {
      const seen: { prompt: unknown; tools: unknown }[] = []
      const model = new MockLanguageModelV4({
        provider,
        doStream: async (opts) => {
          seen.push({ prompt: opts.prompt, tools: opts.tools })
          return { stream: simulateReadableStream({ chunks: textReply('ok') as never[] }) }
        },
      })
      await runTurn({
        model,
        instructions: 'rules',
        messages: [
          { role: 'user', content: 'one' },
          { role: 'assistant', content: 'two' },
          { role: 'user', content: 'three' },
        ],
        specs,
        execute: async () => ({}),
        onEvent: () => undefined,
      })
      const prompt = seen[0].prompt as { role: string; providerOptions?: unknown }[]
      const tools = seen[0].tools as { name: string; providerOptions?: unknown }[]
      const marked = (x: { providerOptions?: unknown }) => JSON.stringify(x.providerOptions ?? {}).includes('ephemeral')
      if (provider.startsWith('anthropic')) {
        expect(prompt.map(marked)).toEqual([true, false, true, true])
        expect(tools.map(marked)).toEqual([false, true])
      } else {
        expect(prompt.some(marked) || tools.some(marked)).toBe(false)
      }
    }
  })
})

describe('runTurn compaction', () => {
  it('summarises the older conversation with the model when a request would overflow the window, and carries on', async () => {
    const prompts: unknown[] = []
    const generated: unknown[] = []
    let n = 0
    const model = new MockLanguageModelV4({
      doStream: async (opts) => {
        prompts.push(opts.prompt)
        const chunks = n++ === 0 ? toolReply('c9', 'read_file', { path: 'b.go' }) : textReply('Done.')
        return { stream: simulateReadableStream({ chunks: chunks as never[] }) }
      },
      doGenerate: async (opts) => {
        generated.push(opts.prompt)
        return { content: [{ type: 'text', text: 'SUMMARY: the user wants b.go fixed.' }], finishReason: { unified: 'stop', raw: undefined }, usage, warnings: [] } as never
      },
    })
    const history: ModelMessage[] = []
    for (let i = 0; i < 6; i++) history.push({ role: 'user', content: `request ${i} ${'z'.repeat(1500)}` }, { role: 'assistant', content: `answer ${i}` })
    history.push({ role: 'user', content: 'now fix b.go' })
    const events: TurnEvent[] = []
    const res = await runTurn({ model, instructions: 'rules', messages: history, specs, window: 2000, execute: async () => ({ content: 'package b' }), onEvent: (e) => events.push(e) })
    expect(res.finish).toBe('done')
    expect(generated).toHaveLength(1)
    expect(JSON.stringify(generated[0])).toContain('Summarise the conversation so far')
    const compacted = events.find((e) => e.type === 'compacted')
    expect(compacted).toMatchObject({ type: 'compacted', summary: 'SUMMARY: the user wants b.go fixed.' })
    // The request after compaction starts from the summary and keeps the latest request whole.
    const first = JSON.stringify(prompts[0])
    expect(first).toContain('SUMMARY: the user wants b.go fixed.')
    expect(first).toContain('now fix b.go')
    expect(first).not.toContain('request 0')
    // The conversation's new history: the summary, the kept turns, then what the turn added.
    expect(res.replaced).toBeDefined()
    expect(JSON.stringify(res.replaced![0])).toContain('SUMMARY')
    expect(res.replaced!.slice(-3).map((m) => m.role)).toEqual(['assistant', 'tool', 'assistant'])
  })
})
