// A local stand-in for a remote LLM: it speaks OpenAI's chat-completions streaming protocol (/v1/chat/completions,
// tool calls included), OpenAI's Responses API streamed (/v1/responses, what Codex CLI speaks), Anthropic's Messages
// streaming protocol (/v1/messages), Gemini's generateContent and streamGenerateContent (SSE), and Ollama's own API
// (/api/chat as NDJSON lines, /api/show, /api/tags), and lists models (/v1/models).
// Replies come from a script: a function of the conversation so far, returning text and/or tool calls (or a promise
// of them).
import http from 'node:http'

const sleep = (ms) => new Promise((r) => setTimeout(r, ms))

// normalise turns either protocol's request into {protocol, model, system, messages: [{role, text, toolCalls,
// toolResults}]} so a script reads one shape.
function normalise(protocol, body) {
  const messages = []
  if (protocol === 'ollama') {
    for (const m of body.messages ?? []) {
      if (m.role === 'tool') messages.push({ role: 'tool', toolResults: [{ id: m.tool_call_id, content: String(m.content) }] })
      else messages.push({ role: m.role, text: String(m.content ?? ''), toolCalls: (m.tool_calls ?? []).map((c) => ({ id: c.id, name: c.function.name, input: c.function.arguments })) })
    }
    return { protocol, model: body.model, tools: (body.tools ?? []).map((t) => t.function.name), messages }
  }
  if (protocol === 'openai') {
    for (const m of body.messages ?? []) {
      // A tool message's content is a string, or (as Qwen Code sends it) a list of text parts.
      if (m.role === 'tool') messages.push({ role: 'tool', toolResults: [{ id: m.tool_call_id, content: Array.isArray(m.content) ? textOf(m.content) : String(m.content) }] })
      else
        messages.push({
          role: m.role,
          text: typeof m.content === 'string' ? m.content : (m.content ?? []).map((p) => p.text ?? '').join(''),
          toolCalls: (m.tool_calls ?? []).map((c) => ({ id: c.id, name: c.function.name, input: JSON.parse(c.function.arguments || '{}') })),
        })
    }
    return { protocol, model: body.model, tools: (body.tools ?? []).map((t) => t.function.name), messages }
  }
  if (protocol === 'responses') return normaliseResponses(body)
  if (protocol === 'gemini') return normaliseGemini(body)
  for (const m of body.messages ?? []) {
    const parts = typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : m.content
    const results = parts.filter((p) => p.type === 'tool_result')
    if (results.length) {
      messages.push({
        role: 'tool',
        toolResults: results.map((r) => ({ id: r.tool_use_id, content: typeof r.content === 'string' ? r.content : (r.content ?? []).map((c) => c.text ?? '').join('') })),
      })
    }
    const text = parts.filter((p) => p.type === 'text').map((p) => p.text).join('')
    const calls = parts.filter((p) => p.type === 'tool_use').map((p) => ({ id: p.id, name: p.name, input: p.input }))
    if (text || calls.length) messages.push({ role: m.role, text, toolCalls: calls })
  }
  return { protocol, model: body.model, tools: (body.tools ?? []).map((t) => t.name), messages }
}

// textOf joins the text of a content value that is a string or a list of parts ({text} or {type, text}).
const textOf = (c) => (typeof c === 'string' ? c : Array.isArray(c) ? c.map((p) => (typeof p === 'string' ? p : (p.text ?? ''))).join('') : '')

// normaliseResponses reads a Responses API request: input is a list of items (messages, function calls and their
// outputs); tools are functions, or namespaces holding functions (as Codex groups an MCP server's tools), listed
// as namespace + name with the namespace kept apart in toolSpecs so a script can call one back.
function normaliseResponses(body) {
  const messages = []
  for (const item of typeof body.input === 'string' ? [{ type: 'message', role: 'user', content: body.input }] : (body.input ?? [])) {
    const type = item.type ?? 'message'
    if (type === 'message') messages.push({ role: item.role === 'developer' ? 'system' : item.role, text: textOf(item.content), toolCalls: [] })
    else if (type === 'function_call') {
      const call = { id: item.call_id, name: item.name, namespace: item.namespace, input: JSON.parse(item.arguments || '{}') }
      const last = messages.at(-1)
      if (last?.role === 'assistant') last.toolCalls.push(call)
      else messages.push({ role: 'assistant', text: '', toolCalls: [call] })
    } else if (type === 'function_call_output') messages.push({ role: 'tool', toolResults: [{ id: item.call_id, content: textOf(item.output) }] })
  }
  const toolSpecs = []
  for (const t of body.tools ?? []) {
    if (t.type === 'namespace') for (const f of t.tools ?? []) toolSpecs.push({ name: f.name, namespace: t.name, spec: f })
    else if (t.name) toolSpecs.push({ name: t.name, spec: t })
  }
  return { protocol: 'responses', model: body.model, system: body.instructions, tools: toolSpecs.map((t) => (t.namespace ?? '') + t.name), toolSpecs, messages }
}

// stringsIn joins the strings inside a value: the text of a functionResponse's response, which a client wraps as it
// likes ({output}, {error: {message}}, {content: [{text}]}).
const stringsIn = (v) => (typeof v === 'string' ? [v] : v && typeof v === 'object' ? Object.values(v).flatMap(stringsIn) : [])

// normaliseGemini reads a generateContent request: contents of user and model turns whose parts are text,
// functionCall or functionResponse (its text is the strings in the response the client built; raw keeps the JSON).
function normaliseGemini(body) {
  const messages = []
  for (const c of body.contents ?? []) {
    const parts = c.parts ?? []
    const results = parts.filter((p) => p.functionResponse)
    if (results.length) {
      messages.push({ role: 'tool', toolResults: results.map((p) => ({ id: p.functionResponse.id ?? p.functionResponse.name, name: p.functionResponse.name, content: stringsIn(p.functionResponse.response).join('\n'), raw: JSON.stringify(p.functionResponse.response) })) })
    }
    const text = parts.filter((p) => typeof p.text === 'string' && !p.thought).map((p) => p.text).join('')
    const calls = parts.filter((p) => p.functionCall).map((p) => ({ id: p.functionCall.id ?? p.functionCall.name, name: p.functionCall.name, input: p.functionCall.args ?? {} }))
    if (text || calls.length) messages.push({ role: c.role === 'model' ? 'assistant' : 'user', text, toolCalls: calls })
  }
  const decls = (body.tools ?? []).flatMap((t) => t.functionDeclarations ?? [])
  return { protocol: 'gemini', model: body.model, system: textOf(body.systemInstruction?.parts ?? body.systemInstruction), tools: decls.map((d) => d.name), toolSpecs: decls.map((d) => ({ name: d.name, spec: d })), messages }
}

// chunks splits text into small pieces so the client sees it stream.
const pieces = (text) => text.match(/.{1,6}/gs) ?? []

// tokens is the stand-in's token count of a request: about four characters a token of its messages (system prompt
// included), as real tokenizers give for English and code, so context-window logic sees sizes that grow with the
// conversation. Tool definitions are not counted, so a small window still leaves room to talk.
const tokens = (body) => Math.ceil(JSON.stringify([body.system ?? '', body.messages ?? []]).length / 4)

async function openaiStream(res, reply, n, promptTokens) {
  const id = `chatcmpl-${n}`
  const send = (obj) => res.write(`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created: 1, model: 'scripted', ...obj })}\n\n`)
  send({ choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }] })
  for (const p of pieces(reply.text ?? '')) {
    send({ choices: [{ index: 0, delta: { content: p }, finish_reason: null }] })
    await sleep(5)
  }
  ;(reply.tools ?? []).forEach((t, i) => {
    const args = JSON.stringify(t.input)
    const half = Math.floor(args.length / 2)
    send({ choices: [{ index: 0, delta: { tool_calls: [{ index: i, id: `call_${n}_${i}`, type: 'function', function: { name: t.name, arguments: args.slice(0, half) } }] }, finish_reason: null }] })
    send({ choices: [{ index: 0, delta: { tool_calls: [{ index: i, function: { arguments: args.slice(half) } }] }, finish_reason: null }] })
  })
  send({ choices: [{ index: 0, delta: {}, finish_reason: reply.tools?.length ? 'tool_calls' : 'stop' }] })
  send({ choices: [], usage: { prompt_tokens: promptTokens, completion_tokens: 10, total_tokens: promptTokens + 10 } })
  res.write('data: [DONE]\n\n')
  res.end()
}

async function anthropicStream(res, reply, n, promptTokens) {
  const send = (type, obj) => res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...obj })}\n\n`)
  send('message_start', { message: { id: `msg_${n}`, type: 'message', role: 'assistant', model: 'scripted', content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: promptTokens, output_tokens: 1 } } })
  let index = 0
  if (reply.text) {
    send('content_block_start', { index, content_block: { type: 'text', text: '' } })
    for (const p of pieces(reply.text)) {
      send('content_block_delta', { index, delta: { type: 'text_delta', text: p } })
      await sleep(5)
    }
    send('content_block_stop', { index })
    index++
  }
  for (const [i, t] of (reply.tools ?? []).entries()) {
    send('content_block_start', { index, content_block: { type: 'tool_use', id: `toolu_${n}_${i}`, name: t.name, input: {} } })
    send('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: JSON.stringify(t.input) } })
    send('content_block_stop', { index })
    index++
  }
  send('message_delta', { delta: { stop_reason: reply.tools?.length ? 'tool_use' : 'end_turn', stop_sequence: null }, usage: { output_tokens: 10 } })
  send('message_stop', {})
  res.end()
}

// responsesStream answers /v1/responses as OpenAI does: typed SSE events, a message item whose text arrives in
// deltas, one function_call item per tool call (in its namespace when the script names one), and
// response.completed with the token counts.
async function responsesStream(res, reply, n, promptTokens) {
  let seq = 0
  const send = (type, obj) => res.write(`event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: seq++, ...obj })}\n\n`)
  const response = { id: `resp_${n}`, object: 'response', created_at: 1, status: 'in_progress', model: 'scripted', output: [] }
  send('response.created', { response })
  send('response.in_progress', { response })
  const output = []
  if (reply.text) {
    const id = `msg_${n}`
    const index = output.length
    send('response.output_item.added', { output_index: index, item: { id, type: 'message', role: 'assistant', status: 'in_progress', content: [] } })
    send('response.content_part.added', { item_id: id, output_index: index, content_index: 0, part: { type: 'output_text', text: '', annotations: [] } })
    for (const p of pieces(reply.text)) {
      send('response.output_text.delta', { item_id: id, output_index: index, content_index: 0, delta: p })
      await sleep(5)
    }
    send('response.output_text.done', { item_id: id, output_index: index, content_index: 0, text: reply.text })
    const part = { type: 'output_text', text: reply.text, annotations: [] }
    send('response.content_part.done', { item_id: id, output_index: index, content_index: 0, part })
    const item = { id, type: 'message', role: 'assistant', status: 'completed', content: [part] }
    send('response.output_item.done', { output_index: index, item })
    output.push(item)
  }
  for (const [i, t] of (reply.tools ?? []).entries()) {
    const index = output.length
    const args = JSON.stringify(t.input)
    const item = { id: `fc_${n}_${i}`, type: 'function_call', status: 'completed', call_id: `call_${n}_${i}`, name: t.name, arguments: args, ...(t.namespace ? { namespace: t.namespace } : {}) }
    send('response.output_item.added', { output_index: index, item: { ...item, status: 'in_progress', arguments: '' } })
    send('response.function_call_arguments.delta', { item_id: item.id, output_index: index, delta: args })
    send('response.function_call_arguments.done', { item_id: item.id, output_index: index, arguments: args })
    send('response.output_item.done', { output_index: index, item })
    output.push(item)
  }
  const usage = { input_tokens: promptTokens, input_tokens_details: { cached_tokens: 0 }, output_tokens: 10, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: promptTokens + 10 }
  send('response.completed', { response: { ...response, status: 'completed', output, usage } })
  res.end()
}

// geminiCandidate is one generateContent answer (or streamed chunk): the model's parts, a finish reason on the last.
const geminiChunk = (parts, finish, promptTokens) => ({
  candidates: [{ content: { role: 'model', parts }, index: 0, ...(finish ? { finishReason: 'STOP' } : {}) }],
  ...(finish ? { usageMetadata: { promptTokenCount: promptTokens, candidatesTokenCount: 10, totalTokenCount: promptTokens + 10 } } : {}),
  modelVersion: 'scripted',
})
const geminiParts = (reply) => [...(reply.text ? [{ text: reply.text }] : []), ...(reply.tools ?? []).map((t) => ({ functionCall: { name: t.name, args: t.input } }))]

// geminiStream answers streamGenerateContent?alt=sse: text in pieces, then the function calls whole and the finish.
async function geminiStream(res, reply, promptTokens) {
  const send = (obj) => res.write(`data: ${JSON.stringify(obj)}\r\n\r\n`)
  for (const p of pieces(reply.text ?? '')) {
    send(geminiChunk([{ text: p }], false))
    await sleep(5)
  }
  send(geminiChunk(geminiParts({ tools: reply.tools }), true, promptTokens))
  res.end()
}

// ollamaStream answers /api/chat as Ollama does: one JSON object a line, the text in pieces, tool calls whole (their
// arguments an object), and a last line with done and the token counts.
async function ollamaStream(res, reply, n, promptTokens) {
  const at = new Date().toISOString()
  const send = (obj) => res.write(JSON.stringify({ model: 'scripted', created_at: at, ...obj }) + '\n')
  for (const p of pieces(reply.text ?? '')) {
    send({ message: { role: 'assistant', content: p }, done: false })
    await sleep(5)
  }
  if (reply.tools?.length) {
    send({ message: { role: 'assistant', content: '', tool_calls: reply.tools.map((t, i) => ({ id: `call_${n}_${i}`, function: { name: t.name, arguments: t.input } })) }, done: false })
  }
  send({ message: { role: 'assistant', content: '' }, done: true, done_reason: 'stop', prompt_eval_count: promptTokens, eval_count: 10 })
  res.end()
}

// startFakeLLM serves script on a free local port. requests records every normalised request. The first
// opts.overloaded requests are answered with HTTP 529 (Anthropic's "overloaded"), as a busy provider does.
// opts.ollamaShow is what /api/show answers for a model (its model_info and parameters); shows records the
// models it was asked about.
export async function startFakeLLM(script, opts = {}) {
  const requests = []
  const shows = []
  let overloaded = opts.overloaded ?? 0
  const server = http.createServer(async (req, res) => {
    let raw = ''
    for await (const c of req) raw += c
    if (req.method === 'GET' && req.url === '/v1/models') {
      res.writeHead(200, { 'content-type': 'application/json' })
      // tiny says its context window, as OpenRouter's and vLLM's listings do.
      res.end(JSON.stringify({ object: 'list', data: [{ id: 'scripted', object: 'model' }, { id: 'scripted-large', object: 'model' }, { id: 'tiny', object: 'model', context_length: 4096 }] }))
      return
    }
    if (req.method === 'GET' && req.url === '/api/tags') {
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end(JSON.stringify({ models: [{ name: 'scripted', model: 'scripted' }, { name: 'scripted-large', model: 'scripted-large' }] }))
      return
    }
    if (req.method === 'POST' && req.url === '/api/show') {
      shows.push(JSON.parse(raw).model)
      res.writeHead(opts.ollamaShow ? 200 : 404, { 'content-type': 'application/json' })
      res.end(JSON.stringify(opts.ollamaShow ?? { error: 'model not found' }))
      return
    }
    const url = new URL(req.url, 'http://stand-in')
    if (req.method === 'POST' && url.pathname === '/v1/messages/count_tokens') {
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end(JSON.stringify({ input_tokens: tokens(JSON.parse(raw)) }))
      return
    }
    const gemini = url.pathname.match(/^\/v1(?:beta|alpha)?\/models\/([^/:]+):(generateContent|streamGenerateContent|countTokens)$/)
    if (req.method === 'POST' && gemini?.[2] === 'countTokens') {
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end(JSON.stringify({ totalTokens: Math.ceil(raw.length / 4) }))
      return
    }
    const protocol = { '/v1/chat/completions': 'openai', '/v1/messages': 'anthropic', '/v1/responses': 'responses', '/api/chat': 'ollama' }[url.pathname] ?? (gemini ? 'gemini' : null)
    if (!protocol || req.method !== 'POST') {
      res.writeHead(404).end()
      return
    }
    const body = JSON.parse(raw)
    if (gemini) body.model ??= gemini[1]
    // Gemini says streaming in its path, the others in the body.
    const stream = gemini ? gemini[2] === 'streamGenerateContent' : body.stream === true
    const size = gemini ? Math.ceil(JSON.stringify([body.systemInstruction ?? '', body.contents ?? []]).length / 4) : protocol === 'responses' ? Math.ceil(JSON.stringify([body.instructions ?? '', body.input ?? []]).length / 4) : tokens(body)
    // body is the request as sent, for what the normalised shape leaves out (cache breakpoints).
    const request = { ...normalise(protocol, body), body, headers: req.headers, stream, tokens: size }
    requests.push(request)
    if (overloaded > 0) {
      overloaded--
      res.writeHead(529, { 'content-type': 'application/json' })
      res.end(JSON.stringify({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }))
      return
    }
    const reply = await script(request) // a script may hold its answer (a promise), as a slow model does
    if (protocol === 'gemini') {
      if (stream) {
        res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' })
        await geminiStream(res, reply, request.tokens)
      } else {
        res.writeHead(200, { 'content-type': 'application/json' })
        res.end(JSON.stringify(geminiChunk(geminiParts(reply), true, request.tokens)))
      }
      return
    }
    if (protocol === 'responses' && !stream) {
      res.writeHead(200, { 'content-type': 'application/json' })
      const n = requests.length
      const output = [
        ...(reply.text ? [{ id: `msg_${n}`, type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: reply.text, annotations: [] }] }] : []),
        ...(reply.tools ?? []).map((t, i) => ({ id: `fc_${n}_${i}`, type: 'function_call', status: 'completed', call_id: `call_${n}_${i}`, name: t.name, arguments: JSON.stringify(t.input), ...(t.namespace ? { namespace: t.namespace } : {}) })),
      ]
      res.end(JSON.stringify({ id: `resp_${n}`, object: 'response', status: 'completed', model: 'scripted', output, usage: { input_tokens: request.tokens, output_tokens: 10, total_tokens: request.tokens + 10 } }))
      return
    }
    if (!request.stream) {
      // A plain request (the SDK's generateText, as compaction's summary uses): one JSON answer.
      res.writeHead(200, { 'content-type': 'application/json' })
      const n = requests.length
      res.end(
        JSON.stringify(
          protocol === 'ollama'
            ? { model: 'scripted', created_at: new Date().toISOString(), message: { role: 'assistant', content: reply.text ?? '' }, done: true, done_reason: 'stop', prompt_eval_count: request.tokens, eval_count: 10 }
            : protocol === 'openai'
            ? { id: `chatcmpl-${n}`, object: 'chat.completion', created: 1, model: 'scripted', choices: [{ index: 0, message: { role: 'assistant', content: reply.text ?? '' }, finish_reason: 'stop' }], usage: { prompt_tokens: request.tokens, completion_tokens: 10, total_tokens: request.tokens + 10 } }
            : { id: `msg_${n}`, type: 'message', role: 'assistant', model: 'scripted', content: [{ type: 'text', text: reply.text ?? '' }], stop_reason: 'end_turn', stop_sequence: null, usage: { input_tokens: request.tokens, output_tokens: 10 } },
        ),
      )
      return
    }
    if (protocol === 'ollama') {
      res.writeHead(200, { 'content-type': 'application/x-ndjson' })
      await ollamaStream(res, reply, requests.length, request.tokens)
      return
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' })
    const streamer = { openai: openaiStream, anthropic: anthropicStream, responses: responsesStream }[protocol]
    await streamer(res, reply, requests.length, request.tokens)
  })
  await new Promise((r) => server.listen(0, '127.0.0.1', r))
  const url = `http://127.0.0.1:${server.address().port}`
  return { url, requests, shows, close: () => new Promise((r) => server.close(r)) }
}

// toolResults lists the tool results of a normalised request, in order.
export const toolResults = (request) => request.messages.filter((m) => m.role === 'tool').flatMap((m) => m.toolResults)

// lastTurn is the latest request of the user in a normalised request (user, its text), the tool results the model
// got since (results, in order) and the content of the last of them (last).
export function lastTurn(request) {
  const i = request.messages.findLastIndex((m) => m.role === 'user')
  const user = request.messages[i]?.text ?? ''
  const results = toolResults({ messages: request.messages.slice(i + 1) })
  return { user, results, last: results.at(-1)?.content ?? '' }
}

// answering makes a script of reply that never leaves a request hanging: a reply it cannot make (reply throws) is
// text saying why, which the test then shows.
export function answering(reply) {
  return (request) => {
    try {
      return reply(request)
    } catch (e) {
      return { text: `script error: ${e}` }
    }
  }
}
