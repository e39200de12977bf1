// @vitest-environment jsdom
import { act } from 'react'
import { createRoot } from 'react-dom/client'
import { describe, expect, it } from 'vitest'
import type { ProjectBridge, Rule } from '../bridge'
import { ProjectScopeContext } from '../stores/project-scope'
import { HostAsks, HostCards } from './host-card'
;(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true

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
    const el = document.createElement('div')
    const root = createRoot(el)
    act(() =>
      root.render(
        <ProjectScopeContext.Provider value={{ bridge, shown: true, report: () => undefined, unsaved: () => undefined }}>
          <HostCards hosts={['a.example.org', 'b.example.org', 'c.example.org']} conversation="conv-7" />
        </ProjectScopeContext.Provider>,
      ),
    )
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
    act(() => root.unmount())
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
      answerHost: (call: string, host: string, allow: boolean) => {
        answers.push([call, host, allow])
        return Promise.resolve()
      },
      allowHost: () => Promise.resolve(),
    } as unknown as ProjectBridge
    const asks = [
      { call: 'call-1', host: 'a.example.org' },
      { call: 'call-1', host: 'b.example.org' },
      { call: 'call-1', host: 'c.example.org' },
      { call: 'call-1', host: 'd.example.org' },
    ]
    const el = document.createElement('div')
    const root = createRoot(el)
    const render = (running: boolean) =>
      act(() =>
        root.render(
          <ProjectScopeContext.Provider value={{ bridge, shown: true, report: () => undefined, unsaved: () => undefined }}>
            <HostAsks asks={asks} running={running} conversation="conv-7" />
          </ProjectScopeContext.Provider>,
        ),
      )
    render(true)
    const card = (host: string) => el.querySelector(`[data-host="${host}"]`)!
    const click = async (host: string, id: string) => {
      await act(async () => (card(host).querySelector(`[data-testid="${id}"]`) as HTMLButtonElement).click())
    }
    expect(card('a.example.org').textContent).toContain('waiting to reach a.example.org')
    await click('a.example.org', 'host-allow-once')
    await click('b.example.org', 'host-allow-always')
    await click('c.example.org', 'host-deny')
    expect(answers).toEqual([
      ['call-1', 'a.example.org', true],
      ['call-1', 'b.example.org', true],
      ['call-1', 'c.example.org', false],
    ])
    expect(rules).toEqual([{ action: 'allow', tool: 'network', command: '', domain: 'b.example.org' }])
    expect(card('a.example.org').textContent).toContain('allowed for this command')
    expect(card('c.example.org').textContent).toContain('refused to this command')
    render(false)
    expect(card('d.example.org').getAttribute('data-testid')).toBe('host-card')
    expect(card('d.example.org').textContent).toContain('tried to reach d.example.org')
    expect(card('a.example.org').getAttribute('data-testid')).toBe('host-ask')
    act(() => root.unmount())
  })
})
