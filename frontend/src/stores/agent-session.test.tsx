// @vitest-environment jsdom
import { act } from 'react'
import { createRoot } from 'react-dom/client'
import { simulateReadableStream } from 'ai'
import { MockLanguageModelV4 } from 'ai/test'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { ProjectScopeContext } from './project-scope'
import { held, type Held } from '../test/held'
import { call, mountSession, scopeOver, scripted, startSend, text, until, usage, type Chunk, type Session } from '../test/session'
import type { ProviderView, ToolSpec } from '../bridge'
import type { Conversation, ToolItem } from '../agent/conversation'
import type { ConvEvent } from '../agent/conversation-events'
import { useAgentSession } from './agent-session'

// The bridge is the Wails boundary: here a hand-written backend that records what the session asked of it.
const backend = vi.hoisted(() => ({
  calls: [] as { name: string; args: Record<string, unknown>; conversation?: string }[],
  saved: [] as { id: string; body: { items: unknown[] } }[],
  failWrite: false,
  failSave: false,
  unsaved: '',
  // The project's MCP server: up (its tools listed) or still starting, and what releases a Settled held meanwhile.
  mcpUp: true,
  settle: null as Held<never[]> | null,
}))
const provider: ProviderView = { id: 'p', name: 'Stand-in', kind: 'openai-compatible', base_url: 'http://127.0.0.1:1/v1', model: 'm', has_key: false, context_window: 32000 }
const specs: ToolSpec[] = [
  { name: 'read_file', title: 'Read', description: 'Read a file', input_schema: { type: 'object', properties: { path: { type: 'string' } } }, read_only: true, destructive: false, idempotent: true },
  { name: 'write_file', title: 'Write', description: 'Write a file', input_schema: { type: 'object', properties: { path: { type: 'string' }, content: { type: 'string' } } }, read_only: false, destructive: true, idempotent: true },
]
const addSpec: ToolSpec = { name: 'mcp__calc__add', title: 'Add', description: 'Add two numbers', input_schema: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } } }, read_only: false, destructive: false, idempotent: false }
vi.mock('../bridge', () => ({
  providers: () => Promise.resolve({ providers: [provider], active: 'p' }),
  projectSettings: () => Promise.resolve({ allowlist: [], auto_approve_edits: false }),
  toolSpecs: () => Promise.resolve(backend.mcpUp ? [...specs, addSpec] : specs),
  settledMCPServers: () => (backend.mcpUp ? Promise.resolve([]) : (backend.settle = held<never[]>()).promise),
  onMCPServersChanged: () => () => undefined,
  instructions: () => Promise.resolve(null),
  repoInfo: () => Promise.resolve(null),
  conversations: () => Promise.resolve([{ id: 'c-saved', title: 'Add is broken', created: '2026-11-24T00:00:00Z', updated: '2026-11-24T00:00:00Z' }]),
  // The store keeps what the events make of the conversation, as the Go store does.
  appendConversation: async (_root: string, id: string, events: ConvEvent[]) => {
    if (backend.failSave) throw Object.assign(new Error('conversations: mkdir /data/conversations/p: not a directory'), { code: 'internal' })
    const { applyEvents } = await import('../agent/conversation-events')
    const { newConversation } = await import('../agent/conversation')
    const prev = backend.saved.filter((x) => x.id === id).at(-1)?.body ?? { ...newConversation(), id }
    backend.saved.push({ id, body: applyEvents(prev as Conversation, events) })
    return { id, title: '', created: '', updated: '' }
  },
  conversationBlob: () => Promise.reject(new Error('no stored results here')),
  setConversationUnsaved: (reason: string) => {
    backend.unsaved = reason
    return Promise.resolve()
  },
  loadConversation: () => Promise.resolve({}),
  renameConversation: () => Promise.resolve(),
  deleteConversation: () => Promise.resolve(),
  checkCall: () => Promise.resolve({ action: 'ask' }),
  diagnose: () => Promise.resolve(null),
  toBackendError: (e: unknown) => ({ code: (e as { code?: string }).code ?? 'internal', message: String((e as Error).message ?? e) }),
  runTool: () => {
    throw new Error('no commands here')
  },
  callTool: (name: string, args: Record<string, unknown>, conversation?: string) => {
    backend.calls.push({ name, args, conversation })
    if (name === 'get_working_directory') return Promise.resolve({ cwd: '.' })
    if (name === 'read_file') return Promise.resolve({ path: args.path, content: 'one\n' })
    if (name === 'write_file' && backend.failWrite) return Promise.reject(Object.assign(new Error('a.txt: the disk is full'), { code: 'io_error' }))
    if (name === 'write_file' && args.dry_run) return Promise.resolve({ path: 'a.txt', diff: '+hello' })
    if (name === 'write_file') return Promise.resolve({ path: 'a.txt', bytes: 5, backup: 'snap1', diff: '+hello' })
    if (name === 'mcp__calc__add') return Promise.resolve({ content: [{ type: 'text', text: String(Number(args.a) + Number(args.b)) }] })
    return Promise.reject(new Error(`unexpected ${name}`))
  },
}))
vi.mock('../bridge/tool-text', () => ({ toolText: async (_name: string, output: unknown) => JSON.stringify(output) }))

;(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true

// The project's view gives its hooks its bridge: here the hand-written one above.
const scope = scopeOver(await import('../bridge'))
const mount = (model: MockLanguageModelV4) => mountSession(scope, model)

// mountTwo mounts two sessions of the one project side by side, as the agent panel keeps a pane per conversation
// that runs.
function mountTwo(a: MockLanguageModelV4, b: MockLanguageModelV4) {
  const s: { a: Session | null; b: Session | null } = { a: null, b: null }
  function A() {
    s.a = useAgentSession({ root: '/p', cwd: '.' } as never, () => a)
    return null
  }
  function B() {
    s.b = useAgentSession({ root: '/p', cwd: '.' } as never, () => b)
    return null
  }
  const r = createRoot(document.createElement('div'))
  act(() =>
    r.render(
      <ProjectScopeContext.Provider value={scope}>
        <A />
        <B />
      </ProjectScopeContext.Provider>,
    ),
  )
  return { a: () => s.a as unknown as Session, b: () => s.b as unknown as Session, unmount: () => act(() => r.unmount()) }
}

afterEach(() => {
  backend.calls = []
  backend.saved = []
  backend.failWrite = false
  backend.failSave = false
  backend.mcpUp = true
  backend.settle = null
})

describe('two sessions of one project at once', () => {
  it('each call carries its own conversation; an approval and Stop act on their own session only', async () => {
    const two = mountTwo(scripted([call('a1', 'write_file', { path: 'a.txt', content: 'from a' }), text('A is done.')]), scripted([call('b1', 'write_file', { path: 'b.txt', content: 'from b' }), text('B is done.')]))
    await until(() => two.a().ready && two.b().ready)
    const doneA = startSend(two.a, 'write a')
    const doneB = startSend(two.b, 'write b')
    const waiting = (s: Session, id: string) => s.conv.items.some((it) => it.kind === 'tool' && it.id === id && it.state === 'waiting')
    await until(() => waiting(two.a(), 'a1') && waiting(two.b(), 'b1'))
    const idA = two.a().conv.id
    const idB = two.b().conv.id
    expect(idA).not.toBe(idB)
    // Each dry run (what the approval card shows) went out as its own conversation's.
    expect(backend.calls.filter((c) => c.name === 'write_file').map((c) => [c.args.content, c.conversation])).toEqual([
      ['from a', idA],
      ['from b', idB],
    ])
    // B's answer given to A's session settles nothing; A's own does, and B still waits.
    act(() => void two.a().answer('b1', { kind: 'once' }))
    expect(waiting(two.b(), 'b1')).toBe(true)
    act(() => void two.a().answer('a1', { kind: 'once' }))
    await act(() => doneA)
    expect(two.a().running).toBe(false)
    expect(two.a().conv.items.at(-1)).toMatchObject({ kind: 'assistant', text: 'A is done.' })
    expect(two.b().running).toBe(true)
    expect(waiting(two.b(), 'b1')).toBe(true)
    expect(backend.calls.filter((c) => c.name === 'write_file' && !c.args.dry_run).map((c) => [c.args.content, c.conversation])).toEqual([['from a', idA]])
    // Stop in B stops B: its call is denied, A's conversation is as it was.
    const aBefore = two.a().conv
    act(() => two.b().stop())
    await act(() => doneB)
    expect(two.b().running).toBe(false)
    expect(two.b().conv.items.find((it) => it.kind === 'tool')).toMatchObject({ state: 'denied' })
    expect(two.a().conv).toBe(aBefore)
    expect(backend.calls.filter((c) => c.name === 'write_file' && !c.args.dry_run)).toHaveLength(1)
    two.unmount()
  })

  it("records a file the user @mentions as read by the conversation that sent it", async () => {
    const two = mountTwo(scripted([text('Read it.')]), scripted([text('Nothing.')]))
    await until(() => two.a().ready && two.b().ready)
    await act(() => two.a().send('look at @notes.txt'))
    const reads = backend.calls.filter((c) => c.name === 'read_file')
    expect(reads).toEqual([{ name: 'read_file', args: { path: 'notes.txt', offset: undefined, limit: undefined }, conversation: two.a().conv.id }])
    two.unmount()
  })
})

// sendWhileStarting opens a session while the project's MCP server is still starting and sends request from it; it
// gives the session back once the turn waits for the server to settle.
async function sendWhileStarting(model: MockLanguageModelV4, request: string) {
  backend.mcpUp = false
  const m = mount(model)
  await until(() => m.now().ready)
  const done = startSend(m.now, request)
  await until(() => backend.settle !== null)
  return { m, done }
}

describe('useAgentSession', () => {
  it("lists the project's saved conversations as soon as it opens", async () => {
    const m = mount(scripted([text('hi')]))
    await until(() => m.now().list.length > 0)
    expect(m.now().list.map((c) => c.title)).toEqual(['Add is broken'])
    m.unmount()
  })

  it('asks before an edit, shows its diff, records the snapshot on the request and saves the conversation', async () => {
    const m = mount(scripted([call('w1', 'write_file', { path: 'a.txt', content: 'hello' }), text('Wrote a.txt.')]))
    await until(() => m.now().ready)
    const done = startSend(m.now, 'write hello to a.txt')
    await until(() => m.now().conv.items.some((it) => it.kind === 'tool' && it.state === 'waiting' && it.preview === '+hello'))
    expect(backend.calls.filter((c) => c.name === 'write_file' && !c.args.dry_run)).toEqual([])
    act(() => void m.now().answer('w1', { kind: 'once' }))
    await act(() => done)
    const s = m.now()
    expect(s.running).toBe(false)
    const tool = s.conv.items.find((it): it is ToolItem => it.kind === 'tool')
    expect(tool).toMatchObject({ state: 'done', diff: '+hello' })
    expect(s.conv.items[0]).toMatchObject({ kind: 'user', text: 'write hello to a.txt', snapshot: 'snap1' })
    expect(s.conv.items.at(-1)).toMatchObject({ kind: 'assistant', text: 'Wrote a.txt.' })
    expect(s.conv.usage.input).toBe(200)
    expect(backend.saved.at(-1)?.body.items).toHaveLength(s.conv.items.length)
    m.unmount()
  })

  it("waits for an MCP server still starting, so the request goes with its tools and its call runs", async () => {
    const model = scripted([call('m1', 'mcp__calc__add', { a: 40, b: 2 }), text('The sum is 42.')])
    // The project just opened, or its servers restarted.
    const { m, done } = await sendWhileStarting(model, 'add 40 and 2 with the calculator')
    expect(model.doStreamCalls).toHaveLength(0) // held until the server has started
    backend.mcpUp = true
    act(() => backend.settle!.resolve([]))
    await until(() => m.now().conv.items.some((it) => it.kind === 'tool' && it.name === 'mcp__calc__add' && it.state === 'waiting'))
    act(() => void m.now().answer('m1', { kind: 'once' }))
    await act(() => done)
    expect(model.doStreamCalls[0].tools?.map((t) => t.name)).toContain('mcp__calc__add')
    expect(m.now().conv.items.find((it): it is ToolItem => it.kind === 'tool')).toMatchObject({ name: 'mcp__calc__add', state: 'done' })
    expect(m.now().conv.items.at(-1)).toMatchObject({ kind: 'assistant', text: 'The sum is 42.' })
    m.unmount()
  })

  it('ends the wait for a starting MCP server at Stop, with no request sent', async () => {
    const model = scripted([text('never asked')])
    const { m, done } = await sendWhileStarting(model, 'add 40 and 2 with the calculator')
    act(() => m.now().stop())
    await act(() => done)
    expect(m.now().running).toBe(false)
    expect(model.doStreamCalls).toHaveLength(0)
    m.unmount()
  })

  it('says a save failed until one succeeds, keeps the conversation open meanwhile, and then saves all of it', async () => {
    backend.failSave = true
    const m = mount(scripted([text('First answer.'), text('Second answer.')]))
    await until(() => m.now().ready)
    await act(() => m.now().send('one'))
    expect(m.now().saveError?.message).toContain('not a directory')
    expect(backend.unsaved).toContain('not a directory') // closing the window asks first
    await act(() => m.now().send('two'))
    const shown = m.now().conv
    let closed = true
    await act(async () => {
      closed = await m.now().startNew()
    })
    expect(closed).toBe(false)
    expect(m.now().conv.id).toBe(shown.id)
    expect(m.now().saveError).not.toBeNull()
    backend.failSave = false
    await act(() => new Promise((r) => setTimeout(r, 2300))) // the next try
    await until(() => m.now().saveError === null)
    expect(backend.unsaved).toBe('')
    const stored = backend.saved.at(-1)?.body as Conversation
    expect(stored.items.map((it) => ('text' in it ? it.text : it.kind))).toEqual(shown.items.map((it) => ('text' in it ? it.text : it.kind)))
    expect(stored.messages).toHaveLength(shown.messages.length)
    m.unmount()
  })

  it('gives the model a denial with the reason, and never writes', async () => {
    const m = mount(scripted([call('w1', 'write_file', { path: 'a.txt', content: 'x' }), text('OK, I will not.')]))
    await until(() => m.now().ready)
    const done = startSend(m.now, 'write x')
    await until(() => m.now().conv.items.some((it) => it.kind === 'tool' && it.state === 'waiting'))
    act(() => void m.now().answer('w1', { kind: 'deny', reason: 'not that file' }))
    await act(() => done)
    expect(m.now().conv.items.find((it) => it.kind === 'tool')).toMatchObject({ state: 'denied' })
    expect(backend.calls.filter((c) => c.name === 'write_file' && !c.args.dry_run)).toEqual([])
    m.unmount()
  })

  it('is ready for the next request after the provider fails, and after stop', async () => {
    const m = mount(scripted([new Error('connection refused'), text('Hello again.')]))
    await until(() => m.now().ready)
    await act(() => m.now().send('hi'))
    expect(m.now().running).toBe(false)
    expect(m.now().conv.items.some((it) => it.kind === 'notice' && it.tone === 'error' && it.text.includes('connection refused'))).toBe(true)
    await act(() => m.now().send('hi again'))
    expect(m.now().running).toBe(false)
    expect(m.now().conv.items.at(-1)).toMatchObject({ kind: 'assistant', text: 'Hello again.' })
    m.unmount()
  })

  it('shows a failed edit with the backend code and hands it to the model', async () => {
    backend.failWrite = true
    const m = mount(scripted([call('w1', 'write_file', { path: 'a.txt', content: 'x' }), text('The disk is full.')]))
    await until(() => m.now().ready)
    const done = startSend(m.now, 'write x')
    await until(() => m.now().conv.items.some((it) => it.kind === 'tool' && it.state !== 'running'))
    expect(m.now().conv.items.find((it) => it.kind === 'tool')).toMatchObject({ state: 'failed', error: { code: 'io_error' } })
    await act(() => done)
    expect(m.now().running).toBe(false)
    m.unmount()
  })
})

describe('an answer streaming in', () => {
  it('is drawn once a frame, not once a piece, and whole when the turn ends', async () => {
    const pieces = 200
    const chunks: Chunk[] = [
      { type: 'text-start', id: 't' },
      ...Array.from({ length: pieces }, (_, i) => ({ type: 'text-delta', id: 't', delta: `w${i} ` })),
      { type: 'text-end', id: 't' },
      { type: 'finish', finishReason: { unified: 'stop', raw: undefined }, usage },
    ]
    // Each piece comes in a task of its own, a millisecond after the one before, as a provider's stream does.
    const model = new MockLanguageModelV4({ doStream: async () => ({ stream: simulateReadableStream({ chunks: chunks as never[], chunkDelayInMs: 1 }) }) })
    const m = mount(model)
    const now = m.now
    await until(() => now().ready)
    // Outside act(), React renders when the page would (act() would hold every render until its end).
    const actEnv = globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }
    actEnv.IS_REACT_ACT_ENVIRONMENT = false
    const before = m.renders()
    try {
      await now().send('explain')
      for (let i = 0; i < 20 && now().running; i++) await new Promise((res) => setTimeout(res, 5))
    } finally {
      actEnv.IS_REACT_ACT_ENVIRONMENT = true
    }
    const answer = Array.from({ length: pieces }, (_, i) => `w${i} `).join('')
    expect(now().running).toBe(false)
    expect(now().conv.items.filter((it) => it.kind === 'assistant')).toMatchObject([{ text: answer }])
    // A render a piece is 200 and more; once a frame (16 ms, the pieces a millisecond or so apart) a few dozen, more
    // on a loaded machine, where the pieces come further apart.
    expect(m.renders() - before).toBeLessThan(pieces / 2)
    m.unmount()
  })
})
