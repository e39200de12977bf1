import { describe, expect, it } from 'vitest'
import { alwaysRule, denial, fetchDomain, needsApproval, noGrants, program, sessionGrant } from './approvals'

const spec = (name: string, read_only = false) => ({ name, read_only })

describe('approvals', () => {
  it('lets read-only tools run and asks before anything that changes the project', () => {
    expect(needsApproval(spec('read_file', true), {}, noGrants(), false)).toBe(false)
    expect(needsApproval(spec('search_files', true), {}, noGrants(), false)).toBe(false)
    for (const name of ['write_file', 'patch_file', 'exec_shell', 'restore_snapshot']) {
      expect(needsApproval(spec(name), { command: 'go test ./...' }, noGrants(), false)).toBe(true)
    }
  })
  // Another MCP server's tools reach the window as not read-only whatever the server says (its readOnlyHint):
  // every call asks, unless a rule of the project (mcp__server__*) allows it or denies it.
  it("asks before every call of another MCP server's tool unless a rule decides", () => {
    expect(needsApproval(spec('mcp__calc__add'), { a: 1, b: 2 }, noGrants(), true)).toBe(true)
    expect(needsApproval(spec('mcp__calc__add'), {}, noGrants(), false, { action: 'allow', sensitive: false, rule: { action: 'allow', tool: 'mcp__calc__*', command: '' } })).toBe(false)
    expect(alwaysRule('mcp__calc__add', '')?.rule).toEqual({ action: 'allow', tool: 'mcp__calc__add', command: '' })
  })
  it('auto-approves edits only when the setting is on, never commands', () => {
    expect(needsApproval(spec('patch_file'), {}, noGrants(), true)).toBe(false)
    expect(needsApproval(spec('exec_shell'), { command: 'go test' }, noGrants(), true)).toBe(true)
    expect(needsApproval(spec('restore_snapshot'), {}, noGrants(), true)).toBe(true)
  })
  // The backend's check names the program a grant may cover (check.grant); ask is its answer with no rule.
  const asks = (grant: string, sensitive = false) => ({ action: 'ask' as const, sensitive, grant })
  it('allows a command for the session per program, never all commands', () => {
    const g = sessionGrant('exec_shell', { command: 'go test ./...' }, 'go')
    expect(g?.label).toBe('Allow go for this session')
    const grants = g!.grant(noGrants())
    expect(needsApproval(spec('exec_shell'), { command: 'go vet ./...' }, grants, false, asks('go'))).toBe(false)
    expect(needsApproval(spec('exec_shell'), { command: 'rm -rf build' }, grants, false, asks('rm', true))).toBe(true)
    expect(needsApproval(spec('exec_shell'), { command: '  "go" build' }, grants, false, asks('go'))).toBe(false)
    // Without the backend's word (its check failed), nothing runs on a grant.
    expect(needsApproval(spec('exec_shell'), { command: 'go vet ./...' }, grants, false)).toBe(true)
  })
  it('never grants an interpreter for the session: node -e or a new script would run unasked', () => {
    expect(sessionGrant('exec_shell', { command: "node -e 'x()'" }, '')).toBeNull()
    expect(sessionGrant('exec_shell', { command: 'python3 tools/gen.py' }, '')).toBeNull()
    expect(sessionGrant('exec_shell', { command: 'bash -c x' }, undefined)).toBeNull()
    // A grant of another program does not cover a command the backend does not name it for.
    const grants = { tools: [], programs: ['node'] }
    expect(needsApproval(spec('exec_shell'), { command: 'node scripts/x.js' }, grants, false, asks(''))).toBe(true)
    expect(needsApproval(spec('exec_shell'), { command: "node -e 'x()'" }, grants, false, asks('', true))).toBe(true)
  })
  it('allows both edit tools for the session at once', () => {
    const grants = sessionGrant('write_file', {})!.grant(noGrants())
    expect(needsApproval(spec('patch_file'), {}, grants, false)).toBe(false)
    expect(needsApproval(spec('exec_shell'), { command: 'ls' }, grants, false)).toBe(true)
  })
  it('tells the model why it was denied, with a code', () => {
    expect(denial('exec_shell', ' not now ')).toEqual({ error: { code: 'denied_by_user', message: expect.stringContaining(': not now.') } })
    expect(denial('write_file', '').error.message).toContain('no reason given')
    expect(program("'my tool' --x")).toBe('my tool')
  })
})

describe('approvals with the backend check', () => {
  const check = (action: '' | 'allow' | 'ask' | 'deny', sensitive = false, rule?: { action: 'allow' | 'ask' | 'deny'; tool: string; command: string }) => ({ action, sensitive, rule })
  it('runs what a rule or Rooted allows, without asking', () => {
    expect(needsApproval(spec('exec_shell'), { command: 'go test ./...' }, noGrants(), false, check('allow', false, { action: 'allow', tool: 'exec_shell', command: 'go test' }))).toBe(false)
    expect(needsApproval(spec('exec_shell'), { command: 'git status' }, noGrants(), false, check('allow'))).toBe(false)
    expect(needsApproval(spec('restore_snapshot'), {}, noGrants(), false, check('allow', false, { action: 'allow', tool: 'restore_snapshot', command: '' }))).toBe(false)
  })
  it('asks for git push under allow git, even with git allowed for the session', () => {
    const grants = sessionGrant('exec_shell', { command: 'git status' }, 'git')!.grant(noGrants())
    expect(needsApproval(spec('exec_shell'), { command: 'git push' }, grants, false, { ...check('ask', true, { action: 'allow', tool: 'exec_shell', command: 'git' }), grant: 'git' })).toBe(true)
    expect(needsApproval(spec('exec_shell'), { command: 'git push' }, grants, false, { ...check('ask', true), grant: 'git' })).toBe(true)
    expect(needsApproval(spec('exec_shell'), { command: 'git add .' }, grants, false, { ...check('ask'), grant: 'git' })).toBe(false)
  })
  it('asks when a rule says ask, even for a read-only tool', () => {
    expect(needsApproval(spec('read_file', true), {}, noGrants(), false, check('ask', false, { action: 'ask', tool: 'read_file', command: '' }))).toBe(true)
  })
  it('offers to always allow the command prefix, not the whole program', () => {
    expect(alwaysRule('exec_shell', 'go test')).toEqual({ rule: { action: 'allow', tool: 'exec_shell', command: 'go test' }, label: 'Always allow `go test …` in this project' })
    expect(alwaysRule('exec_shell', '')).toBeNull()
    expect(alwaysRule('write_file', '')).toBeNull()
    expect(alwaysRule('restore_snapshot', '')?.rule).toEqual({ action: 'allow', tool: 'restore_snapshot', command: '' })
  })
})

describe('web_fetch approvals, by domain', () => {
  const fetchSpec = spec('web_fetch')
  it('asks about the first fetch from a domain, and not again once it is allowed for the session', () => {
    const input = { url: 'https://Docs.Python.org/3/library/json.html' }
    expect(needsApproval(fetchSpec, input, noGrants(), false, { action: 'ask', sensitive: false })).toBe(true)
    const grant = sessionGrant('web_fetch', input)!
    expect(grant.label).toBe('Allow docs.python.org for this session')
    const grants = grant.grant(noGrants())
    expect(needsApproval(fetchSpec, { url: 'https://docs.python.org/3/' }, grants, false, { action: 'ask', sensitive: false })).toBe(false)
    // Another domain, a redirect's target among them, asks again; so does a grant of the whole tool.
    expect(needsApproval(fetchSpec, { url: 'https://evil.example.com/' }, grants, false, { action: 'ask', sensitive: false })).toBe(true)
    expect(needsApproval(fetchSpec, { url: 'https://x.example/' }, { tools: ['web_fetch'], programs: [] }, false, { action: 'ask', sensitive: false })).toBe(true)
    expect(needsApproval(fetchSpec, input, noGrants(), false, { action: 'allow', sensitive: false })).toBe(false)
  })
  it('offers to always allow the domain, never the whole tool', () => {
    expect(alwaysRule('web_fetch', 'docs.python.org')).toEqual({ rule: { action: 'allow', tool: 'web_fetch', command: '', domain: 'docs.python.org' }, label: 'Always for docs.python.org' })
    expect(alwaysRule('web_fetch', '')).toBeNull()
    expect(fetchDomain({ url: 'not a url' })).toBe('')
  })
})
