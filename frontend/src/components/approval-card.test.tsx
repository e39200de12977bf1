// @vitest-environment jsdom
import { act } from 'react'
import { createRoot } from 'react-dom/client'
import { describe, expect, it, vi } from 'vitest'
import type { ProjectBridge } from '../bridge'
import type { ToolItem } from '../agent/conversation'
import { ProjectScopeContext, type ProjectScope } from '../stores/project-scope'
import { ApprovalCard } from './approval-card'

;(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true

const bridge = { checkCall: () => Promise.resolve({ action: 'ask' }) } as unknown as ProjectBridge
const scope = (shown: boolean): ProjectScope => ({ bridge, shown, report: () => undefined, unsaved: () => undefined })
const item = (id: string, command: string): ToolItem => ({ kind: 'tool', id, name: 'exec_shell', input: { command }, state: 'waiting' })

describe('ApprovalCard in a project with two conversations', () => {
  // Two conversations' panes in one project's view, the hidden one first in the page, both with a card waiting:
  // Enter and Esc answer the card of the conversation in view, and only it.
  it.each([
    ['Enter', { kind: 'once' }],
    ['Escape', { kind: 'deny', reason: '' }],
  ])('%s answers the card in view, not the hidden one before it', async (key, want) => {
    const answered: [string, unknown][] = []
    const onAnswer = vi.fn((id: string, a: unknown) => void answered.push([id, a]))
    const host = document.createElement('div')
    document.body.append(host)
    const r = createRoot(host)
    await act(async () =>
      r.render(
        <div data-testid="project-view">
          <ProjectScopeContext.Provider value={scope(false)}>
            <section data-testid="conversation-pane" hidden>
              <ApprovalCard item={item('hidden-call', 'go test ./...')} onAnswer={onAnswer} />
            </section>
          </ProjectScopeContext.Provider>
          <ProjectScopeContext.Provider value={scope(true)}>
            <section data-testid="conversation-pane">
              <ApprovalCard item={item('shown-call', 'npm test')} onAnswer={onAnswer} />
            </section>
          </ProjectScopeContext.Provider>
        </div>,
      ),
    )
    act(() => void document.body.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true })))
    expect(answered).toEqual([['shown-call', want]])
    act(() => r.unmount())
    host.remove()
  })
})
