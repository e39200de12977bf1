// Rooted's MCP server through the coding agents people use: Claude Code, Codex CLI, opencode, Gemini CLI and Qwen
// Code, each the version pinned in e2e/agents/package-lock.json, each run headless in a throwaway HOME with
// `rooted mcp --root FIXTURE` as its MCP server and the stand-in model server (fake-llm.mjs) as its model, in the
// wire protocol that client speaks. The scripted model reads main.go, runs the failing go test, patches main.go,
// tries to read ../outside.txt, runs a search whose full answer would be hundreds of KB, asks for rm -r and
// searches the web through the user's search endpoint (a local stand-in speaking SearXNG's JSON), then answers.
// Everything is checked from the requests the client sends to the stand-in, that is from what its model was
// shown: the file's numbered lines, the test's output, outside_root, a search result that fits under the client's
// own cap and says how to read on, no call refused for an argument the client injected; and afterwards the patch
// on disk, no Rooted process left and no lock file left behind.
// A second, short session per client starts with no search endpoint in the settings, saves one while the client
// runs, and checks what the client makes of the server's notifications/tools/list_changed: a client that lists
// its tools again offers web_search to its model for the rest of the session, and the search goes through; a client
// known not to (Codex CLI, Qwen Code) is held to keeping its first list, and every client to having been told.
// The MCP traffic passes through mcp-tap.mjs; requests and traffic are kept under test-output/agents/.
import { after, describe, test } from 'node:test'
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:http'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { agentsBin, clients, timeoutMs } from './agent-clients.mjs'
import { startFakeLLM } from './fake-llm.mjs'
import { cleanupAll, makeFixture, onCleanup, outputDir, repoRoot } from './harness.mjs'

const binary = process.env.ROOTED_BINARY || path.join(repoRoot, 'build', 'bin', 'rooted')
const tapScript = path.join(import.meta.dirname, 'mcp-tap.mjs')
const artefacts = path.join(outputDir, 'agents')
mkdirSync(artefacts, { recursive: true })
const goEnv = (name) => execFileSync('go', ['env', name]).toString().trim()

// The search's fixture: a needle every 50 lines of 120-character lines, in enough files that the search's
// unbounded answer (every match with 20 lines of context) runs to hundreds of KB.
const filler = (f, i) => `// ${f} line ${String(i).padStart(5, '0')}: ${'lorem ipsum dolor sit amet '.repeat(4)}`.slice(0, 118)
const bigFile = (f) => Array.from({ length: 2000 }, (_, i) => (i % 50 === 25 ? `// needle ${f}:${i} ${filler(f, i)}` : filler(f, i))).join('\n') + '\n'

const mainGo = 'package main\n\nimport "fmt"\n\n// Add returns the sum of a and b.\nfunc Add(a, b int) int {\n\treturn a - b\n}\n\nfunc main() {\n\tfmt.Println(Add(2, 3))\n}\n'
const mainTestGo = 'package main\n\nimport "testing"\n\nfunc TestAdd(t *testing.T) {\n\tif got := Add(2, 3); got != 5 {\n\t\tt.Errorf("Add(2, 3) = %d, want 5", got)\n\t}\n}\n'

// goFixture is a small Go module with a failing test, committed to git, with outside.txt beside it (outside).
function goFixture(name) {
  const files = { 'go.mod': 'module example.com/fixture\n\ngo 1.22\n', 'main.go': mainGo, 'main_test.go': mainTestGo, 'scratch/keep.txt': 'kept\n' }
  for (const f of ['alpha', 'beta', 'gamma', 'delta']) files[`notes/${f}.txt`] = bigFile(f)
  const dir = makeFixture(name, files)
  writeFileSync(path.join(path.dirname(dir), 'outside.txt'), 'secret outside the project\n')
  const git = (...args) => execFileSync('git', ['-c', 'user.name=Fixture', '-c', 'user.email=fixture@example.com', ...args], { cwd: dir, stdio: 'ignore' })
  git('init', '-q', '-b', 'main')
  git('add', '-A')
  git('commit', '-q', '-m', 'fixture')
  return dir
}

// The scripted conversation, as tool calls in order. `tool` names each of Rooted's tools as the client lists it.
const steps = [
  { tool: 'read_file', input: { path: 'main.go' } },
  { tool: 'exec_shell', input: { command: 'go', args: ['test', './...'] } },
  { tool: 'patch_file', input: { path: 'main.go', search: 'return a - b', replace: 'return a + b' } },
  { tool: 'read_file', input: { path: '../outside.txt' } },
  { tool: 'search_files', input: { query: 'needle', context: 20 } },
  // rm -r is a command the window asks about: over MCP the client's user is asked by elicitation, and a client
  // run headless (or one that cannot ask) has it refused.
  { tool: 'exec_shell', input: { command: 'rm', args: ['-r', 'scratch'] } },
  // Listed only because the user's settings name a search endpoint, and run without asking because a rule allows it.
  { tool: 'web_search', input: { query: 'landlock scoped signals' } },
]
// The list-change scenario: the session starts with no search endpoint in the user's settings, so web_search is not
// listed. The model looks at the working directory; as its result reaches the model, the endpoint is saved (as the
// window saves settings) and the server tells the client its tool list changed. The model lists the directory while
// the client lists the tools again, and then calls web_search if the client now offers it.
const relistSteps = [
  { tool: 'get_working_directory', input: {} },
  { tool: 'list_directory', input: { path: '.' } },
  { tool: 'web_search', input: { query: 'landlock scoped signals' } },
]
const searchHit = { title: 'Landlock: unprivileged access control', url: 'https://docs.kernel.org/userspace-api/landlock.html', content: 'Landlock restricts the ambient rights of a set of processes.' }

// startSearchStandIn serves the JSON of a SearXNG instance's /search?q=…&format=json (403 to any other ask, as
// SearXNG does until json is among its formats) and keeps the queries it was sent.
function startSearchStandIn() {
  const queries = []
  const server = createServer((req, res) => {
    const u = new URL(req.url, 'http://stand-in')
    if (u.pathname !== '/search' || u.searchParams.get('format') !== 'json') {
      res.writeHead(403).end()
      return
    }
    queries.push(u.searchParams.get('q'))
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ query: u.searchParams.get('q'), results: [searchHit] }))
  })
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ url: `http://127.0.0.1:${server.address().port}`, queries, close: () => server.close() })))
}
const finalAnswer = 'Fixed Add: it subtracted; it adds now.'

// ours finds Rooted's tool `base` among the tools a request lists: Claude Code's mcp__rooted__read_file, opencode's
// rooted_read_file, Codex's read_file in the mcp__rooted namespace, Gemini's and Qwen's names.
function ours(request, base) {
  const specs = request.toolSpecs ?? request.tools.map((name) => ({ name }))
  return specs.find((t) => t.namespace?.includes('rooted') && t.name === base) ?? specs.find((t) => t.name !== base && t.name.includes('rooted') && t.name.endsWith(base))
}

// A side request (a title, a summary, a routing or next-speaker check) lists none of Rooted's tools; it gets text,
// or for one that asks for JSON an object that answers the JSON checks the clients make.
function sideReply(request) {
  const config = request.body.generationConfig ?? {}
  if (config.responseMimeType === 'application/json' || config.responseJsonSchema || config.responseSchema) {
    return {
      text: JSON.stringify({ reasoning: 'The task is done.', next_speaker: 'user', model_choice: 'flash', complexity_reasoning: 'A small fix.', complexity_score: 1, confidence: 0, unproductive_state_confidence: 0, unproductive_state_analysis: '' }),
    }
  }
  return { text: 'Fix the failing test' }
}

// clientSchema is the input schema a request declares for the tool it names, in any of the wire protocols.
function clientSchema(request, name) {
  const spec = request.toolSpecs?.find((t) => t.name === name)?.spec
  if (spec) return spec.parametersJsonSchema ?? spec.parameters ?? {}
  const t = (request.body.tools ?? []).find((t) => t.name === name || t.function?.name === name)
  return t?.input_schema ?? t?.function?.parameters ?? {}
}

// rootedSchemas reads the input schemas Rooted declared in tools/list, from the tap's log.
function rootedSchemas(tapLog) {
  const list = mcpTraffic(tapLog).find((t) => t.dir === 'out' && Array.isArray(t.msg.result?.tools))
  return Object.fromEntries((list?.msg.result.tools ?? []).map((t) => [t.name, t.inputSchema ?? {}]))
}

// withInjected adds to a call the arguments a client put into the tool's schema beyond Rooted's own (Gemini CLI's
// wait_for_previous): a real model fills them in, so the scripted one does too, with true for a boolean.
function withInjected(input, schema, rooted) {
  const out = { ...input }
  for (const [k, p] of Object.entries(schema.properties ?? {})) {
    if (!(k in (rooted?.properties ?? {})) && !(k in out) && p.type === 'boolean') out[k] = true
  }
  return out
}

// script plays the conversation: the next step is the number of calls the model has made to Rooted's tools so
// far. Rooted's tools are called as the client offers them: listed directly (Codex, opencode, Gemini CLI), behind
// Qwen Code's tool_call wrapper, or, as Claude Code defers MCP tools by default, loaded once with its ToolSearch
// ("select:NAME,...") and then called by name.
// A ToolSearch loads what the server lists then; a tool listed later (web_search in the list-change scenario) is
// loaded by a ToolSearch of its own once the model is about to call it.
// plan is the scenario's steps; before(i), when given, runs (and is awaited) as the model is about to make call i,
// once, with the results of the calls before it in the request.
function script(calls, tapLog, plan = steps, before = null) {
  const begun = new Set()
  return async (request) => {
    const direct = ours(request, plan[0].tool)
    const wrapper = request.tools.includes('tool_call') ? 'tool_call' : null
    const search = request.tools.includes('ToolSearch') ? 'ToolSearch' : null
    if (!direct && !wrapper && !search) return sideReply(request)
    const made = request.messages.flatMap((m) => m.toolCalls ?? [])
    const done = made.filter(isRootedCall).length
    const step = plan[done]
    if (!step) return { text: finalAnswer }
    if (before && !begun.has(done)) {
      begun.add(done)
      await before(done)
    }
    const spec = ours(request, step.tool)
    if (spec) {
      calls.push(step)
      return { tools: [{ name: spec.name, namespace: spec.namespace, input: withInjected(step.input, clientSchema(request, spec.name), rootedSchemas(tapLog)[step.tool]) }] }
    }
    if (wrapper) {
      calls.push(step)
      return { tools: [{ name: wrapper, input: { name: `mcp__rooted__${step.tool}`, arguments: step.input } }] }
    }
    // A client that lists its tools offers no other way to a tool it does not list: the model says so and stops,
    // where a call of a name not offered would have the client answer with an error, or ask the model again.
    if (!search) return { text: `No ${step.tool} among the tools offered.` }
    const lastSearch = made.findLastIndex((c) => c.name === search)
    if (lastSearch < 0 || made.slice(0, lastSearch).filter(isRootedCall).length !== done) {
      const names = [...new Set(plan.slice(done).map((s) => `mcp__rooted__${s.tool}`))]
      return { tools: [{ name: search, input: { query: `select:${names.join(',')}`, max_results: names.length } }] }
    }
    calls.push(step)
    return { tools: [{ name: `mcp__rooted__${step.tool}`, input: step.input }] }
  }
}
const toolNames = [...new Set([...steps, ...relistSteps].map((s) => s.tool))]
const stepName = (call) => toolNames.find((t) => call.name === t || call.name.endsWith(t)) ?? ''
// isRootedCall tells a call of one of Rooted's tools: named for the rooted server (or in Codex's mcp__rooted
// namespace), or made through Qwen Code's tool_call.
const isRootedCall = (c) => c.name === 'tool_call' || ((c.name.includes('rooted') || c.namespace?.includes('rooted')) && stepName(c) !== '')

// processesUnder lists live processes whose command line names dir (the fixture is named in rooted's --root).
function processesUnder(dir) {
  const found = []
  for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ')
      if (cmdline.includes(dir)) found.push(`${pid}: ${cmdline}`)
    } catch {}
  }
  return found
}

// lockFiles lists files named *.lock (git's index.lock, ref locks, Rooted's cache locks) under dir.
function lockFiles(dir) {
  if (!existsSync(dir)) return []
  return readdirSync(dir, { recursive: true }).filter((f) => path.basename(String(f)).endsWith('.lock')).map((f) => path.join(dir, String(f)))
}

// A session: the fixture, a HOME, the stand-in, the MCP server command (through the tap) and its environment.
// With relist the session is the list-change scenario: its settings start without the search endpoint, which is
// saved as the model is about to make its second call (saveEndpoint); s.relist then holds when it was saved and
// how soon the client listed again.
async function session(name, { relist = false } = {}) {
  const fixture = goFixture(`${name}-project`)
  const home = mkdtempSync(path.join(tmpdir(), `rooted-agent-${name}-home-`))
  onCleanup(() => rmSync(home, { recursive: true, force: true }))
  const tapLog = path.join(artefacts, `${name}.mcp.jsonl`)
  rmSync(tapLog, { force: true })
  const calls = []
  const search = await startSearchStandIn()
  onCleanup(search.close)
  // Rooted's settings in this HOME: the user's search endpoint, and a rule of the project's that allows web_search
  // (a client run headless cannot answer the question it would ask otherwise).
  const configHome = path.join(home, '.config')
  const settingsFile = path.join(configHome, 'rooted', 'settings.json')
  const settings = (user) => JSON.stringify({ user, projects: { [realpathSync(fixture)]: { rules: [{ action: 'allow', tool: 'web_search' }] } } })
  mkdirSync(path.dirname(settingsFile), { recursive: true })
  writeFileSync(settingsFile, settings(relist ? {} : { search_endpoint: search.url }))
  const s = { relist: relist ? {} : null }
  const before = relist ? (i) => i === 1 && saveEndpoint(tapLog, settingsFile, settings({ search_endpoint: search.url }), s.relist) : null
  const llm = await startFakeLLM(script(calls, tapLog, relist ? relistSteps : steps, before))
  onCleanup(llm.close)
  const mcp = { command: process.execPath, args: [tapScript, tapLog, binary, 'mcp', '--root', fixture] }
  // Go's caches stay the machine's, so the go test starts warm; the toolchain is the local one. Rooted reads its
  // settings from this HOME's, whatever a client passes on of its own environment.
  const mcpEnv = { GOCACHE: goEnv('GOCACHE'), GOMODCACHE: goEnv('GOMODCACHE'), GOTOOLCHAIN: 'local', GOFLAGS: '-mod=mod', XDG_CONFIG_HOME: configHome }
  const env = {
    PATH: `${path.dirname(process.execPath)}:${process.env.PATH}`,
    HOME: home,
    XDG_CONFIG_HOME: path.join(home, '.config'),
    XDG_CACHE_HOME: path.join(home, '.cache'),
    XDG_DATA_HOME: path.join(home, '.local', 'share'),
    XDG_STATE_HOME: path.join(home, '.local', 'state'),
    TMPDIR: tmpdir(),
    LANG: 'C.UTF-8',
    TERM: 'dumb',
    NO_COLOR: '1',
    CI: 'true',
    ...mcpEnv,
  }
  return Object.assign(s, { name, fixture, home, tapLog, llm, search, calls, mcp, mcpEnv, env })
}

// How long the list-change scenario waits, after the save, for the client to list the tools again.
const relistWaitMs = 15_000

// saveEndpoint saves the settings naming the search endpoint as the window saves them (a new file renamed over the
// old, configfile.Write), then follows the MCP traffic until the client has listed the tools again and been
// answered with web_search, or relistWaitMs has passed: a client that lists again when told has its new list
// before the model goes on. It records in out when the save was made and, if the client listed again within the
// wait, how soon.
async function saveEndpoint(tapLog, file, text, out) {
  const savedAt = Date.now()
  out.savedAt = savedAt
  writeFileSync(`${file}.new`, text)
  renameSync(`${file}.new`, file)
  const deadline = savedAt + relistWaitMs
  for (;;) {
    const answer = relisted(mcpTraffic(tapLog), savedAt)
    if (answer) out.relistMs = answer.at - savedAt
    if (answer || Date.now() >= deadline) return
    await sleep(100)
  }
}

// relisted finds the answer to a tools/list the client sent since the moment since that lists web_search.
function relisted(traffic, since) {
  const after = traffic.filter((t) => t.at >= since)
  const lists = new Set(after.filter((t) => t.dir === 'in' && t.msg.method === 'tools/list').map((t) => t.msg.id))
  return after.find((t) => t.dir === 'out' && lists.has(t.msg.id) && t.msg.result?.tools?.some((tool) => tool.name === 'web_search'))
}

// modelSaw is every result of Rooted's tools the model was shown over the conversation, in order, from the last
// request (which carries the whole conversation), paired with the call it answers.
function modelSaw(llm) {
  const main = llm.requests.filter((r) => r.messages.some((m) => m.role === 'tool'))
  const last = main.at(-1)
  if (!last) return []
  const callsById = new Map(last.messages.flatMap((m) => m.toolCalls ?? []).map((c) => [c.id, c]))
  return last.messages
    .filter((m) => m.role === 'tool')
    .flatMap((m) => m.toolResults)
    .map((r) => ({ ...r, call: callsById.get(r.id) }))
    .filter((r) => r.call && isRootedCall(r.call))
}

// mcpTraffic reads the tap's log.
function mcpTraffic(tapLog) {
  if (!existsSync(tapLog)) return []
  return readFileSync(tapLog, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l))
}

// Each client's limit on one tool result as its model sees it, and how it marks a result it had to cut (a cut
// result is what the cap on Rooted's side is there to prevent). Claude Code: 50,000 characters (measured: a 45.9 KB
// result passes, a 50.8 KB one does not; its 25,000-token MAX_MCP_OUTPUT_TOKENS is the looser of its two limits),
// then a pointer to a file in its own home and a 2 KB preview. Codex:
// about 12 KB (10,000 tokens of function output), cut in the middle. opencode: 50 KB or 2,000 lines, then a pointer
// to the full output. Gemini CLI: 40,000 characters, then the first 8,000 and the last 32,000. Qwen Code: 25,000
// characters or 1,000 lines, then a short preview and a pointer to a file.
const clientCaps = {
  claude: { chars: 50_000, cut: /exceeds maximum allowed tokens|Output has been saved to|Output too large|<persisted-output>/i },
  codex: { chars: 12_000, cut: /…\d+ (tokens|chars) truncated…/i },
  opencode: { chars: 51_200, lines: 2000, cut: /bytes truncated\.\.\.|Full output saved/i },
  gemini: { chars: 40_000, cut: /Output too large\. Showing first/i },
  qwen: { chars: 25_000, lines: 1000, cut: /Tool output was too large|CONTENT TRUNCATED|Output too large|<persisted-output>/i },
}

// check asserts what the model saw and what the session left behind. The session's own preconditions (the client
// reached the model, started rooted mcp, saw a result for each call) stop it at once; past them every finding is
// collected, so one run names all that a client got wrong.
async function check(s, result) {
  const saw = modelSaw(s.llm)
  const traffic = mcpTraffic(s.tapLog)
  writeFileSync(path.join(artefacts, `${s.name}.requests.json`), JSON.stringify(s.llm.requests.map(({ body, headers, ...rest }) => ({ ...rest, bodyBytes: JSON.stringify(body).length })), null, 1))
  writeFileSync(path.join(artefacts, `${s.name}.saw.json`), JSON.stringify(saw, null, 1))
  const diag = `\n${s.name} exited ${result.code}${result.signal ? ` (${result.signal})` : ''}; stand-in requests: ${s.llm.requests.length}; calls scripted: ${s.calls.length}; results seen: ${saw.length}\nstderr: ${result.err.slice(-2000)}\nstdout: ${result.out.slice(-2000)}\nsee ${artefacts}`
  assert.ok(s.llm.requests.length > 0, `${s.name} never reached the stand-in model${diag}`)
  assert.ok(traffic.some((t) => t.dir === 'in'), `${s.name} never started rooted mcp${diag}`)
  assert.equal(saw.length, steps.length, `the model saw a result for each of the ${steps.length} calls${diag}`)

  const problems = []
  const expect = (ok, what) => ok || problems.push(what)
  const head = (text) => JSON.stringify(text.slice(0, 300))
  const [read, test, patch, escape, search, remove, web] = saw
  expect(/(^|[\s":])1(\t|\\t)package main/.test(read.content) && /return a - b/.test(read.content), `read_file: the model sees the file's numbered lines; it saw ${head(read.content)}`)
  expect(/--- FAIL: TestAdd/.test(test.content) && /Add\(2, 3\) = -1, want 5/.test(test.content), `exec_shell: the model sees the failing test's output; it saw ${head(test.content)}`)
  expect(/replaced:? ?"?1|\+\s*return a \+ b/.test(patch.content) && !/invalid_argument|error /i.test(patch.content), `patch_file: the model sees the change made; it saw ${head(patch.content)}`)
  expect(/outside_root/.test(escape.content), `read_file ../outside.txt: the model sees outside_root; it saw ${head(escape.content)}`)

  const cap = clientCaps[s.name]
  const lines = search.content.split('\n').length
  expect(search.content.length <= cap.chars, `search_files: ${search.content.length} characters, over ${s.name}'s cap of ${cap.chars}`)
  expect(!cap.lines || lines <= cap.lines, `search_files: ${lines} lines, over ${s.name}'s cap of ${cap.lines}`)
  expect(!cap.cut.test(search.content), `search_files: ${s.name} had to cut the result itself: ${head(search.content)}`)
  expect(/needle \w+:\d+/.test(search.content), `search_files: the model sees matches; it saw ${head(search.content)}`)
  // The note is prose: a JSON field named limit or truncated does not tell the model how to read on.
  const prose = search.content.replace(/"[a-z_]+":/g, '')
  expect(/narrow|offset|limit|left out|more/i.test(prose), `search_files: no note on what was left out and how to read on; it ended ${JSON.stringify(search.content.slice(-300))}`)

  // rm -r asked the user: no client run headless says yes (Claude Code answers cancel, Codex decline; the others
  // declare no elicitation), so it is refused as permission_denied and the folder stays.
  expect(/permission_denied/.test(remove.content), `exec_shell rm -r: the model sees permission_denied; it saw ${head(remove.content)}`)
  expect(existsSync(path.join(s.fixture, 'scratch', 'keep.txt')), 'rm -r ran without the user approving it')

  // web_search reached the user's endpoint with the model's query, and the model sees the result's title and URL.
  expect(s.search.queries.includes('landlock scoped signals'), `web_search: the search endpoint was asked ${JSON.stringify(s.search.queries)}`)
  expect(web.content.includes('1 result for') && web.content.includes(searchHit.url) && web.content.includes(searchHit.title), `web_search: the model sees the result's title and URL; it saw ${head(web.content)}`)

  // No call refused for an argument the client added (Gemini's wait_for_previous), as the MCP server answered it.
  const refused = traffic.filter((t) => t.dir === 'out' && /unknown field|additional propert/i.test(JSON.stringify(t.msg.result ?? t.msg.error ?? '')))
  expect(refused.length === 0, `${refused.length} calls refused for an argument the client injected: ${refused.map((t) => JSON.stringify(t.msg).slice(0, 200)).join('; ')}`)

  expect(/return a \+ b/.test(readFileSync(path.join(s.fixture, 'main.go'), 'utf8')), 'the patch is not on disk')
  await leftBehind(s, expect)
  assert.deepEqual(problems, [], `${s.name}: what its model was shown or what the session left is wrong (see ${artefacts})`)
}

// leftBehind expects no process of the session to outlive it and no lock file to be left held.
async function leftBehind(s, expect) {
  // A client may still be reaping its MCP server as it exits: a few seconds' grace, then what is left is left.
  let left = processesUnder(s.fixture)
  for (let i = 0; i < 50 && left.length; i++) {
    await sleep(100)
    left = processesUnder(s.fixture)
  }
  expect(left.length === 0, `processes outlive the session: ${left.join('; ')}`)
  const locks = [...lockFiles(path.join(s.fixture, '.git')), ...lockFiles(path.join(s.home, '.cache', 'rooted'))].filter(stale)
  expect(locks.length === 0, `lock files left behind: ${locks.join(', ')}`)
}

// Whether each client lists the tools again, in the session it is in, when the server tells it the list changed,
// as measured through each. Claude Code (on its subscriptions/listen stream), opencode and Gemini CLI list again
// within milliseconds, and their next request to the model offers web_search. Codex CLI 0.169 handles
// notifications/tools/list_changed only behind its mcp_tool_list_changed feature, "under development" and off by
// default (`codex features list`; with it on, Codex lists again before its next request to the model rather than
// when told); Qwen Code 0.24 makes its MCP clients without the SDK's listChanged option and
// sets no handler for the notification. Those two keep the list they made at start for the session: the tool
// reaches them in their next session (the scenario above, with the endpoint saved from the start).
const relists = { claude: true, codex: false, opencode: true, gemini: true, qwen: false }

// checkRelist asserts the list-change scenario: web_search not offered to the model before the save; after it,
// the server told the client; and a client that lists again offers web_search in its next request, whose call
// reaches the search endpoint and whose result the model sees. A client that does not list again is held to that:
// web_search is offered in none of its requests.
async function checkRelist(client, s, result) {
  const traffic = mcpTraffic(s.tapLog)
  writeFileSync(path.join(artefacts, `${s.name}.requests.json`), JSON.stringify(s.llm.requests.map(({ body, headers, ...rest }) => ({ ...rest, bodyBytes: JSON.stringify(body).length })), null, 1))
  writeFileSync(path.join(artefacts, `${s.name}.relist.json`), JSON.stringify(s.relist, null, 1))
  const diag = `\n${s.name} exited ${result.code}${result.signal ? ` (${result.signal})` : ''}; stand-in requests: ${s.llm.requests.length}; calls scripted: ${s.calls.map((c) => c.tool).join(', ')}; after the save: ${JSON.stringify(s.relist)}\nstderr: ${result.err.slice(-2000)}\nstdout: ${result.out.slice(-2000)}\nsee ${artefacts}`
  assert.ok(s.llm.requests.length > 0, `${s.name} never reached the stand-in model${diag}`)
  assert.ok(traffic.some((t) => t.dir === 'in'), `${s.name} never started rooted mcp${diag}`)
  assert.ok(s.relist.savedAt, `the model never saw get_working_directory's result, so the endpoint was never saved${diag}`)
  const notified = traffic.some((t) => t.at >= s.relist.savedAt && t.dir === 'out' && t.msg.method === 'notifications/tools/list_changed')
  const listedAgain = Boolean(relisted(traffic, s.relist.savedAt))

  const problems = []
  const expect = (ok, what) => ok || problems.push(what)
  // Offered in a request: listed directly, or (Claude Code) loaded by a ToolSearch; Qwen Code names the tools its
  // tool_call reaches in a message of its own.
  const offers = (r) => Boolean(ours(r, 'web_search')) || r.messages.some((m) => m.role !== 'tool' && m.text?.includes('mcp__rooted__web_search'))
  const main = s.llm.requests.filter((r) => ours(r, 'get_working_directory') || r.tools.includes('tool_call') || r.tools.includes('ToolSearch'))
  const early = main.filter((r) => r.messages.flatMap((m) => m.toolCalls ?? []).filter(isRootedCall).length < 1)
  expect(early.length > 0 && !early.some(offers), 'web_search was offered before the search endpoint was saved')
  expect(notified, 'the server did not send notifications/tools/list_changed after the settings were saved')
  if (relists[client]) {
    expect(listedAgain, `${s.name} did not list the tools again after the save`)
    expect(main.some(offers), `${s.name} never offered its model web_search after listing again`)
    const web = modelSaw(s.llm).find((r) => stepName(r.call) === 'web_search')
    expect(s.search.queries.includes('landlock scoped signals'), `web_search: the search endpoint was asked ${JSON.stringify(s.search.queries)}`)
    expect(web?.content.includes(searchHit.url) && web?.content.includes(searchHit.title), `web_search: the model sees the result's title and URL; it saw ${JSON.stringify(web?.content.slice(0, 300))}`)
  } else {
    expect(!listedAgain, `${s.name} listed the tools again: it is marked as one that does not (relists)`)
    expect(!main.some(offers), `${s.name} offered web_search without listing again`)
    expect(s.search.queries.length === 0, `web_search reached the search endpoint from a client that never listed it: ${JSON.stringify(s.search.queries)}`)
  }
  await leftBehind(s, expect)
  assert.deepEqual(problems, [], `${s.name}: the tool list's change did not reach its model as expected${diag}`)
}

// stale tells a lock left behind: a git *.lock file exists only while git holds it; Rooted's rooted.lock is a
// lasting file that processes flock, so it is stale only while some process still holds it.
function stale(file) {
  if (path.basename(file) !== 'rooted.lock') return true
  try {
    execFileSync('flock', ['--nonblock', '--conflict-exit-code', '99', file, 'true'])
    return false
  } catch {
    return true
  }
}

// approvalRoundTrip follows the rm -r call through the MCP traffic: the calls made for it (a 2026-07-28 client
// calls again with its inputResponses), any elicitation/create the server sent and the client's answer, the
// final result, and the milliseconds from the first call to that result.
function approvalRoundTrip(traffic) {
  const isRm = (t) => t.dir === 'in' && t.msg.method === 'tools/call' && t.msg.params?.arguments?.command === 'rm'
  const calls = traffic.filter(isRm)
  if (!calls.length) return null
  const ids = new Set(calls.map((c) => c.msg.id))
  const answers = traffic.filter((t) => t.dir === 'out' && ids.has(t.msg.id))
  const elicit = traffic.filter((t) => t.dir === 'out' && t.msg.method === 'elicitation/create')
  const elicitIds = new Set(elicit.map((e) => e.msg.id))
  const replies = traffic.filter((t) => t.dir === 'in' && !t.msg.method && elicitIds.has(t.msg.id))
  const last = answers.at(-1)
  return {
    calls: calls.map((c) => ({ inputResponses: c.msg.params.inputResponses })),
    answers: answers.map((a) => JSON.stringify(a.msg.result ?? a.msg.error).slice(0, 400)),
    elicitations: elicit.map((e) => e.msg.params),
    replies: replies.map((r) => r.msg.result ?? r.msg.error),
    ms: last ? last.at - calls[0].at : null,
  }
}

// observe writes what the model received and what the client declared to test-output/agents/NAME.observed.json.
function observe(s) {
  const traffic = mcpTraffic(s.tapLog)
  // MCP 2026-07-28 clients say who they are in server/discover's _meta; earlier ones in initialize.
  const hellos = traffic.filter((t) => t.dir === 'in' && (t.msg.method === 'initialize' || t.msg.method === 'server/discover'))
  const meta = (m) => m.params?._meta ?? {}
  const saw = modelSaw(s.llm)
  const obs = {
    client: s.name,
    handshakes: hellos.map((h) => ({
      method: h.msg.method,
      protocolVersion: h.msg.params?.protocolVersion ?? meta(h.msg)['io.modelcontextprotocol/protocolVersion'],
      clientInfo: h.msg.params?.clientInfo ?? meta(h.msg)['io.modelcontextprotocol/clientInfo'],
      capabilities: h.msg.params?.capabilities ?? meta(h.msg)['io.modelcontextprotocol/clientCapabilities'],
      answer: JSON.stringify(traffic.find((t) => t.dir === 'out' && t.msg.id === h.msg.id)?.msg ?? null).slice(0, 300),
    })),
    methods: [...new Set(traffic.filter((t) => t.dir === 'in' && t.msg.method).map((t) => t.msg.method))],
    toolCalls: traffic.filter((t) => t.dir === 'in' && t.msg.method === 'tools/call').map((t) => t.msg.params),
    results: saw.map((r) => ({ call: r.call?.name, input: r.call?.input, length: r.content.length, head: r.content.slice(0, 300), tail: r.content.slice(-300) })),
    approval: approvalRoundTrip(traffic),
  }
  writeFileSync(path.join(artefacts, `${s.name}.observed.json`), JSON.stringify(obs, null, 1))
  return obs
}

describe('Rooted through five coding agents', { timeout: 20 * 60_000 }, () => {
  after(cleanupAll)

  const only = process.env.ROOTED_AGENTS?.split(',')
  for (const [name, start] of Object.entries(clients)) {
    // ROOTED_AGENTS=claude,codex narrows a developer's run; make test runs every client.
    if (only && !only.includes(name)) continue
    test(`${name}: the model reads the file and the test's output, the patch lands, an escape is refused, a big search is capped, rm -r waits for the user`, { timeout: timeoutMs + 60_000 }, async () => {
      assert.ok(existsSync(path.join(agentsBin, name)), `${name} is not installed: run make test (or npm install in frontend/e2e/agents)`)
      // The clients run on the node that runs this test (Gemini CLI and Qwen Code need 22; make puts it first on PATH).
      assert.ok(Number(process.versions.node.split('.')[0]) >= 22, `the agent CLIs need Node.js 22 or newer, not ${process.version}: run through make, or put Node.js 22 first on PATH`)
      const s = await session(name)
      const result = await start(s)
      observe(s)
      await check(s, result)
    })
    test(`${name}: a search endpoint saved mid-session brings web_search to the model`, { timeout: timeoutMs + 60_000 }, async () => {
      const s = await session(`${name}-relist`, { relist: true })
      const result = await start(s)
      await checkRelist(name, s, result)
    })
  }
})
