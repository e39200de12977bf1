import type { ModelMessage } from 'ai'

// Keeping a long conversation inside the model's context window: tool results capped before the model sees them,
// old bulky results elided from what is sent (the saved conversation keeps them), and, when the next request would
// not fit, the older part of the conversation summarised by the model itself (compaction).

// A tool result larger than this goes to the model as its head and tail with a note saying how to get the rest.
export const maxResultChars = 30_000
// Results older than this many user turns, and larger than elideOver characters, are elided from requests.
export const keepTurns = 3
export const elideOver = 2_000
// Compaction starts when a request would fill this share of the window, leaving room for the answer.
export const compactAt = 0.8

// Known context windows by model family, for providers whose model list does not say (checked in order).
const families: [RegExp, number][] = [
  [/claude/i, 200_000],
  [/gpt-4\.1|gpt-5\.?\d*-?(mini|nano)?|o[134](-mini)?\b/i, 200_000],
  [/gpt-4o|gpt-4-turbo|gpt-oss/i, 128_000],
  [/gemini/i, 1_000_000],
  [/deepseek|llama-?3|llama3|mistral-large|mixtral|qwen2\.5|qwen3|kimi|glm-4/i, 128_000],
  [/codestral/i, 256_000],
]

// defaultWindow is a model's context window when neither the provider nor the user says: its family's, else a
// conservative 32k (small local models are often run with less; set it in Settings).
export function defaultWindow(modelId: string): number {
  for (const [re, n] of families) if (re.test(modelId)) return n
  return 32_768
}

// windowFromListing reads a context window from one entry of a provider's model list, under the names providers
// use (OpenRouter context_length, vLLM max_model_len, Anthropic max_input_tokens, others context_window).
export function windowFromListing(entry: Record<string, unknown>): number | undefined {
  for (const k of ['context_window', 'context_length', 'max_input_tokens', 'max_model_len', 'max_context_length', 'input_token_limit']) {
    const v = entry[k]
    if (typeof v === 'number' && v > 0) return v
  }
  const top = entry.top_provider as Record<string, unknown> | undefined
  if (top && typeof top.context_length === 'number') return top.context_length
  return undefined
}

// windowFromOllamaShow reads the context window a model runs with from Ollama's /api/show answer: a num_ctx set in
// its parameters (the Modelfile's choice), else the window it was trained for (model_info's
// "<architecture>.context_length").
export function windowFromOllamaShow(show: Record<string, unknown>): number | undefined {
  if (typeof show.parameters === 'string') {
    const m = /^\s*num_ctx\s+(\d+)\s*$/m.exec(show.parameters)
    if (m && Number(m[1]) > 0) return Number(m[1])
  }
  const info = show.model_info as Record<string, unknown> | undefined
  if (!info || typeof info !== 'object') return undefined
  const arch = info['general.architecture']
  const named = typeof arch === 'string' ? info[`${arch}.context_length`] : undefined
  if (typeof named === 'number' && named > 0) return named
  // A model whose architecture key is missing still has one *.context_length.
  const any = Object.entries(info).find(([k, v]) => k.endsWith('.context_length') && typeof v === 'number' && v > 0)
  return any ? (any[1] as number) : undefined
}

// estimateTokens guesses the tokens of messages from their size: about four characters a token for code and
// English. It is used only for what was added since the provider last reported real usage.
//
// A turn estimates the whole conversation before every step, so a message's size is measured once and kept by the
// message's identity: each step costs only the messages new since the last. Messages are values here (the agent and
// the store replace a message, never change one in place), so a kept size cannot go stale. The sum is exactly the
// length of the whole array's JSON: its brackets, a comma between messages, and each message's own JSON.
export function estimateTokens(messages: ModelMessage[] | string): number {
  if (typeof messages === 'string') return Math.ceil(messages.length / 4)
  let chars = messages.length === 0 ? 2 : messages.length + 1
  for (const m of messages) chars += messageChars(m)
  return Math.ceil(chars / 4)
}

const measured = new WeakMap<ModelMessage, number>()

function messageChars(m: ModelMessage): number {
  let n = measured.get(m)
  if (n === undefined) {
    n = (JSON.stringify(m, imageAsCost) ?? 'null').length
    measured.set(m, n)
  }
  return n
}

// imageAsCost counts an image by what it costs, not by its base64 (a 1 MB screenshot is about 1,600 tokens, not
// 330,000): each counts as 6,400 characters.
function imageAsCost(k: string, v: unknown): unknown {
  return k === 'data' && typeof v === 'string' && v.length > 6400 ? 'x'.repeat(6400) : v
}

type ModelOutput = { type: 'json'; value: never } | { type: 'text'; value: string }

// capOutput is what the model gets of a tool's result: all of it, or when it is larger than max characters its
// head and tail and a note on how to ask for the rest. The window's card still shows all of it.
export function capOutput(toolName: string, output: unknown, max = maxResultChars): ModelOutput {
  const text = JSON.stringify(output) ?? 'null'
  if (text.length <= max) return { type: 'json', value: output as never }
  const head = Math.floor(max * 0.7)
  const tail = Math.floor(max * 0.2)
  const how: Record<string, string> = {
    read_file: 'read a line range with offset and limit',
    search_files: 'narrow the search: a path, a glob, output "files" or "count", or a lower limit',
    find_files: 'narrow it with a path or a more specific pattern',
    list_directory: 'list a subfolder, or use find_files with a pattern',
    exec_shell: 'run the command so it prints less (a narrower test, a filter option of the program)',
  }
  const note = `\n[Rooted: this result is ${text.length.toLocaleString('en')} characters; ${(text.length - head - tail).toLocaleString('en')} in the middle were left out. To see them, ${how[toolName] ?? 'ask for less at a time'}.]\n`
  return { type: 'text', value: text.slice(0, head) + note + text.slice(text.length - tail) }
}

// elideOld returns messages with the bulky tool results of older turns replaced by a short note. Turns are
// counted by user messages; the latest keep of them are sent whole.
export function elideOld(messages: ModelMessage[], keep = keepTurns, over = elideOver): ModelMessage[] {
  let turns = 0
  let cut = 0 // messages before this index belong to turns older than keep
  for (let i = messages.length - 1; i >= 0; i--) {
    if (messages[i].role === 'user') {
      turns++
      if (turns === keep) {
        cut = i
        break
      }
    }
  }
  if (cut === 0) return messages
  return messages.map((m, i) => (i >= cut || m.role !== 'tool' ? m : elided(m, over)))
}

// elided is a tool message with its results larger than over characters replaced by a note. The same message gives
// the same object each time it is asked (while over stays), so the estimate's kept sizes hold across the steps of a
// turn, and a result's size is measured once.
const elisions = new WeakMap<ModelMessage, { over: number; message: ModelMessage }>()
const outputChars = new WeakMap<object, number>()

function elided(m: Extract<ModelMessage, { role: 'tool' }>, over: number): ModelMessage {
  const kept = elisions.get(m)
  if (kept && kept.over === over) return kept.message
  let changed = false
  const content = m.content.map((part) => {
    if (part.type !== 'tool-result') return part
    const output: unknown = part.output
    let size = typeof output === 'object' && output !== null ? outputChars.get(output) : undefined
    if (size === undefined) {
      size = JSON.stringify(output).length
      if (typeof output === 'object' && output !== null) outputChars.set(output, size)
    }
    if (size <= over) return part
    changed = true
    return { ...part, output: { type: 'text' as const, value: `[Rooted: this ${part.toolName} result (${size.toLocaleString('en')} characters) was elided from the conversation to save context; call the tool again if you need it.]` } }
  })
  const message = changed ? { ...m, content } : m
  elisions.set(m, { over, message })
  return message
}

// splitForCompaction divides messages into the older part, to be summarised, and the recent part kept as it is:
// the last keep user turns, or at least the last turn. The split falls just before a user message, so a tool call
// and its result are never separated. older is empty when there is nothing worth summarising.
export function splitForCompaction(messages: ModelMessage[], keep = 2): { older: ModelMessage[]; recent: ModelMessage[] } {
  const starts: number[] = []
  messages.forEach((m, i) => {
    if (m.role === 'user') starts.push(i)
  })
  // Prefer keeping `keep` turns; fall back to fewer when the older part would be empty.
  for (let k = Math.min(keep, starts.length); k >= 1; k--) {
    const at = starts[starts.length - k]
    if (at > 0) return { older: messages.slice(0, at), recent: messages.slice(at) }
  }
  // One long turn: split inside it, after a tool result (every call before it is answered), keeping the last few.
  for (let i = messages.length - 3; i > 0; i--) {
    if (messages[i].role === 'tool') return { older: messages.slice(0, i + 1), recent: messages.slice(i + 1) }
  }
  return { older: [], recent: messages }
}

export const summaryPrompt = [
  'Summarise the conversation so far for yourself, to continue the work from the summary alone: it replaces the',
  'messages above. Keep: the user\'s requests and constraints in their words; what was done (files changed, commands',
  'run and their outcome); what was learned about the code (paths, names, line numbers that matter); open questions',
  'and the next steps. Be concise and factual; no preamble.',
].join(' ')

// summaryMessage is the user message that stands for the summarised part of the conversation.
export function summaryMessage(summary: string): ModelMessage {
  return { role: 'user', content: `[Rooted: the earlier part of this conversation was compacted to fit the model's context window. Summary:]\n\n${summary}` }
}

// compactedMessages puts the summary before the recent part, so the conversation still alternates as providers
// require (a user message followed by the assistant's).
export function compactedMessages(summary: string, recent: ModelMessage[]): ModelMessage[] {
  const head = summaryMessage(summary)
  if (recent[0]?.role === 'user') {
    return [head, { role: 'assistant', content: 'Understood; continuing from the summary.' }, ...recent]
  }
  return [head, ...recent]
}
