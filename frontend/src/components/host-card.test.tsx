// @vitest-environment jsdom
import { act, type ReactNode } from 'react'
import { createRoot } from 'react-dom/client'
import { describe, expect, it } from 'vitest'
import type { ProjectBridge, Rule } from '../bridge'
import { ProjectScopeContext } from '../stores/project-scope'
import { HostAsks, HostCards } from './host-card'
import { offerable } from './tool-card'
import type { ExecResult } from '../bridge/types'
import type { HostAskItem } from '../agent/conversation'
;(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true

// mount renders the cards in a detached element under the scope of a project shown, on bridge; render draws what
// they show (again, with new props, as a conversation does while its command runs).
function mount(bridge: ProjectBridge) {
  const el = document.createElement('div')
  const root = createRoot(el)
  const render = (cards: ReactNode) =>
    act(() => root.render(<ProjectScopeContext.Provider value={{ bridge, shown: true, report: () => undefined, unsaved: () => undefined }}>{cards}</ProjectScopeContext.Provider>))
  return { el, render, unmount: () => act(() => root.unmount()) }
}

// reopened is the bridge of a conversation reopened: no command waits, so nothing is asked.
const reopened = { workspace: 'p-1', addPermissionRule: () => Promise.resolve([]), answerHost: () => Promise.reject(new Error('not asked')), allowHost: () => Promise.resolve() } as unknown as ProjectBridge

// A refused host's card: "for this conversation" grants the host to that conversation's commands, "always" adds
// a network rule allowing it, "deny" one denying it; each card answers for its own host and then says so.
describe('HostCards', () => {
  it('answers each refused host as the user chose', async () => {
    const rules: Rule[] = []
    const granted: [string, string][] = []
    const bridge = {
      workspace: 'p-1',
      addPermissionRule: (r: Rule) => {
        rules.push(r)
        return Promise.resolve(rules)
      },
      allowHost: (conversation: string, host: string) => {
        granted.push([conversation, host])
        return Promise.resolve()
      },
    } as unknown as ProjectBridge
    const { el, render, unmount } = mount(bridge)
    render(<HostCards hosts={['a.example.org', 'b.example.org', 'c.example.org']} conversation="conv-7" />)
    const card = (host: string) => el.querySelector(`[data-testid="host-card"][data-host="${host}"]`)!
    const click = async (host: string, id: string) => {
      await act(async () => (card(host).querySelector(`[data-testid="${id}"]`) as HTMLButtonElement).click())
    }
    expect(card('a.example.org').textContent).toContain('tried to reach a.example.org')
    await click('a.example.org', 'host-allow-conversation')
    await click('b.example.org', 'host-allow-always')
    await click('c.example.org', 'host-deny')
    expect(granted).toEqual([['conv-7', 'a.example.org']])
    expect(rules).toEqual([
      { action: 'allow', tool: 'network', command: '', domain: 'b.example.org' },
      { action: 'deny', tool: 'network', command: '', domain: 'c.example.org' },
    ])
    expect(card('a.example.org').textContent).toContain('allowed for this conversation')
    expect(card('b.example.org').textContent).toContain('always allowed in this project')
    expect(card('c.example.org').textContent).toContain('denied in this project')
    expect(el.querySelectorAll('[data-testid="host-deny"]')).toHaveLength(0)
    unmount()
  })
})

// A host a running command waits to reach: "Allow once" answers yes, "Always" adds the network rule and then
// answers yes, "Deny" answers no, each for its own call and host; a question the command ended without an answer
// becomes a refused host's card.
describe('HostAsks', () => {
  it('answers the waiting command as the user chose', async () => {
    const rules: Rule[] = []
    const answers: [string, string, boolean][] = []
    const bridge = {
      workspace: 'p-1',
      addPermissionRule: (r: Rule) => {
        rules.push(r)
        return Promise.resolve(rules)
      },
      answerHost: (ask: string, host: string, allow: boolean) => {
        answers.push([ask, host, allow])
        return Promise.resolve()
      },
      allowHost: () => Promise.resolve(),
    } as unknown as ProjectBridge
    const asks = ['a', 'b', 'c', 'd'].map((h) => ({ call: 'call-1', host: `${h}.example.org`, ask: `tok-${h}`, wait_ms: 120_000 }))
    const { el, render: draw, unmount } = mount(bridge)
    const render = (running: boolean) => draw(<HostAsks asks={asks} running={running} conversation="conv-7" />)
    render(true)
    const card = (host: string) => el.querySelector(`[data-host="${host}"]`)!
    const click = async (host: string, id: string) => {
      await act(async () => (card(host).querySelector(`[data-testid="${id}"]`) as HTMLButtonElement).click())
    }
    expect(card('a.example.org').textContent).toContain('waiting to reach a.example.org')
    expect(card('a.example.org').textContent).toContain('for up to 120 s')
    await click('a.example.org', 'host-allow-once')
    await click('b.example.org', 'host-allow-always')
    await click('c.example.org', 'host-deny')
    expect(answers).toEqual([
      ['tok-a', 'a.example.org', true],
      ['tok-b', 'b.example.org', true],
      ['tok-c', 'c.example.org', false],
    ])
    expect(rules).toEqual([{ action: 'allow', tool: 'network', command: '', domain: 'b.example.org' }])
    expect(card('a.example.org').textContent).toContain('allowed for this command')
    expect(card('c.example.org').textContent).toContain('refused to this command')
    render(false)
    expect(card('d.example.org').getAttribute('data-testid')).toBe('host-ask-ended')
    expect(card('d.example.org').textContent).toContain('The command ended before an answer: d.example.org was not reached')
    expect(card('d.example.org').querySelector('[data-testid="host-allow-once"]')).toBeNull()
    expect(card('a.example.org').getAttribute('data-testid')).toBe('host-ask')
    unmount()
  })
})

// A command that asks for one host at two ports gets two questions, each card naming host:port: Allow once
// answers its own port's question alone, the other card still asks, and the rule buttons say they cover every
// port of the host.
describe('HostAsks at two ports of one host', () => {
  it('shows and answers each port on its own', async () => {
    const answers: [string, string, boolean][] = []
    const bridge = {
      workspace: 'p-1',
      addPermissionRule: () => Promise.resolve([]),
      answerHost: (ask: string, host: string, allow: boolean) => {
        answers.push([ask, host, allow])
        return Promise.resolve()
      },
      allowHost: () => Promise.resolve(),
    } as unknown as ProjectBridge
    const asks: HostAskItem[] = [443, 22].map((port) => ({ call: 'call-4', host: 'github.com', port, ask: `tok-${port}`, wait_ms: 120_000 }))
    const { el, render, unmount } = mount(bridge)
    render(<HostAsks asks={asks} running={true} conversation="conv-7" />)
    const card = (port: number) => el.querySelector(`[data-testid="host-ask"][data-host="github.com"][data-port="${port}"]`)!
    expect(el.querySelectorAll('[data-testid="host-ask"]')).toHaveLength(2)
    expect(card(443).textContent).toContain('waiting to reach github.com:443')
    expect(card(22).textContent).toContain('waiting to reach github.com:22')
    expect(card(443).querySelector('[data-testid="host-allow-once"]')!.getAttribute('title')).toContain('github.com at another port is asked about again')
    expect(card(443).querySelector('[data-testid="host-allow-always"]')!.getAttribute('title')).toContain('github.com at every port')
    await act(async () => (card(443).querySelector('[data-testid="host-allow-once"]') as HTMLButtonElement).click())
    expect(answers).toEqual([['tok-443', 'github.com', true]])
    expect(card(443).textContent).toContain('github.com:443: allowed for this command')
    expect(card(22).querySelector('[data-testid="host-allow-once"]')).not.toBeNull()
    unmount()
  })
})

// A question the backend ended unanswered (the wait ran out) stops offering the command an answer while the
// command still runs: the card says the host was refused after the wait and offers the network rule for next
// time, which is what its click writes; a click that raced the end (the backend's not_found) turns the card into
// the same account, never an error.
describe('HostAsks that ended', () => {
  it('says the wait ran out and offers the rule for next time', async () => {
    const rules: Rule[] = []
    const answers: string[] = []
    const bridge = {
      workspace: 'p-1',
      addPermissionRule: (r: Rule) => {
        rules.push(r)
        return Promise.resolve(rules)
      },
      answerHost: (ask: string) => {
        answers.push(ask)
        return Promise.reject(new Error(JSON.stringify({ error: { code: 'not_found', message: 'no running command is waiting for an answer about late.example.org' } })))
      },
      allowHost: () => Promise.resolve(),
    } as unknown as ProjectBridge
    const { el, render: draw, unmount } = mount(bridge)
    const render = (asks: HostAskItem[]) => draw(<HostAsks asks={asks} running={true} conversation="conv-7" />)
    const late: HostAskItem = { call: 'call-2', host: 'late.example.org', ask: 'tok-late', wait_ms: 3000 }
    const raced: HostAskItem = { call: 'call-2', host: 'raced.example.org', ask: 'tok-raced', wait_ms: 3000 }
    render([late, raced])
    const card = (host: string) => el.querySelector(`[data-host="${host}"]`)!
    expect(card('late.example.org').getAttribute('data-testid')).toBe('host-ask')
    render([{ ...late, ended: 'timeout' }, raced])
    const ended = card('late.example.org')
    expect(ended.getAttribute('data-testid')).toBe('host-ask-ended')
    expect(ended.getAttribute('data-ended')).toBe('timeout')
    expect(ended.textContent).toContain('No answer within 3 s: late.example.org was refused to this command.')
    for (const dead of ['host-allow-once', 'host-deny']) expect(ended.querySelector(`[data-testid="${dead}"]`)).toBeNull()
    const always = ended.querySelector('[data-testid="host-allow-always"]') as HTMLButtonElement
    expect(always.textContent).toBe('Always allow late.example.org')
    await act(async () => always.click())
    expect(rules).toEqual([{ action: 'allow', tool: 'network', command: '', domain: 'late.example.org' }])
    expect(answers).toEqual([]) // nothing is sent to the command that stopped waiting
    expect(card('late.example.org').textContent).toContain('late.example.org: always allowed in this project')

    // The other card's Allow once reaches the backend just after its question ended.
    await act(async () => (card('raced.example.org').querySelector('[data-testid="host-allow-once"]') as HTMLButtonElement).click())
    expect(answers).toEqual(['tok-raced'])
    expect(card('raced.example.org').getAttribute('data-testid')).toBe('host-ask-ended')
    expect(card('raced.example.org').textContent).toContain('no longer waiting when you answered: raced.example.org was refused')
    expect(card('raced.example.org').querySelector('[data-testid="error"]')).toBeNull()
    expect(el.textContent).not.toContain('not_found')
    unmount()
  })
})

// A conversation reopened later shows its ended commands' questions as the result says they went: a host reached
// was allowed, one declined was refused by the user, one refused unanswered says so; none offers an answer.
describe('HostAsks reopened', () => {
  it('reads what was answered from the command result', () => {
    const asks: HostAskItem[] = ['a', 'c', 'd'].map((h) => ({ call: 'call-3', host: `${h}.example.org`, ask: `tok-${h}`, wait_ms: 120_000 }))
    const { el, render, unmount } = mount(reopened)
    render(<HostAsks asks={asks} running={false} conversation="conv-7" result={{ network_declined: ['c.example.org'], network_refused: ['d.example.org'] }} />)
    const card = (host: string) => el.querySelector(`[data-host="${host}"]`)!
    expect(card('a.example.org').textContent).toContain('a.example.org: allowed for this command')
    expect(card('c.example.org').textContent).toContain('c.example.org: refused to this command')
    expect(card('d.example.org').getAttribute('data-testid')).toBe('host-ask-ended')
    expect(el.querySelectorAll('[data-testid="host-allow-once"]')).toHaveLength(0)
    unmount()
  })

  it('reads each port of one host apart: allowed at 443, declined at 22', () => {
    const asks: HostAskItem[] = [443, 22].map((port) => ({ call: 'call-4', host: 'github.com', port, ask: `tok-${port}`, wait_ms: 120_000 }))
    const { el, render, unmount } = mount(reopened)
    render(<HostAsks asks={asks} running={false} conversation="conv-7" result={{ network_declined: ['github.com:22'] }} />)
    const text = el.textContent ?? ''
    expect(text).toContain('github.com:443: allowed for this command')
    expect(text).toContain('github.com:22: refused to this command')
    expect(text).not.toContain('github.com:443: refused')
    unmount()
  })
})

describe('HostCards under a finished command', () => {
  it('offers rules only for hosts an allow rule would let through', () => {
    const res = {
      network_refused: ['new.example.org', 'bad.example.org', '10.1.2.3', '"*.s3.amazonaws.com"'],
      network_unallowable: ['bad.example.org', '10.1.2.3', '"*.s3.amazonaws.com"'],
    } as ExecResult
    expect(offerable(res)).toEqual(['new.example.org'])
    expect(offerable({ network_refused: ['a.example.org'] } as ExecResult)).toEqual(['a.example.org'])
  })
})
