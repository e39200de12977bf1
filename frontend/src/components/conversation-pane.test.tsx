// @vitest-environment jsdom
import { act } from 'react'
import { createRoot } from 'react-dom/client'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { ProjectBridge, ProviderView } from '../bridge'
import { ProjectScopeContext } from '../stores/project-scope'

// The bridge is the Wails boundary: here a hand-written backend with one provider that answers.
const provider: ProviderView = { id: 'p', name: 'Stand-in', kind: 'openai-compatible', base_url: 'http://127.0.0.1:1/v1', model: 'm', has_key: false, context_window: 32000 }
// provs is what providers() answers: a test makes another provider active as Settings would.
const provs = vi.hoisted(() => ({ extra: [] as unknown[], active: 'p' }))
vi.mock('../bridge', () => ({
  providers: () => Promise.resolve({ providers: [provider, ...provs.extra], active: provs.active }),
  projectSettings: () => Promise.resolve({ allowlist: [], auto_approve_edits: false }),
  toolSpecs: () => Promise.resolve([{ name: 'read_file', title: 'Read', description: 'Read a file', input_schema: { type: 'object' }, read_only: true, destructive: false, idempotent: true }]),
  onMCPServersChanged: () => () => undefined,
  instructions: () => Promise.resolve(null),
  repoInfo: () => Promise.resolve(null),
  conversations: () => Promise.resolve([]),
  appendConversation: () => Promise.resolve({ id: 'c', title: '', created: '', updated: '' }),
  setConversationUnsaved: () => Promise.resolve(),
  loadConversation: () => Promise.resolve({}),
  renameConversation: () => Promise.resolve(),
  deleteConversation: () => Promise.resolve(),
  checkCall: () => Promise.resolve({ action: 'ask' }),
  diagnose: () => Promise.resolve(null),
  testProvider: () => Promise.resolve({ ok: true, models: ['m'] }),
  setActiveProvider: () => Promise.resolve(),
  loadStepLimit: () => Promise.resolve(50),
  saveStepLimit: (n: number) => Promise.resolve(n),
  toBackendError: (e: unknown) => ({ code: 'internal', message: String(e) }),
  callTool: (name: string) => {
    if (name !== 'find_files') return Promise.reject(new Error(`unexpected ${name}`))
    const answer = { files: [{ path: 'src/main.go' }] }
    if (!finds.hold) return Promise.resolve(answer)
    return new Promise((resolve) => finds.held.push(() => resolve(answer)))
  },
}))
// find_files answers at once, or, while hold is set, when the test releases it (a lookup still on its way).
const finds = vi.hoisted(() => ({ hold: false, held: [] as (() => void)[] }))
// The model is the one a test sets (none: the test types, it does not send).
const llm = vi.hoisted(() => ({ model: null as unknown }))
vi.mock('../llm/providers', () => ({
  createModel: () => {
    if (!llm.model) throw new Error('no model in this test')
    return llm.model
  },
  contextWindow: () => Promise.resolve(32000),
  listModels: (p: { id: string }) => new Promise((resolve) => models.held.push({ of: p.id, answer: resolve })),
}))
// Each provider's model list answers when the test releases it.
const models = vi.hoisted(() => ({ held: [] as { of: string; answer: (list: string[]) => void }[] }))
// The log counts its renders: what a key costs is whether the log (and every card in it) renders again. The
// stand-in is memoised as the real one is, so it renders when its props change (a new session, a new callback).
const log = vi.hoisted(() => ({ renders: 0 }))
vi.mock('./agent-log', async () => {
  const { memo } = await import('react')
  return {
    AgentLog: memo(function AgentLog() {
      log.renders++
      return <div data-testid="agent-log" />
    }),
  }
})

// The pane's other parts (header, footer rows) and the request box count their renders too, each through a
// memoised stand-in that renders the real part, so it renders exactly when the real one would.
const parts = vi.hoisted(() => new Map<string, number>())
async function counted<T extends Record<string, unknown>>(actual: T): Promise<T> {
  const { createElement, memo } = await import('react')
  const out: Record<string, unknown> = { ...actual }
  for (const [name, part] of Object.entries(actual)) {
    if (typeof part !== 'object' || part === null || !('$$typeof' in part)) continue // hooks and helpers as they are
    out[name] = memo(function Counted(props: object) {
      parts.set(name, (parts.get(name) ?? 0) + 1)
      return createElement(part as never, props)
    })
  }
  return out as T
}
vi.mock('./pane-parts', async (importOriginal) => counted(await importOriginal<typeof import('./pane-parts')>()))
vi.mock('./composer', async (importOriginal) => counted(await importOriginal<typeof import('./composer')>()))

;(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true

const mocked = await import('../bridge')
const scope = { bridge: { ...mocked, workspace: 'p-1' } as unknown as ProjectBridge, shown: true, report: () => undefined, unsaved: () => undefined }
const { ConversationPane } = await import('./conversation-pane')

const settle = () => act(async () => {
  for (let i = 0; i < 5; i++) await new Promise((r) => setTimeout(r, 0))
})

// type puts each key's text in the box as the browser does: the value changes, then an input event.
function type(box: HTMLTextAreaElement, keys: string) {
  const setValue = Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value')!.set!
  for (const k of keys) {
    act(() => {
      setValue.call(box, box.value + k)
      box.setSelectionRange(box.value.length, box.value.length)
      box.dispatchEvent(new Event('input', { bubbles: true }))
    })
  }
}

let unmount: (() => void) | null = null
afterEach(() => {
  unmount?.()
  unmount = null
  llm.model = null
  provs.extra = []
  provs.active = 'p'
  models.held = []
  document.body.innerHTML = ''
})

// mount renders the pane; settingsClosed renders it again as Settings closing with changes does.
let settingsClosed = async () => undefined as void
async function mount() {
  const host = document.createElement('div')
  document.body.append(host)
  const r = createRoot(host)
  const noop = () => undefined
  const render = (settingsSeq: number) =>
    act(() =>
      r.render(
        <ProjectScopeContext.Provider value={scope}>
          <ConversationPane project={{ root: '/p', name: 'p' } as never} onOpen={noop} onSettings={noop} settingsSeq={settingsSeq} projectShown onInfo={noop} handle={noop} onNew={noop} onToggleList={noop} />
        </ProjectScopeContext.Provider>,
      ),
    )
  render(0)
  let seq = 0
  settingsClosed = async () => {
    render(++seq)
    await settle()
  }
  unmount = () => act(() => r.unmount())
  await settle()
  return host
}

describe('typing in the request box', () => {
  it('renders the box alone: the log is not rendered again for a key', async () => {
    const host = await mount()
    const box = host.querySelector<HTMLTextAreaElement>('[data-testid="agent-input"]')!
    const send = host.querySelector<HTMLButtonElement>('[data-testid="agent-send"]')!
    expect(send.disabled).toBe(true)
    const before = log.renders
    type(box, 'fix the failing test in the parser')
    expect(box.value).toBe('fix the failing test in the parser')
    expect(log.renders - before).toBe(0)
    // Send follows the box: on once it holds text, off again once it holds only blanks.
    expect(send.disabled).toBe(false)
    act(() => {
      Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value')!.set!.call(box, '  ')
      box.dispatchEvent(new Event('input', { bubbles: true }))
    })
    expect(send.disabled).toBe(true)
  })

  it('still completes an @file mention typed in the box', async () => {
    const host = await mount()
    const box = host.querySelector<HTMLTextAreaElement>('[data-testid="agent-input"]')!
    type(box, 'look at @mai')
    await settle()
    const option = host.querySelector<HTMLLIElement>('[data-testid="mention-option"]')
    expect(option?.textContent).toBe('src/main.go')
    act(() => {
      option!.dispatchEvent(new MouseEvent('mousedown', { bubbles: true, cancelable: true }))
    })
    expect(box.value).toBe('look at @src/main.go ')
  })

  it('keeps the list closed after a pick when a lookup for a key typed before it answers late', async () => {
    const host = await mount()
    const box = host.querySelector<HTMLTextAreaElement>('[data-testid="agent-input"]')!
    type(box, 'look at @ma')
    await settle()
    // The last key's lookup is still on its way when the user picks from the list the one before it opened.
    finds.hold = true
    type(box, 'i')
    const option = host.querySelector<HTMLLIElement>('[data-testid="mention-option"]')
    expect(option?.textContent).toBe('src/main.go')
    act(() => {
      option!.dispatchEvent(new MouseEvent('mousedown', { bubbles: true, cancelable: true }))
    })
    expect(box.value).toBe('look at @src/main.go ')
    finds.hold = false
    expect(finds.held.length).toBe(1)
    act(() => finds.held.splice(0).forEach((release) => release()))
    await settle()
    // Closed: the next Enter sends the request rather than picking again.
    expect(host.querySelector('[data-testid="mention-list"]')).toBeNull()
  })
})

describe('while an answer streams', () => {
  it('renders the log for its pieces and leaves the header, the footer and the request box alone', async () => {
    const { simulateReadableStream } = await import('ai')
    const { MockLanguageModelV4 } = await import('ai/test')
    const pieces = 40
    const usage = { inputTokens: { total: 100, noCache: 100, cacheRead: undefined, cacheWrite: undefined }, outputTokens: { total: 7, text: 7, reasoning: undefined } }
    const chunks = [
      { type: 'text-start', id: 't' },
      ...Array.from({ length: pieces }, (_, i) => ({ type: 'text-delta', id: 't', delta: `piece ${i} ` })),
      { type: 'text-end', id: 't' },
      { type: 'finish', finishReason: { unified: 'stop', raw: undefined }, usage },
    ]
    llm.model = new MockLanguageModelV4({ doStream: async () => ({ stream: simulateReadableStream({ chunks: chunks as never[], chunkDelayInMs: 3 }) }) })
    const host = await mount()
    const box = host.querySelector<HTMLTextAreaElement>('[data-testid="agent-input"]')!
    type(box, 'explain the parser')
    const logBefore = log.renders
    parts.clear()
    act(() => host.querySelector<HTMLButtonElement>('[data-testid="agent-send"]')!.click())
    // The turn ends with the tokens of its one model call in the footer.
    for (let i = 0; i < 300 && !host.textContent?.includes('100 in'); i++) await act(() => new Promise((r) => setTimeout(r, 10)))
    await settle()
    expect(host.querySelector('[data-testid="agent-usage"]')?.textContent).toContain('100 in')
    // The log drew the pieces as they came, a frame's worth at a time.
    expect(log.renders - logBefore).toBeGreaterThanOrEqual(5)
    // The rest rendered for what they show changing (the turn starting and ending, the title, the tokens), a few
    // times however many pieces came.
    for (const part of ['PaneHeader', 'PaneNotes', 'PlanSteps', 'QueuedMessages', 'PendingComments', 'PaneOptions', 'PaneActions', 'Composer']) {
      expect.soft(parts.get(part) ?? 0, part).toBeLessThanOrEqual(4)
    }
    expect(parts.get('PaneActions'), 'Send and Stop are in it').toBeGreaterThanOrEqual(2)
  })
})

describe('the model picker', () => {
  it("does not offer the models of the provider that was active when it was opened, once another is made active", async () => {
    const host = await mount()
    const pick = () => host.querySelector<HTMLSelectElement>('[data-testid="agent-model-pick"]')!
    act(() => pick().dispatchEvent(new FocusEvent('focusin', { bubbles: true })))
    expect(models.held.map((h) => h.of)).toEqual(['p'])
    // Settings makes another provider active while the first one's list is still on its way.
    provs.extra = [{ ...provider, id: 'q', name: 'Other', base_url: 'http://127.0.0.1:2/v1', model: 'q-small' }]
    provs.active = 'q'
    await settingsClosed()
    expect(pick().value).toBe('q-small')
    await act(async () => models.held[0].answer(['p-large', 'p-huge']))
    const offered = () => [...pick().options].map((o) => o.value)
    expect(offered()).toEqual(['q-small'])
    // Opened again, the picker lists the active provider's own models.
    act(() => pick().dispatchEvent(new FocusEvent('focusin', { bubbles: true })))
    expect(models.held.map((h) => h.of)).toEqual(['p', 'q'])
    await act(async () => models.held[1].answer(['q-small', 'q-large']))
    expect(offered()).toEqual(['q-small', 'q-large'])
  })
})
