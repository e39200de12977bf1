import { isStepCount, jsonSchema, streamText, tool, type LanguageModel, type ModelMessage, type ToolSet } from 'ai'
import type { ToolSpec } from '../bridge'

// TurnEvent is what a turn reports as it goes, for the conversation to show.
export type TurnEvent =
  | { type: 'text'; delta: string }
  | { type: 'tool-call'; id: string; name: string; input: Record<string, unknown> }
  | { type: 'tool-result'; id: string; output: unknown }
  | { type: 'step'; input: number; output: number }
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
}

export interface TurnResult {
  messages: ModelMessage[] // what the turn added: the assistant's messages and the tool results
  finish: 'done' | 'stopped' | 'step-limit' | 'error'
}

// toolSet turns the registry's specs into the model's tools: the same JSON schemas and descriptions the CLI and
// MCP faces serve. Results go back to the model verbatim, error JSON included.
export function toolSet(specs: ToolSpec[], execute: Execute): ToolSet {
  const set: ToolSet = {}
  for (const s of specs) {
    set[s.name] = tool({
      description: s.description,
      inputSchema: jsonSchema<Record<string, unknown>>(s.input_schema as Parameters<typeof jsonSchema>[0]),
      execute: (input: Record<string, unknown>, opts) => execute({ id: opts.toolCallId, name: s.name, input }, opts.abortSignal),
    })
  }
  return set
}

// runTurn streams one turn: text as it comes, tool calls run by execute, step after step until the model stops,
// the step limit is reached, or signal aborts. Transient provider errors (429, 5xx, dropped connections) are
// retried by the SDK before they surface.
export async function runTurn(o: TurnOptions): Promise<TurnResult> {
  const maxSteps = o.maxSteps ?? 25
  const steps: ModelMessage[][] = []
  let failed = false
  const result = streamText({
    model: o.model,
    instructions: o.instructions,
    messages: o.messages,
    tools: toolSet(o.specs, o.execute),
    stopWhen: isStepCount(maxSteps),
    abortSignal: o.signal,
    maxRetries: o.maxRetries ?? 3,
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
        case 'tool-call':
          o.onEvent({ type: 'tool-call', id: part.toolCallId, name: part.toolName, input: (part.input ?? {}) as Record<string, unknown> })
          break
        case 'tool-result':
          o.onEvent({ type: 'tool-result', id: part.toolCallId, output: part.output })
          break
        case 'tool-error':
          o.onEvent({ type: 'tool-result', id: part.toolCallId, output: { error: { code: 'internal', message: String(part.error) } } })
          break
        case 'finish-step':
          o.onEvent({ type: 'step', input: part.usage.inputTokens ?? 0, output: part.usage.outputTokens ?? 0 })
          break
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
  const messages = steps.flat()
  if (o.signal?.aborted) return { messages, finish: 'stopped' }
  if (failed) return { messages, finish: 'error' }
  return { messages, finish: steps.length >= maxSteps && lastHasToolCalls(messages) ? 'step-limit' : 'done' }
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
