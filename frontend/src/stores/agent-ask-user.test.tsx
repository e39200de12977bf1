// @vitest-environment jsdom
import { act } from 'react'
import { MockLanguageModelV4 } from 'ai/test'
import { describe, expect, it, vi } from 'vitest'
import type { ProviderView, ToolSpec } from '../bridge'
import { call, mountSession, scopeOver, scripted, startSend, text, until } from '../test/session'

// ask_user in the window: the backend declares it (and refuses it headless); the window's session answers it with
// the user's reply, which is what the model gets back, and never calls the backend for it.
const calls = vi.hoisted(() => [] as string[])
const provider: ProviderView = { id: 'p', name: 'Stand-in', kind: 'openai-compatible', base_url: 'http://127.0.0.1:1/v1', model: 'm', has_key: false, context_window: 32000 }
const specs: ToolSpec[] = [
  {
    name: 'ask_user',
    title: 'Ask the user',
    description: 'Ask the user',
    input_schema: { type: 'object', properties: { question: { type: 'string' }, choices: { type: 'array', items: { type: 'string' } } }, required: ['question'] },
    read_only: true,
    destructive: false,
    idempotent: false,
  },
]
vi.mock('../bridge', () => ({
  providers: () => Promise.resolve({ providers: [provider], active: 'p' }),
  projectSettings: () => Promise.resolve({ allowlist: [], auto_approve_edits: false }),
  toolSpecs: () => Promise.resolve(specs),
  onMCPServersChanged: () => () => undefined,
  instructions: () => Promise.resolve(null),
  repoInfo: () => Promise.resolve(null),
  conversations: () => Promise.resolve([]),
  appendConversation: (_root: string, id: string) => Promise.resolve({ id, title: '', created: '', updated: '' }),
  conversationBlob: () => Promise.reject(new Error('no stored results here')),
  setConversationUnsaved: () => Promise.resolve(),
  loadConversation: () => Promise.resolve({}),
  checkCall: (name: string) => {
    calls.push(`check ${name}`)
    return Promise.resolve({ action: 'allow' })
  },
  diagnose: () => Promise.resolve(null),
  toBackendError: (e: unknown) => ({ code: 'internal', message: String(e) }),
  callTool: (name: string) => {
    calls.push(name)
    if (name === 'get_working_directory') return Promise.resolve({ cwd: '.' })
    return Promise.reject(new Error(`unexpected ${name}`))
  },
}))
vi.mock('../bridge/tool-text', () => ({ toolText: async (_name: string, output: unknown) => JSON.stringify(output) }))
vi.mock('./step-limit', () => ({ stepLimit: () => Promise.resolve(10) }))
;(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true

// The project's view gives its hooks its bridge: here the hand-written one above.
const scope = scopeOver(await import('../bridge'))
const mount = (model: MockLanguageModelV4) => mountSession(scope, model)

// toolResults are the tool results in a request the model received.
const toolResults = (m: MockLanguageModelV4, n: number) => JSON.stringify(m.doStreamCalls[n]?.prompt.filter((p) => p.role === 'tool'))

describe('ask_user', () => {
  it("waits for the user's reply and gives it to the model", async () => {
    const model = scripted([call('q1', 'ask_user', { question: 'Which database?', choices: ['sqlite', 'postgres'] }), text('Postgres it is.')])
    const m = mount(model)
    await until(() => m.now().ready)
    const done = startSend(m.now, 'set up the tests')
    await until(() => m.now().conv.items.some((it) => it.kind === 'tool' && it.name === 'ask_user' && it.state === 'waiting'))
    expect(model.doStreamCalls).toHaveLength(1) // the turn waits
    act(() => void m.now().answer('q1', { kind: 'reply', text: 'postgres' }))
    await act(() => done)
    expect(toolResults(model, 1)).toContain('{\\"answer\\":\\"postgres\\"}')
    expect(m.now().conv.items.find((it) => it.kind === 'tool')).toMatchObject({ state: 'done', output: { answer: 'postgres' } })
    expect(calls.filter((c) => c.includes('ask_user'))).toEqual([]) // answered in the window, not by the backend
    m.unmount()
  })

  it('tells the model the user did not answer when Stop ends the wait', async () => {
    const model = scripted([call('q1', 'ask_user', { question: 'Which database?' }), text('unused')])
    const m = mount(model)
    await until(() => m.now().ready)
    const done = startSend(m.now, 'set up the tests')
    await until(() => m.now().conv.items.some((it) => it.kind === 'tool' && it.state === 'waiting'))
    act(() => m.now().stop())
    await act(() => done)
    expect(m.now().running).toBe(false)
    expect(m.now().conv.items.find((it) => it.kind === 'tool')).toMatchObject({ state: 'failed', error: { code: 'no_answer' } })
    m.unmount()
  })

  it('refuses bad input before asking', async () => {
    const model = scripted([call('q1', 'ask_user', { question: 'Pick', choices: ['a', 'b', 'c', 'd', 'e', 'f', 'g'] }), text('I will decide.')])
    const m = mount(model)
    await until(() => m.now().ready)
    await act(() => m.now().send('go'))
    expect(m.now().conv.items.find((it) => it.kind === 'tool')).toMatchObject({ state: 'failed', error: { code: 'invalid_argument' } })
    expect(toolResults(model, 1)).toContain('at most 6 choices')
    m.unmount()
  })
})
