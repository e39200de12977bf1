// @vitest-environment jsdom
import { act } from 'react'
import { createRoot, type Root } from 'react-dom/client'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { ConversationMeta, ProjectBridge, ProvidersView, ToolSpec } from '../bridge'
import { ProjectScopeContext } from './project-scope'
import { useAgentConfig } from './agent-config'
import { useConversationStore } from './conversation-store'

// Lists the window reads again on the user's actions, each answered when the test says: an older read answering
// after a newer one must not put back what the user changed since.

// held are the reads on their way, by what they read, in the order they were asked for.
const held = vi.hoisted(() => new Map<string, ((v: unknown) => void)[]>())
const ask = <T,>(what: string) => new Promise<T>((resolve) => held.set(what, [...(held.get(what) ?? []), resolve as (v: unknown) => void]))
vi.mock('../bridge', () => ({
  providers: () => ask('providers'),
  appendConversation: () => Promise.resolve({ id: 'c', title: '', created: '', updated: '' }),
}))

;(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true

const spec = (name: string): ToolSpec => ({ name, title: name, description: name, input_schema: { type: 'object' }, read_only: true, destructive: false, idempotent: true })
const meta = (id: string): ConversationMeta => ({ id, title: id, created: '', updated: '' })
const bridge = {
  workspace: 'w',
  projectSettings: () => ask('settings'),
  toolSpecs: () => ask('specs'),
  instructions: () => Promise.resolve(null),
  onMCPServersChanged: () => () => undefined,
  conversations: () => ask('conversations'),
  deleteConversation: () => Promise.resolve(),
  renameConversation: (id: string, title: string) => Promise.resolve({ ...meta(id), title }),
  loadConversation: () => Promise.resolve({}),
} as unknown as ProjectBridge

let root: Root | null = null
afterEach(() => {
  act(() => root?.unmount())
  root = null
  held.clear()
})

function mount<T>(hook: () => T): { current: T } {
  const out = { current: undefined as T }
  function Probe() {
    out.current = hook()
    return null
  }
  root = createRoot(document.createElement('div'))
  act(() =>
    root!.render(
      <ProjectScopeContext.Provider value={{ bridge, shown: true, report: () => undefined, unsaved: () => undefined }}>
        <Probe />
      </ProjectScopeContext.Provider>,
    ),
  )
  return out
}

const answer = (what: string, i: number, v: unknown) => act(async () => held.get(what)![i](v))
const view = (model: string): ProvidersView => ({ providers: [{ id: 'p', name: 'P', kind: 'openai-compatible', base_url: 'http://127.0.0.1:1/v1', model, has_key: false, context_window: 0 }], active: 'p' })

describe('lists read again while an older read is on its way', () => {
  it('the agent keeps the model picked last when the read after an earlier pick answers late', async () => {
    const cfg = mount(() => useAgentConfig('/p'))
    await answer('providers', 0, view('m0'))
    // Two models picked one after the other: each pick reads the providers again.
    act(() => cfg.current.refreshProviders())
    act(() => cfg.current.refreshProviders())
    await answer('providers', 2, view('m2'))
    await answer('providers', 1, view('m1'))
    expect(cfg.current.provider?.model).toBe('m2')
  })

  it("the agent keeps the tools listed last when an earlier listing answers late (an MCP server's tools came)", async () => {
    const cfg = mount(() => useAgentConfig('/p'))
    await answer('settings', 0, { allowlist: [] })
    act(() => cfg.current.refreshSettings()) // Settings closed: the tools are listed again
    await answer('specs', 1, [spec('read_file'), spec('mcp_search')])
    await answer('specs', 0, [spec('read_file')])
    expect(cfg.current.specs.map((s) => s.name)).toEqual(['read_file', 'mcp_search'])
  })

  it('the conversation list does not bring back a conversation deleted while an earlier read was on its way', async () => {
    const store = mount(() => useConversationStore('/p'))
    await answer('conversations', 0, [meta('a'), meta('b')])
    act(() => store.current.refreshList()) // a save lists them again
    await act(() => store.current.remove('b'))
    await answer('conversations', 2, [meta('a')])
    await answer('conversations', 1, [meta('a'), meta('b')])
    expect(store.current.list.map((m) => m.id)).toEqual(['a'])
  })
})
