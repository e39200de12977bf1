import { simulateReadableStream, type ModelMessage } from 'ai'
import { MockLanguageModelV4 } from 'ai/test'
import { describe, expect, it } from 'vitest'
import type { ToolSpec } from '../bridge'
import { runTurn, type Execute, type TurnEvent } from './run-turn'
import { maxAnswer, spawnAgentName, spawnAgentTool, type SpawnResult } from './subagent'

// Subagents run on the AI SDK's mock model: the parent and its subagents share one model, which tells them apart
// by the system prompt, as a provider would see them.

type Chunk = Record<string, unknown>
type Prompt = { role: string; content: unknown }[]
const usageOf = (prompt: Prompt) => {
  const n = Math.ceil(JSON.stringify(prompt).length / 4) // the stand-in's count: four characters a token
  return { inputTokens: { total: n, noCache: n, cacheRead: undefined, cacheWrite: undefined }, outputTokens: { total: 10, text: 10, reasoning: undefined } }
}
const text = (t: string, prompt: Prompt): Chunk[] => [
  { type: 'text-start', id: 't' },
  { type: 'text-delta', id: 't', delta: t },
  { type: 'text-end', id: 't' },
  { type: 'finish', finishReason: { unified: 'stop', raw: undefined }, usage: usageOf(prompt) },
]
const calls = (list: { name: string; input: unknown }[], prompt: Prompt, tag: string): Chunk[] => [
  ...list.map((c, i) => ({ type: 'tool-call', toolCallId: `${tag}-${i}`, toolName: c.name, input: JSON.stringify(c.input) })),
  { type: 'finish', finishReason: { unified: 'tool-calls', raw: undefined }, usage: usageOf(prompt) },
]

const spec = (name: string, readOnly: boolean): ToolSpec => ({ name, title: name, description: name, input_schema: { type: 'object', properties: { path: { type: 'string' } } }, read_only: readOnly, destructive: !readOnly, idempotent: true })
const specs = [spec('read_file', true), spec('write_file', false), spec('ask_user', true)]

const system = (p: Prompt) => String(p.find((m) => m.role === 'system')?.content ?? '')
const userText = (p: Prompt) => {
  const c = p.find((m) => m.role === 'user')?.content
  return Array.isArray(c) ? c.map((part: { text?: string }) => part.text ?? '').join('') : String(c ?? '')
}
const toolResultCount = (p: Prompt) => p.filter((m) => m.role === 'tool').length

// A file of 2,000 characters, as read_file would return it.
const fileText = (path: string) => `${path}\n${'x'.repeat(2000)}`

interface Script {
  parent: (prompt: Prompt) => Chunk[]
  child: (prompt: Prompt, task: string) => Chunk[]
  delay?: number
}

function model(s: Script) {
  const spans: { task: string; start: number; end: number }[] = []
  const m = new MockLanguageModelV4({
    doStream: async (opts) => {
      const prompt = opts.prompt as unknown as Prompt
      if (!system(prompt).includes('You are a subagent')) return { stream: simulateReadableStream({ chunks: s.parent(prompt) as never[] }) }
      const task = userText(prompt)
      const start = performance.now()
      await new Promise((r) => setTimeout(r, s.delay ?? 0))
      if (opts.abortSignal?.aborted) throw new DOMException('aborted', 'AbortError')
      spans.push({ task, start, end: performance.now() })
      return { stream: simulateReadableStream({ chunks: s.child(prompt, task) as never[] }) }
    },
  })
  return { m, spans }
}

function run(m: MockLanguageModelV4, execute: Execute, opts: { signal?: AbortSignal; events?: TurnEvent[] } = {}) {
  const onEvent = (e: TurnEvent) => opts.events?.push(e)
  return runTurn({
    model: m,
    instructions: 'You are Rooted.',
    messages: [{ role: 'user', content: 'go' } as ModelMessage],
    specs,
    execute,
    onEvent,
    signal: opts.signal,
    local: { [spawnAgentName]: spawnAgentTool({ model: m, specs, execute, instructions: 'You are Rooted.', onEvent }) },
  })
}

const readAll: Execute = async (call) => (call.name === 'read_file' ? { content: fileText(String(call.input.path)) } : { error: { code: 'unexpected', message: call.name } })

describe('spawn_agent', () => {
  it('runs three subagents of one step at once, each with a fresh context, and hands back their answers', async () => {
    const { m, spans } = model({
      delay: 60,
      parent: (p) => (toolResultCount(p) === 0 ? calls(['a', 'b', 'c'].map((x) => ({ name: spawnAgentName, input: { label: x, task: `survey part ${x}` } })), p, 'p') : text('all surveyed', p)),
      child: (p, task) => (toolResultCount(p) === 0 ? calls([{ name: 'read_file', input: { path: `${task.slice(-1)}.go` } }], p, 'c') : text(`part done: ${task}`, p)),
    })
    const events: TurnEvent[] = []
    const res = await run(m, readAll, { events })
    expect(res.finish).toBe('done')
    // The first requests of the three ran at the same time: each started before any ended.
    const firsts = ['a', 'b', 'c'].map((x) => spans.find((s) => s.task.includes(`survey part ${x}`))!)
    expect(Math.max(...firsts.map((s) => s.start))).toBeLessThan(Math.min(...firsts.map((s) => s.end)))
    // A subagent's context is its task alone: nothing of the parent's conversation.
    const childPrompts = m.doStreamCalls.map((c) => c.prompt as unknown as Prompt).filter((p) => system(p).includes('You are a subagent'))
    expect(childPrompts.every((p) => p.filter((x) => x.role === 'user').length === 1 && !JSON.stringify(p).includes('"text":"go"'))).toBe(true)
    // Their cards are children of the spawn_agent calls; their tokens are counted as a subagent's.
    const nested = events.filter((e): e is Extract<TurnEvent, { type: 'tool-call' }> => e.type === 'tool-call' && !!e.parent)
    expect(nested.map((e) => e.parent).sort()).toEqual(['p-0', 'p-1', 'p-2'])
    expect(nested.every((e) => e.id.startsWith(`${e.parent}/`))).toBe(true)
    expect(events.filter((e) => e.type === 'step' && e.sub)).toHaveLength(6)
    // (The subagent reports its result itself, so a stopped turn's card shows it too; the SDK's report repeats it.)
    const outputs = [...new Map(events.filter((e) => e.type === 'tool-result' && !e.id.includes('/')).map((e) => [(e as { id: string }).id, (e as { output: SpawnResult }).output])).values()]
    expect(outputs.map((o) => o.answer).sort()).toEqual(['part done: survey part a', 'part done: survey part b', 'part done: survey part c'])
    expect(outputs.every((o) => o.steps === 2 && o.tool_calls === 1 && o.input_tokens > 0 && o.finish === 'done')).toBe(true)
  })

  it("keeps a subagent's reads out of the parent's next request", async () => {
    const files = Array.from({ length: 20 }, (_, i) => `src/f${i}.go`)
    const read = { parent: 0, total: 0 }
    const execute: Execute = async (call, sig) => {
      const out = await readAll(call, sig)
      read.total += JSON.stringify(out).length
      return out
    }
    // Directly: the parent reads the 20 files itself.
    const direct = model({
      parent: (p) => (toolResultCount(p) === 0 ? calls(files.map((path) => ({ name: 'read_file', input: { path } })), p, 'r') : text('read them', p)),
      child: (p) => text('unused', p),
    })
    await run(direct.m, execute)
    const directNext = Math.ceil(JSON.stringify(direct.m.doStreamCalls[1].prompt).length / 4)
    // Through one subagent, which reads the same 20 files and answers in a paragraph.
    read.total = 0
    const sub = model({
      parent: (p) => (toolResultCount(p) === 0 ? calls([{ name: spawnAgentName, input: { label: 'read', task: 'read the 20 files and say what they hold' } }], p, 's') : text('done', p)),
      child: (p) => (toolResultCount(p) === 0 ? calls(files.map((path) => ({ name: 'read_file', input: { path } })), p, 'r') : text('The 20 files hold x repeated, 2,000 characters each.', p)),
    })
    await run(sub.m, execute)
    const parentCalls = sub.m.doStreamCalls.map((c) => c.prompt as unknown as Prompt).filter((p) => !system(p).includes('You are a subagent'))
    const first = Math.ceil(JSON.stringify(parentCalls[0]).length / 4)
    const next = Math.ceil(JSON.stringify(parentCalls[1]).length / 4)
    const readTokens = Math.ceil(read.total / 4)
    console.log(`20 files read (${readTokens} tokens of results): the parent's next request is ${directNext} tokens reading them itself, ${next} through a subagent (${next - first} added, ${(((next - first) / readTokens) * 100).toFixed(1)}% of what was read)`)
    expect(readTokens).toBeGreaterThan(10_000)
    expect(next - first).toBeLessThan(0.05 * readTokens)
    expect(directNext - first).toBeGreaterThan(readTokens * 0.9)
  })

  it('gives a subagent the read-only tools unless it may write, never ask_user or spawn_agent, and caps its answer', async () => {
    const { m } = model({
      parent: (p) => (toolResultCount(p) === 0 ? calls([{ name: spawnAgentName, input: { label: 'look', task: 'look around' } }, { name: spawnAgentName, input: { label: 'fix', task: 'fix it', write: true } }], p, 'p') : text('ok', p)),
      child: (p) => text('y'.repeat(maxAnswer + 500), p),
    })
    const events: TurnEvent[] = []
    await run(m, readAll, { events })
    const toolsOf = (task: string) =>
      m.doStreamCalls
        .filter((c) => userText(c.prompt as unknown as Prompt).includes(task))
        .map((c) => (c.tools ?? []).map((t) => t.name).sort())
        .at(0)
    expect(toolsOf('look around')).toEqual(['read_file'])
    expect(toolsOf('fix it')).toEqual(['read_file', 'write_file'])
    const out = events.find((e) => e.type === 'tool-result' && e.id === 'p-0') as { output: SpawnResult }
    expect(out.output.truncated).toBe(true)
    expect(out.output.answer.length).toBeLessThan(maxAnswer + 100)
  })

  it('ends its subagents when the turn is stopped', async () => {
    const ctl = new AbortController()
    let started = 0
    const { m } = model({
      delay: 50,
      parent: (p) => (toolResultCount(p) === 0 ? calls([{ name: spawnAgentName, input: { label: 'slow', task: 'take forever' } }], p, 'p') : text('never', p)),
      child: (p) => {
        started++
        if (started === 1) setTimeout(() => ctl.abort(), 0)
        return calls([{ name: 'read_file', input: { path: 'a.go' } }], p, `c${started}`)
      },
    })
    const events: TurnEvent[] = []
    const res = await run(m, readAll, { signal: ctl.signal, events })
    expect(res.finish).toBe('stopped')
    // The subagent made no request after the stop: it stopped with the turn, not after its step budget.
    expect(started).toBeLessThanOrEqual(2)
  })
})
