import { jsonSchema, tool, type LanguageModel, type Tool } from 'ai'
import type { ToolSpec } from '../bridge'
import type { Price } from '../llm/cost'
import { runTurn, type Execute, type TurnEvent } from './run-turn'

// spawn_agent: the model hands a self-contained task to a subagent, a nested turn with a fresh context (the task
// alone, under the same system prompt and a note on its role), its own step budget and, unless it may write, the
// read-only tools only. Its tool calls go through the session's execute (the same checks and approvals) and show
// as cards under the spawn_agent card; its tokens and cost add to the conversation's. The parent gets back only
// the subagent's final answer (capped) and counts: what it read stays in the subagent's context, so a task that
// reads many files costs the parent a short answer. Several spawn_agent calls in one step run at once (the SDK
// runs a step's tool calls concurrently); Stop aborts them with the turn.

export const spawnAgentName = 'spawn_agent'
// subagentSteps is a subagent's step budget: model calls before it must answer.
export const subagentSteps = 25
// maxAnswer is how much of a subagent's final answer the parent gets, in characters.
export const maxAnswer = 4_000

export interface SpawnInput {
  label: string
  task: string
  write?: boolean
}

export interface SpawnResult {
  label: string
  answer: string
  finish: string // done, stopped, step-limit, repeated, error
  truncated?: boolean
  steps: number
  tool_calls: number
  input_tokens: number
  output_tokens: number
  cost?: number
}

export interface SubagentDeps {
  model: LanguageModel
  specs: ToolSpec[]
  execute: Execute
  instructions: string // the parent's system prompt
  onEvent: (e: TurnEvent) => void // the parent's: the subagent's cards and usage
  window?: number
  price?: Price | null
  maxSteps?: number
  reasoning?: 'none' | 'low' | 'medium' | 'high'
}

// The tools a subagent never gets: it cannot ask the user (the parent does) or spawn agents of its own.
const withheld = new Set(['ask_user', spawnAgentName])

// subagentSpecs are the tools of a subagent: the read-only ones, or all when it may write.
export function subagentSpecs(specs: ToolSpec[], write: boolean): ToolSpec[] {
  return specs.filter((s) => !withheld.has(s.name) && (write || s.read_only))
}

export function subagentInstructions(parent: string, input: SpawnInput): string {
  return [
    parent,
    '',
    `You are a subagent that Rooted's main agent started for one task ("${input.label}"). You work alone: you cannot ask the user anything, and no one reads your messages but the main agent, which gets only your final answer.`,
    input.write ? 'You may change files and run commands (each as the rules above say).' : 'You have the read-only tools only: find, read and report; change nothing.',
    `End with a final answer of at most ${maxAnswer} characters that stands on its own: what you found or did, with path:line references; the main agent does not see your tool results.`,
  ].join('\n')
}

// runSubagent runs one subagent to its final answer. id is the spawn_agent call's id: the subagent's cards are
// its children (their ids start with it).
export async function runSubagent(d: SubagentDeps, id: string, input: SpawnInput, signal?: AbortSignal): Promise<SpawnResult> {
  const usage = { input: 0, output: 0, cost: 0, costKnown: true }
  let steps = 0
  let calls = 0
  let text = ''
  const childId = (callId: string) => `${id}/${callId}`
  const onEvent = (e: TurnEvent) => {
    switch (e.type) {
      case 'text':
        text += e.delta
        break
      case 'tool-call':
        text = '' // the final answer is what the subagent says after its last call
        break
      case 'tool-result':
        d.onEvent({ ...e, id: childId(e.id) })
        break
      case 'step':
        steps++
        usage.input += e.input
        usage.output += e.output
        if (e.cost === undefined) usage.costKnown = false
        else usage.cost += e.cost
        d.onEvent({ ...e, sub: true })
        break
      case 'error':
        d.onEvent({ type: 'error', message: `subagent “${input.label}”: ${e.message}` })
        break
    }
  }
  const execute: Execute = async (call, sig) => {
    calls++
    const cid = childId(call.id)
    // The card is the parent's child from its first event: it is added here, before the session's execute
    // (which may put it up for approval), so it is nested however the two race.
    d.onEvent({ type: 'tool-call', id: cid, name: call.name, input: call.input, parent: id })
    return d.execute({ ...call, id: cid }, sig)
  }
  const res = await runTurn({
    model: d.model,
    instructions: subagentInstructions(d.instructions, input),
    messages: [{ role: 'user', content: input.task }],
    specs: subagentSpecs(d.specs, !!input.write),
    execute,
    onEvent,
    signal,
    maxSteps: d.maxSteps ?? subagentSteps,
    window: d.window,
    price: d.price,
    reasoning: d.reasoning,
  })
  let answer = text.trim() || (res.finish === 'stopped' ? '(stopped before it answered)' : '(no answer)')
  const truncated = answer.length > maxAnswer
  if (truncated) answer = `${answer.slice(0, maxAnswer)}\n[… cut at ${maxAnswer} characters]`
  const result: SpawnResult = {
    label: input.label,
    answer,
    finish: res.finish,
    ...(truncated ? { truncated } : {}),
    steps,
    tool_calls: calls,
    input_tokens: usage.input,
    output_tokens: usage.output,
    ...(usage.costKnown && steps > 0 ? { cost: usage.cost } : {}),
  }
  // The card shows the outcome even when the parent's turn was stopped and its stream ends without the result.
  d.onEvent({ type: 'tool-result', id, output: result })
  return result
}

// spawnAgentTool is the model's spawn_agent, a tool of the window (the subagent runs the window's model).
export function spawnAgentTool(d: SubagentDeps): Tool {
  return tool({
    description:
      'Hand a self-contained task to a subagent: a fresh agent that works alone with its own context and returns only its final answer. ' +
      'Use it for work that would fill your context with material you do not need afterwards (reading many files to answer one question, ' +
      'surveying a codebase, checking many call sites), and start several in one step to work in parallel. The task must stand on its own: ' +
      'the subagent sees nothing of this conversation. It has the read-only tools unless write is true (its edits and commands are approved as yours are).',
    inputSchema: jsonSchema<SpawnInput>({
      type: 'object',
      properties: {
        label: { type: 'string', description: 'a few words naming the task, shown to the user' },
        task: { type: 'string', description: 'the whole task: what to find or do, where to look, what to report' },
        write: { type: 'boolean', description: 'let the subagent edit files and run commands (default false: read-only)' },
      },
      required: ['label', 'task'],
    }),
    execute: async (input, opts) => {
      if (typeof input.task !== 'string' || !input.task.trim()) return { error: { code: 'invalid_argument', message: 'task is required: the whole task, standing on its own' } }
      return runSubagent(d, opts.toolCallId, { label: String(input.label || 'subagent').slice(0, 80), task: input.task, write: input.write === true }, opts.abortSignal)
    },
  })
}
