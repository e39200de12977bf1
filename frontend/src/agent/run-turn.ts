import { generateText, isStepCount, jsonSchema, streamText, tool, type LanguageModel, type ModelMessage, type ToolSet } from 'ai'
import type { ToolSpec } from '../bridge'
import { toolText } from '../bridge/tool-text'
import { compactAt, compactedMessages, elideOld, estimateTokens, splitForCompaction, summaryPrompt } from './context'
import { modelOutput } from './model-text'
import { stepCost, type Price } from '../llm/cost'

// TurnEvent is what a turn reports as it goes, for the conversation to show.
export type TurnEvent =
  | { type: 'text'; delta: string }
  // parent is set on a subagent's call: the spawn_agent call it works for.
  | { type: 'tool-call'; id: string; name: string; input: Record<string, unknown>; parent?: string }
  | { type: 'tool-result'; id: string; output: unknown }
  // sub marks a subagent's request: its tokens and cost count, but it says nothing of the conversation's context.
  | { type: 'step'; input: number; output: number; cached: number; cost?: number; sub?: boolean }
  | { type: 'reasoning'; delta: string }
  | { type: 'compacting' }
  | { type: 'compacted'; summary: string; before: number; after: number; summarised: number }
  | { type: 'error'; message: string }

// Execute runs one tool call (approval included) and returns what the model gets back.
export type Execute = (call: { id: string; name: string; input: Record<string, unknown> }, signal: AbortSignal | undefined) => Promise<unknown>

export interface TurnOptions {
  model: LanguageModel
  instructions: string
  messages: ModelMessage[]
  specs: ToolSpec[]
  execute: Execute
  onEvent: (e: TurnEvent) => void
  signal?: AbortSignal
  maxSteps?: number
  maxRetries?: number
  // window is the model's context window in tokens; requests are kept below compactAt of it.
  window?: number
  // local tools run in the window itself (the plan), beside the backend's.
  local?: ToolSet
  // steer, asked before each step, gives what the user sent while the turn worked: each goes to the model as a
  // user message at that point of the turn, and stays there in the conversation.
  steer?: () => string[]
  // calibration scales the size estimate to the provider's count (from the usage it reported before).
  calibration?: number
  // price is the model's price, for a step's cost when the provider does not report it.
  price?: Price | null
  // reasoning is the effort asked of a reasoning model (the AI SDK's setting; each provider sends it in its form).
  reasoning?: 'none' | 'low' | 'medium' | 'high'
}

export interface TurnResult {
  messages: ModelMessage[] // what the turn added: the assistant's messages and the tool results
  // replaced, when the conversation was compacted during the turn, is its whole new history (summary, kept
  // messages and what the turn added): it replaces the conversation's messages rather than extending them.
  replaced?: ModelMessage[]
  calibration: number // for the next turn
  finish: 'done' | 'stopped' | 'step-limit' | 'repeated' | 'error'
  // reason says why a turn stopped on its own ('repeated': which call failed how).
  reason?: string
}

// defaultMaxSteps is how many model calls one request may take before the panel asks whether to go on.
export const defaultMaxSteps = 100

// repeatLimit is how many times in a row the same call may fail the same way before the turn stops.
export const repeatLimit = 3

interface StepLike {
  toolResults: readonly { toolName: string; input: unknown; output: unknown }[]
}

// repeatedFailure returns why the turn should stop when the last repeatLimit tool results are the same call (tool
// and arguments) failing the same way (code and message): the model is going round in circles.
export function repeatedFailure(steps: readonly StepLike[]): string | undefined {
  const results = steps.flatMap((s) => s.toolResults)
  if (results.length < repeatLimit) return undefined
  const last = results.slice(-repeatLimit)
  const key = (r: StepLike['toolResults'][number]) => {
    const e = (r.output as { error?: { code?: string; message?: string } } | null)?.error
    return e?.code ? JSON.stringify([r.toolName, r.input, e.code, e.message]) : undefined
  }
  const first = key(last[0])
  if (!first || last.some((r) => key(r) !== first)) return undefined
  const e = (last[0].output as { error: { code: string; message: string } }).error
  return `${last[0].toolName} failed ${repeatLimit} times in a row with the same arguments and the same error (${e.code}: ${e.message})`
}

// anthropicCache marks a prompt-cache breakpoint for Anthropic; other providers ignore the option.
const anthropicCache = { anthropic: { cacheControl: { type: 'ephemeral' as const } } }

// withCacheBreakpoints marks the last two messages of a request as cache breakpoints, so the next step (which
// repeats the whole request and adds to it) reads them from Anthropic's cache instead of paying for them again.
// With the system prompt and the tools that is four, Anthropic's maximum.
export function withCacheBreakpoints(messages: ModelMessage[]): ModelMessage[] {
  return messages.map((m, i) => (i >= messages.length - 2 && m.role !== 'system' ? ({ ...m, providerOptions: { ...m.providerOptions, ...anthropicCache } } as ModelMessage) : m))
}

// withToolsBreakpoint marks the last tool, which closes the tool list's cache breakpoint: the list is the same on
// every request of a conversation.
function withToolsBreakpoint(tools: ToolSet): ToolSet {
  const last = Object.keys(tools).at(-1)
  return last ? { ...tools, [last]: { ...tools[last], providerOptions: anthropicCache } } : tools
}

function isAnthropic(model: LanguageModel): boolean {
  return typeof model === 'object' && model !== null && 'provider' in model && String(model.provider).startsWith('anthropic')
}

// toolSet turns the registry's specs into the model's tools: the same JSON schemas and descriptions the CLI and
// MCP faces serve. Results go back to the model in their text form, errors as "error <code>: <message>".
export function toolSet(specs: ToolSpec[], execute: Execute): ToolSet {
  const set: ToolSet = {}
  for (const s of specs) {
    set[s.name] = tool({
      description: s.description,
      inputSchema: jsonSchema<Record<string, unknown>>(s.input_schema as Parameters<typeof jsonSchema>[0]),
      execute: (input: Record<string, unknown>, opts) => execute({ id: opts.toolCallId, name: s.name, input }, opts.abortSignal),
      // The model gets the result's text form (capped when huge); the window's card keeps the structured result.
      toModelOutput: ({ output }) => modelOutput(s.name, output, toolText),
    })
  }
  return set
}

// summarise asks the model for a summary of older, the part of a conversation compaction replaces. Bulky tool
// results in it are elided first, so the summary request itself fits.
export async function summarise(model: LanguageModel, older: ModelMessage[], signal?: AbortSignal, maxRetries = 3): Promise<string> {
  const res = await generateText({
    model,
    instructions: 'You write the working notes that let a coding agent continue a task after its earlier conversation is dropped.',
    messages: [...elideOld([...older, { role: 'user', content: '.' }], 1, 500).slice(0, -1), { role: 'user', content: summaryPrompt }],
    abortSignal: signal,
    maxRetries,
  })
  return res.text.trim()
}

// runTurn streams one turn: text as it comes, tool calls run by execute, step after step until the model stops,
// the step limit is reached, or signal aborts. Transient provider errors (429, 5xx, dropped connections) are
// retried by the SDK before they surface. Before each step, old bulky tool results are elided from the request,
// and when the request would still come near the context window, the older part of the conversation is
// summarised by the model (compaction) and replaced by the summary.
export async function runTurn(o: TurnOptions): Promise<TurnResult> {
  const maxSteps = o.maxSteps ?? defaultMaxSteps
  const cache = isAnthropic(o.model)
  let repeated: string | undefined
  const steps: ModelMessage[][] = []
  let failed = false
  // The conversation as the model knows it: base (the messages given, or a compacted history) followed by the
  // response messages from absorbed on.
  let base = o.messages
  let absorbed = 0
  let compacted = false
  // The estimate counts the instructions and messages; calibration turns it into the provider's count, from the
  // usage it reports (which may include the tool definitions, or count differently).
  const overhead = estimateTokens(o.instructions)
  let calibration = o.calibration ?? 1
  let lastEstimate = 0
  // inserts are the user's messages sent during the turn, by how many of the turn's messages came before them.
  const inserts = new Map<number, ModelMessage[]>()
  const weave = (ms: ModelMessage[], from = 0): ModelMessage[] => {
    const out: ModelMessage[] = []
    for (let i = from; i <= ms.length; i++) {
      if (i > from || from === 0) out.push(...(inserts.get(i) ?? []))
      if (i < ms.length) out.push(ms[i])
    }
    return out
  }
  const result = streamText({
    model: o.model,
    instructions: cache ? { role: 'system', content: o.instructions, providerOptions: anthropicCache } : o.instructions,
    messages: o.messages,
    tools: cache ? withToolsBreakpoint({ ...toolSet(o.specs, o.execute), ...(o.local ?? {}) }) : { ...toolSet(o.specs, o.execute), ...(o.local ?? {}) },
    stopWhen: [
      isStepCount(maxSteps),
      ({ steps }) => {
        repeated = repeatedFailure(steps as unknown as StepLike[])
        return repeated !== undefined
      },
    ],
    abortSignal: o.signal,
    maxRetries: o.maxRetries ?? 3,
    ...(o.reasoning ? { reasoning: o.reasoning } : {}),
    prepareStep: async ({ responseMessages, steps: done }) => {
      const last = done[done.length - 1]
      if (last && lastEstimate > 0 && last.usage.inputTokens) calibration = Math.min(3, Math.max(0.3, last.usage.inputTokens / lastEstimate))
      const said = o.steer?.() ?? []
      if (said.length > 0) inserts.set(responseMessages.length, [...(inserts.get(responseMessages.length) ?? []), ...said.map((content): ModelMessage => ({ role: 'user', content }))])
      let full = [...base, ...weave(responseMessages as ModelMessage[], absorbed)]
      let sent = elideOld(full)
      const estimate = () => (estimateTokens(sent) + overhead) * calibration
      if (o.window && estimate() > compactAt * o.window) {
        const { older, recent } = splitForCompaction(full)
        if (older.length > 0) {
          o.onEvent({ type: 'compacting' })
          const before = Math.round(estimate())
          const summary = await summarise(o.model, older, o.signal, o.maxRetries ?? 3)
          base = compactedMessages(summary, recent)
          absorbed = responseMessages.length
          compacted = true
          full = base
          sent = elideOld(full)
          o.onEvent({ type: 'compacted', summary, before, after: Math.round(estimate()), summarised: older.length })
        }
      }
      lastEstimate = estimateTokens(sent) + overhead
      return { messages: cache ? withCacheBreakpoints(sent) : sent }
    },
    onError: () => undefined, // reported through the stream's error part below
    onStepEnd: (step) => {
      steps.push([...step.response.messages])
    },
  })
  try {
    for await (const part of result.stream) {
      switch (part.type) {
        case 'text-delta':
          o.onEvent({ type: 'text', delta: part.text })
          break
        case 'reasoning-delta':
          o.onEvent({ type: 'reasoning', delta: part.text })
          break
        case 'tool-call':
          o.onEvent({ type: 'tool-call', id: part.toolCallId, name: part.toolName, input: (part.input ?? {}) as Record<string, unknown> })
          break
        case 'tool-result':
          o.onEvent({ type: 'tool-result', id: part.toolCallId, output: part.output })
          break
        case 'tool-error':
          o.onEvent({ type: 'tool-result', id: part.toolCallId, output: { error: { code: 'internal', message: String(part.error) } } })
          break
        case 'finish-step': {
          const usage = { input: part.usage.inputTokens ?? 0, output: part.usage.outputTokens ?? 0, cached: part.usage.inputTokenDetails?.cacheReadTokens ?? 0 }
          o.onEvent({ type: 'step', ...usage, cost: stepCost(usage, part.usage.raw, o.price) })
          break
        }
        case 'error':
          failed = true
          o.onEvent({ type: 'error', message: describe(part.error) })
          break
      }
    }
  } catch (err) {
    if (!o.signal?.aborted) {
      failed = true
      o.onEvent({ type: 'error', message: describe(err) })
    }
  }
  // Keep only finished steps: a step cut off mid-way has a tool call without a result, which providers reject.
  const made = steps.flat()
  const messages = weave(made)
  const replaced = compacted ? [...base, ...weave(made, absorbed)] : undefined
  const last = (await Promise.resolve(result.steps).catch(() => [])).at(-1)
  if (last && lastEstimate > 0 && last.usage.inputTokens) calibration = Math.min(3, Math.max(0.3, last.usage.inputTokens / lastEstimate))
  if (o.signal?.aborted) return { messages, replaced, calibration, finish: 'stopped' }
  if (failed) return { messages, replaced, calibration, finish: 'error' }
  if (repeated) return { messages, replaced, calibration, finish: 'repeated', reason: repeated }
  return { messages, replaced, calibration, finish: steps.length >= maxSteps && lastHasToolCalls(messages) ? 'step-limit' : 'done' }
}

function lastHasToolCalls(messages: ModelMessage[]): boolean {
  const last = messages[messages.length - 1]
  return last?.role === 'tool'
}

function describe(err: unknown): string {
  if (err instanceof Error) {
    const status = (err as { statusCode?: number }).statusCode
    return status ? `${err.message} (HTTP ${status})` : err.message
  }
  return String(err)
}
