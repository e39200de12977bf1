import { act } from 'react'
import { createRoot } from 'react-dom/client'
import { simulateReadableStream } from 'ai'
import { MockLanguageModelV4 } from 'ai/test'
import { expect } from 'vitest'
import type { ProjectBridge } from '../bridge'
import { ProjectScopeContext, type ProjectScope } from '../stores/project-scope'
import { useAgentSession } from '../stores/agent-session'

// What the agent session's tests share: a model that answers from a script, the session mounted in a project's
// scope, and the waits between.

// Chunk is one piece of a model's streamed reply, as the AI SDK's language model gives it.
export type Chunk = Record<string, unknown>
export const usage = { inputTokens: { total: 100, noCache: 100, cacheRead: undefined, cacheWrite: undefined }, outputTokens: { total: 7, text: 7, reasoning: undefined } }
// text is a reply that says t and ends the turn.
export const text = (t: string): Chunk[] => [{ type: 'text-start', id: 't' }, { type: 'text-delta', id: 't', delta: t }, { type: 'text-end', id: 't' }, { type: 'finish', finishReason: { unified: 'stop', raw: undefined }, usage }]
// call is a reply that calls the tool name with input.
export const call = (id: string, name: string, input: unknown): Chunk[] => [
  { type: 'tool-call', toolCallId: id, toolName: name, input: JSON.stringify(input) },
  { type: 'finish', finishReason: { unified: 'tool-calls', raw: undefined }, usage },
]

// scripted is a model that gives the replies in turn (the last one again once they run out); an Error is a request
// the provider refused.
export function scripted(replies: (Chunk[] | Error)[]) {
  let i = 0
  return new MockLanguageModelV4({
    doStream: async () => {
      const r = replies[Math.min(i++, replies.length - 1)]
      if (r instanceof Error) throw r
      return { stream: simulateReadableStream({ chunks: r as never[] }) }
    },
  })
}

// scopeOver is the scope the project's view gives its hooks, over a test's mocked bridge module, as project p-2's.
export function scopeOver(mocked: object): ProjectScope {
  const unsaved = (mocked as { setConversationUnsaved?: (r: string) => Promise<void> }).setConversationUnsaved
  return { bridge: { ...mocked, workspace: 'p-2' } as unknown as ProjectBridge, shown: true, report: () => undefined, unsaved: (r: string) => void unsaved?.(r) }
}

export type Session = ReturnType<typeof useAgentSession>

// mountSession mounts one session of project /p over model; now() is the session as last rendered, renders() how
// many times the component holding it has rendered.
export function mountSession(scope: ProjectScope, model: MockLanguageModelV4) {
  let s: Session | null = null
  let renders = 0
  function Probe() {
    renders++
    s = useAgentSession({ root: '/p', cwd: '.' } as never, () => model)
    return null
  }
  const r = createRoot(document.createElement('div'))
  act(() =>
    r.render(
      <ProjectScopeContext.Provider value={scope}>
        <Probe />
      </ProjectScopeContext.Provider>,
    ),
  )
  return { now: () => s as unknown as Session, renders: () => renders, unmount: () => act(() => r.unmount()) }
}

// until waits, letting React render, for f to hold, and fails the test if it never does.
export async function until(f: () => boolean) {
  for (let i = 0; i < 200 && !f(); i++) await act(() => new Promise((r) => setTimeout(r, 10)))
  expect(f()).toBe(true)
}

// startSend sends a request from the session and gives back the turn's end, without waiting for it: the test acts
// while the turn waits (an approval, a reply, a server starting).
export function startSend(session: () => Session, request: string): Promise<void> {
  let done: Promise<void> = Promise.resolve()
  act(() => {
    done = session().send(request)
  })
  return done
}
