// @vitest-environment jsdom
import { act } from 'react'
import { createRoot } from 'react-dom/client'
import { afterEach, describe, expect, it } from 'vitest'
import type { ConversationMeta, ProjectBridge } from '../bridge'
import { ProjectScopeContext } from '../stores/project-scope'
import { ConversationList } from './conversation-list'

;(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true

const scope = { bridge: { workspace: 'p-1' } as unknown as ProjectBridge, shown: true, report: () => undefined, unsaved: () => undefined }
const at = '2026-11-26T10:00:00Z'
const list: ConversationMeta[] = [
  { id: 'live', title: 'Open this run', created: at, updated: at, cost: 0.01 },
  { id: 'saved', title: 'Not opened this run', created: at, updated: at, cost: 0.0305, cost_unknown: 1 },
  { id: 'free', title: 'A free model', created: at, updated: at, cost: 0 },
  { id: 'unknown', title: 'No price', created: at, updated: at, cost_unknown: 3 },
]

let host: HTMLElement | undefined
afterEach(() => host?.remove())

describe('ConversationList', () => {
  it("shows each conversation's cost: the live one's for a conversation at work, the saved one's for any other", async () => {
    host = document.body.appendChild(document.createElement('div'))
    const root = createRoot(host)
    await act(async () =>
      root.render(
        <ProjectScopeContext.Provider value={scope}>
          <ConversationList list={list} selected="" onOpen={() => undefined} onRename={() => Promise.resolve()} onRemove={() => undefined} marks={{ live: { state: 'working', running: true, cost: 0.25 } }} />
        </ProjectScopeContext.Provider>,
      ),
    )
    const costs = Object.fromEntries([...host.querySelectorAll('[data-testid="conversation-row"]')].map((row) => [row.getAttribute('data-id'), row.querySelector('[data-testid="conversation-cost"]')?.textContent ?? null]))
    expect(costs).toEqual({ live: '$0.2500', saved: '$0.0305', free: '$0', unknown: null })
    act(() => root.unmount())
  })
})
