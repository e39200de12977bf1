// @vitest-environment jsdom
import { act } from 'react'
import { createRoot } from 'react-dom/client'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Item } from '../agent/conversation'
import type { ProjectBridge } from '../bridge'
import { ProjectScopeContext } from '../stores/project-scope'
import type { Session } from './log-item'

// The cards and answers count their renders by item: what a streamed piece of an answer costs is how many items
// render again.
const renders = vi.hoisted(() => new Map<string, number>())
const count = (id: string) => renders.set(id, (renders.get(id) ?? 0) + 1)
vi.mock('./tool-card', () => ({
  ToolCard: ({ item }: { item: { id: string } }) => {
    count(item.id)
    return <div data-testid="tool-card" />
  },
}))
vi.mock('./message-text', () => ({
  MessageText: ({ text }: { text: string }) => {
    count(text.slice(0, 6))
    return <div>{text}</div>
  },
}))

;(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true
// jsdom lays nothing out: the log's scroller and rows get a size, so the virtualised log shows its rows.
Object.defineProperty(HTMLElement.prototype, 'offsetHeight', { configurable: true, get: () => 40 })
Object.defineProperty(HTMLElement.prototype, 'offsetWidth', { configurable: true, get: () => 600 })
Object.defineProperty(HTMLElement.prototype, 'clientHeight', { configurable: true, get: () => 800 })
Object.defineProperty(HTMLElement.prototype, 'clientWidth', { configurable: true, get: () => 600 })
HTMLElement.prototype.getBoundingClientRect = () => ({ x: 0, y: 0, top: 0, left: 0, bottom: 800, right: 600, width: 600, height: 800, toJSON: () => ({}) })

const { AgentLog } = await import('./agent-log')
const scope = { bridge: { workspace: 'p-1', callTool: () => Promise.reject(new Error('no tools here')), conversationBlobsContaining: () => Promise.resolve([]) } as unknown as ProjectBridge, shown: true, report: () => undefined, unsaved: () => undefined }

const fn = () => Promise.resolve(undefined)
function session(items: Item[], running: boolean): Session {
  return { conv: { id: 'c', items, messages: [], usage: {} }, running, ready: true, filesSeq: 0, saveError: null, compacting: false, answer: fn, undo: fn, undoRestore: fn, rewind: fn, flush: fn, send: fn, setPlanMode: fn } as unknown as Session
}

let unmount: (() => void) | null = null
afterEach(() => {
  unmount?.()
  unmount = null
  renders.clear()
})

describe('the log while an answer streams', () => {
  it('renders again only the item that changed', () => {
    const host = document.createElement('div')
    document.body.append(host)
    const r = createRoot(host)
    unmount = () => act(() => r.unmount())
    const noop = () => undefined
    const done: Item[] = [
      { kind: 'user', id: 'u1', text: 'read both files' },
      { kind: 'tool', id: 'call-a', name: 'read_file', input: { path: 'a.go' }, state: 'done', output: { content: 'a' } } as Item,
      { kind: 'tool', id: 'call-b', name: 'read_file', input: { path: 'b.go' }, state: 'done', output: { content: 'b' } } as Item,
      { kind: 'assistant', id: 'a0', text: 'first answer, finished' },
    ]
    const render = (s: Session) =>
      act(() =>
        r.render(
          <ProjectScopeContext.Provider value={scope}>
            <AgentLog s={s} placeholder="" onOpen={noop} onEditResend={noop} />
          </ProjectScopeContext.Provider>,
        ),
      )
    // As the session does: every piece streamed is a new conversation whose items are the same objects but the last.
    let answer = 'stream'
    render(session([...done, { kind: 'assistant', id: 'a1', text: answer }], true))
    expect(host.querySelectorAll('[data-testid="tool-card"]').length).toBe(2)
    const before = new Map(renders)
    for (let i = 0; i < 10; i++) {
      answer += ` piece ${i}`
      const items = [...done, { kind: 'assistant' as const, id: 'a1', text: answer }]
      render(session(items, true))
    }
    expect(host.textContent).toContain('piece 9')
    expect(renders.get('call-a')).toBe(before.get('call-a'))
    expect(renders.get('call-b')).toBe(before.get('call-b'))
    expect(renders.get('first ')).toBe(before.get('first '))
    expect(renders.get('stream')! - before.get('stream')!).toBe(10)
  })
})
