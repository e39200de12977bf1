import { describe, expect, test } from 'vitest'
import type { Item } from './conversation'
import { agentState, attentionNeeded, elapsedText, progress, type AgentState } from './progress'

const user: Item = { kind: 'user', id: 'u1', text: 'run the tests' }
const tool = (id: string, name: string, input: Record<string, unknown>, state: 'running' | 'waiting' | 'done', parent?: string): Item => ({ kind: 'tool', id, name, input, state, ...(parent ? { parent } : {}) })
const a = { provider: 'Anthropic' }

describe('the status row names the step a person is waiting on', () => {
  test.each<[string, Item[], Parameters<typeof progress>[1], string]>([
    ['a request just sent', [user], a, 'Waiting for Anthropic'],
    ['the answer streaming', [user, { kind: 'assistant', id: 'a1', text: 'Sure' }], a, 'Anthropic is answering'],
    ['reasoning streaming', [user, { kind: 'reasoning', id: 'r1', text: 'hm' }], a, 'Anthropic is thinking'],
    ['a command running', [user, tool('t1', 'exec_shell', { command: 'go test ./...' }, 'running')], a, 'Running go test ./...'],
    ['an edit waiting', [user, tool('t1', 'patch_file', { path: 'main.go' }, 'waiting')], a, 'Needs your approval: Editing main.go'],
    ['a question waiting', [user, tool('t1', 'ask_user', { question: 'which?' }, 'waiting')], a, 'Waiting for your answer'],
    ['the post-edit check', [user, tool('t1', 'patch_file', { path: 'main.go' }, 'running')], { ...a, checking: ['main.go'] }, 'Checking main.go after the edit (the project’s diagnostics)'],
    ['a retry countdown', [user], { ...a, retry: { until: 4_000, attempt: 1, status: 529 } }, 'Waiting for Anthropic (HTTP 529) · retry in 4 s'],
    ['a retry over', [user], { ...a, retry: { until: -1, attempt: 1, status: 529 } }, 'Waiting for Anthropic'],
    ['a subagent reading', [user, tool('s1', 'spawn_agent', { label: 'survey' }, 'running'), tool('c1', 'read_file', { path: 'a.go' }, 'running', 's1')], a, 'Reading a.go'],
    ['two commands at once', [user, tool('t1', 'exec_shell', { command: 'go vet ./...' }, 'running'), tool('t2', 'exec_shell', { command: 'go build' }, 'running')], a, 'Running go vet ./... (and 1 more)'],
    ['an earlier turn’s call is not this one', [tool('t0', 'exec_shell', { command: 'old' }, 'running'), user], a, 'Waiting for Anthropic'],
  ])('%s', (_, items, activity, want) => {
    expect(progress(items, activity, 0).label).toBe(want)
  })

  test('the countdown is the only row that does not show elapsed time, and its key holds while it counts', () => {
    const act = { ...a, retry: { until: 8_000, attempt: 2, status: 429 } }
    const first = progress([user], act, 1_000)
    const later = progress([user], act, 5_000)
    expect([first.label, later.label]).toEqual(['Waiting for Anthropic (HTTP 429) · retry in 7 s', 'Waiting for Anthropic (HTTP 429) · retry in 3 s'])
    expect(first.key).toBe(later.key)
    expect(first.elapsed).toBe(false)
  })

  test('a new step has a new key, so its time starts again', () => {
    const one = progress([user, tool('t1', 'exec_shell', { command: 'go vet' }, 'running')], a, 0)
    const two = progress([user, tool('t1', 'exec_shell', { command: 'go vet' }, 'done'), tool('t2', 'exec_shell', { command: 'go test' }, 'running')], a, 0)
    expect(one.key).not.toBe(two.key)
  })

  test.each([
    [0, '0 s'],
    [12_400, '12 s'],
    [65_000, '1 min 5 s'],
  ])('%i ms reads %s', (ms, want) => expect(elapsedText(ms)).toBe(want))
})

describe('what a person away from the window is told', () => {
  test.each<[string, Item[], boolean, boolean, string | undefined]>([
    ['an edit waits for approval', [user, tool('t1', 'patch_file', { path: 'a.go' }, 'waiting')], true, true, 'Needs approval'],
    ['a question waits', [user, tool('t1', 'ask_user', {}, 'waiting')], true, true, 'Needs your answer'],
    ['the turn just ended', [user, { kind: 'assistant', id: 'a', text: 'done' }], false, true, 'Finished'],
    ['the turn ended on an error', [user, { kind: 'notice', id: 'n', tone: 'error', text: 'HTTP 500' }], false, true, 'Stopped with an error'],
    ['still working', [user, tool('t1', 'exec_shell', { command: 'go test' }, 'running')], true, true, undefined],
    ['idle, as it was', [user, { kind: 'assistant', id: 'a', text: 'done' }], false, false, undefined],
  ])('%s', (_, items, running, wasRunning, want) => expect(attentionNeeded(items, running, wasRunning)).toBe(want))
})

describe('the strip says what a project’s agent is doing', () => {
  const failed: Item = { kind: 'notice', id: 'n1', tone: 'error', text: 'the provider refused' }
  test.each<[string, Item[], boolean, boolean, AgentState]>([
    ['nothing asked yet', [], false, false, ''],
    ['a turn running', [user, tool('t1', 'exec_shell', { command: 'go test' }, 'running')], true, true, 'working'],
    ['a call waiting for approval', [user, tool('t1', 'patch_file', { path: 'a.go' }, 'waiting')], true, true, 'waiting'],
    ['a question waiting', [user, tool('t1', 'ask_user', { question: 'which?' }, 'waiting')], true, true, 'waiting'],
    ['the turn just ended', [user, { kind: 'assistant', id: 'a1', text: 'Done.' }], false, true, 'done'],
    ['the turn just stopped with an error', [user, failed], false, true, 'failed'],
    ['an ended turn seen already', [user, { kind: 'assistant', id: 'a1', text: 'Done.' }], false, false, ''],
  ])('%s', (_, items, running, wasRunning, want) => expect(agentState(items, running, wasRunning)).toBe(want))
})
