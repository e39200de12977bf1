// What the model is given and how the loop runs, end to end against the stand-in LLM: the system prompt's date and
// git branch, read-before-edit reaching the model, the approval card's diff and the user's edit of a proposal,
// the stop on a repeated failing call, Continue after the step limit, and Anthropic's cache breakpoints.
import { after, before, describe, test } from 'node:test'
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { cleanupAll, launchBrowser, makeFixture, onCleanup, openProject, screenshot, startDevApp, until } from './harness.mjs'
import { startFakeLLM, toolResults } from './fake-llm.mjs'

const config = 'name = "demo"\nmode = "old"\nlevel = 1\nother = "old"\n'

// script answers by the conversation's first request, so each test is its own conversation.
function script(req) {
  const ask = req.messages.find((m) => m.role === 'user')?.text ?? ''
  const results = toolResults(req)
  const last = results.at(-1)?.content ?? ''
  if (ask.startsWith('say hi')) return { text: 'hi' }
  if (ask.startsWith('patch unread')) {
    if (results.length === 0) return { tools: [{ name: 'patch_file', input: { path: 'notes.txt', search: 'keep me', replace: 'gone' } }] }
    return { text: `The patch came back: ${last}` }
  }
  if (ask.startsWith('rename old')) {
    if (results.length === 0) return { tools: [{ name: 'read_file', input: { path: 'config.toml' } }] }
    if (results.length === 1) return { tools: [{ name: 'patch_file', input: { path: 'config.toml', search: '"old"', replace: '"new"', replace_all: true } }] }
    return { text: `Patched: ${last}` }
  }
  if (ask.startsWith('plan the change')) {
    const users = req.messages.filter((m) => m.role === 'user').length
    if (users === 1) {
      if (results.length === 0) return { tools: [{ name: 'write_file', input: { path: 'plan.txt', content: 'too early\n' } }] }
      return { text: `Plan: write plan.txt. (The write said: ${last})` }
    }
    if (results.length === 1) return { tools: [{ name: 'write_file', input: { path: 'plan.txt', content: 'planned\n' } }] }
    return { text: 'Wrote plan.txt.' }
  }
  if (ask.startsWith('three edits')) {
    // Three edits and a command, each step after the one before.
    const steps = [
      { name: 'read_file', input: { path: 'config.toml' } },
      { name: 'patch_file', input: { path: 'config.toml', search: 'level = 1', replace: 'level = 2' } },
      { name: 'write_file', input: { path: 'made.txt', content: 'made\n' } },
      { name: 'read_file', input: { path: 'notes.txt' } },
      { name: 'write_file', input: { path: 'notes.txt', content: 'rewritten\n' } },
      { name: 'exec_shell', input: { command: 'touch by-command.txt' } },
    ]
    if (results.length < steps.length) return { tools: [steps[results.length]] }
    return { text: 'Three edits and a command done.' }
  }
  if (ask.includes('after the rewind')) return { text: 'fresh start' } // the note on the rewind comes first
  if (ask.startsWith('first try')) return { text: 'answer to the first try' }
  if (ask.startsWith('second try')) return { text: 'answer to the second try' }
  if (ask.startsWith('read the missing file')) return { tools: [{ name: 'read_file', input: { path: 'missing.txt' } }] }
  if (ask.startsWith('read everything')) {
    if (results.length < 3) return { tools: [{ name: 'list_directory', input: { path: ['.', 'src', '.'][results.length] } }] }
    return { text: `Done after ${results.length} listings.` }
  }
  return { text: 'unexpected request' }
}

const requestsFor = (llm, prefix) => llm.requests.filter((r) => r.messages.find((m) => m.role === 'user')?.text.startsWith(prefix))

describe('agent loop', { timeout: 600_000 }, () => {
  let page, fixture, llm, claude

  async function useProvider(id, kind, url) {
    await page.evaluate(
      async ({ id, kind, url }) => {
        await window.go.app.Agent.SaveProvider({ id, name: id, kind, base_url: url, model: 'scripted', api_key: 'k', clear_key: false })
        await window.go.app.Agent.SetActive(id, '')
      },
      { id, kind, url },
    )
    await page.reload()
    await page.getByTestId('agent-model').filter({ hasText: `${id} · scripted` }).waitFor()
  }

  // Each request in a new conversation, once the last one's turn is over (New no longer waits for it: the
  // conversation still running would go on beside the new one).
  async function ask(text) {
    await page.getByTestId('agent-send').waitFor()
    await page.getByTestId('new-conversation').click()
    await page.getByTestId('agent-input').fill(text)
    await page.getByTestId('agent-send').click()
  }

  before(async () => {
    llm = await startFakeLLM(script)
    claude = await startFakeLLM(() => ({ text: 'cached hello' }))
    onCleanup(() => llm.close())
    onCleanup(() => claude.close())
    fixture = makeFixture('loop', { 'notes.txt': 'keep me\n', 'config.toml': config, 'src/a.txt': 'a\n' })
    const git = (...args) => execFileSync('git', args, { cwd: fixture, env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@e', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@e' } })
    git('init', '-q', '-b', 'feature/e2e-branch')
    git('add', '.')
    git('commit', '-q', '-m', 'First commit of the loop fixture')
    const app = await startDevApp()
    const browser = await launchBrowser()
    page = await browser.newPage()
    await page.goto(app.url)
    await openProject(page, fixture)
    await useProvider('scripted', 'openai-compatible', `${llm.url}/v1`)
  })

  after(cleanupAll)

  test('the system prompt carries the date, the git branch and the last commit; prompt and tools are measured', async () => {
    await ask('say hi')
    await page.getByTestId('msg-assistant').filter({ hasText: 'hi' }).waitFor()
    const req = requestsFor(llm, 'say hi')[0]
    const system = req.messages.find((m) => m.role === 'system').text
    assert.match(system, new RegExp(`Date: ${new Date().toISOString().slice(0, 10)}\\.`))
    assert.match(system, /Git branch: feature\/e2e-branch\./)
    assert.match(system, /[0-9a-f]{7,} First commit of the loop fixture/)
    assert.match(system, /search_files and find_files/)
    const tools = JSON.stringify(req.body.tools)
    // About four characters a token, as the window's own estimate counts.
    console.log(`system prompt ${system.length} chars (~${Math.ceil(system.length / 4)} tokens), tool schemas ${tools.length} chars (~${Math.ceil(tools.length / 4)} tokens), ${req.body.tools.length} tools`)
  })

  test('an edit of a file the agent never read is refused with not_read, and the model gets the reason', async () => {
    await ask('patch unread notes')
    const patch = page.locator('[data-testid="tool-card"][data-tool="patch_file"]').last()
    await patch.locator('[data-testid="tool-error"][data-code="not_read"]').waitFor()
    await page.getByTestId('msg-assistant').filter({ hasText: 'The patch came back' }).waitFor()
    assert.match(toolResults(requestsFor(llm, 'patch unread').at(-1))[0].content, /not_read/)
    assert.equal(readFileSync(path.join(fixture, 'notes.txt'), 'utf8'), 'keep me\n')
  })

  test('the approval card shows the diff of a replace_all; the user edits the proposal, it lands as edited and the model is told', async () => {
    await ask('rename old to new everywhere')
    const patch = page.locator('[data-testid="tool-card"][data-tool="patch_file"]').last()
    const diff = patch.getByTestId('approval-diff')
    await diff.waitFor()
    const shown = await diff.innerText()
    // Both occurrences, with the lines around them.
    assert.match(shown, /-mode = "old"\s+\+mode = "new"\s+ level = 1\s+-other = "old"\s+\+other = "new"/)
    assert.match(shown, / name = "demo"/)
    assert.equal(readFileSync(path.join(fixture, 'config.toml'), 'utf8'), config, 'nothing is written before approval')
    await screenshot(page, 'e2e-agent-approval-diff.png')
    await patch.getByTestId('approval-edit-start').click()
    await patch.getByTestId('approval-edit').fill('"newer"')
    await patch.getByTestId('approve-once').click()
    await patch.getByTestId('tool-edited').waitFor()
    assert.equal(readFileSync(path.join(fixture, 'config.toml'), 'utf8'), config.replaceAll('"old"', '"newer"'))
    assert.match(await patch.getByTestId('tool-diff').innerText(), /\+other = "newer"/)
    await page.getByTestId('msg-assistant').filter({ hasText: 'Patched:' }).waitFor()
    const told = toolResults(requestsFor(llm, 'rename old').at(-1)).at(-1).content
    assert.match(told, /user edited your proposed patch_file/)
    assert.match(told, /newer/)
  })

  test('the same call failing the same way three times stops the turn and says why', async () => {
    await ask('read the missing file')
    const halt = page.locator('[data-testid="agent-halt"][data-kind="repeated"]')
    await halt.waitFor()
    await page.getByTestId('msg-notice').filter({ hasText: /read_file failed 3 times in a row .*not_found/ }).waitFor()
    assert.equal(requestsFor(llm, 'read the missing file').length, 3)
  })

  test('the step limit stops the turn, and Continue lets the agent go on without a new request', async () => {
    const limit = page.getByTestId('agent-step-limit')
    await limit.fill('2')
    await ask('read everything')
    await page.locator('[data-testid="agent-halt"][data-kind="step-limit"]').waitFor()
    assert.equal(requestsFor(llm, 'read everything').length, 2)
    await page.getByTestId('agent-continue').click()
    await page.getByTestId('msg-assistant').filter({ hasText: 'Done after 3 listings.' }).waitFor()
    const reqs = requestsFor(llm, 'read everything')
    assert.equal(reqs.length, 4)
    // Continue added no user message: the request after it ends with the tool results.
    assert.equal(reqs[2].messages.at(-1).role, 'tool')
    assert.equal(reqs[2].messages.filter((m) => m.role === 'user').length, 1)
    await limit.fill('100')
  })

  test('plan mode refuses a write with a clear error, and Start lets it through', async () => {
    await page.getByTestId('new-conversation').click()
    await page.getByTestId('plan-mode').check()
    await page.getByTestId('agent-input').fill('plan the change')
    await page.getByTestId('agent-send').click()
    await page.getByTestId('msg-assistant').filter({ hasText: 'Plan: write plan.txt.' }).waitFor()
    const first = toolResults(requestsFor(llm, 'plan the change').at(-1))[0].content
    assert.match(first, /plan_mode/)
    assert.match(requestsFor(llm, 'plan the change')[0].messages[0].text, /Plan mode is on/)
    assert.equal(existsSync(path.join(fixture, 'plan.txt')), false)
    await page.getByTestId('plan-start').click()
    const write = page.locator('[data-testid="tool-card"][data-tool="write_file"]').last()
    await write.getByTestId('approve-once').click()
    await page.getByTestId('msg-assistant').filter({ hasText: 'Wrote plan.txt.' }).waitFor()
    assert.equal(readFileSync(path.join(fixture, 'plan.txt'), 'utf8'), 'planned\n')
    assert.equal(await page.getByTestId('plan-mode').isChecked(), false)
    assert.doesNotMatch(requestsFor(llm, 'plan the change').at(-1).messages[0].text, /Plan mode is on/)
  })

  test('Rewind both after three edits and a command restores the files byte for byte, and the next request lacks the rewound messages', async () => {
    const files = ['config.toml', 'notes.txt', 'made.txt', 'by-command.txt']
    const read = () => Object.fromEntries(files.map((f) => [f, existsSync(path.join(fixture, f)) ? readFileSync(path.join(fixture, f)) : null]))
    const before = read()
    await ask('three edits and a command')
    for (const tool of ['patch_file', 'write_file', 'write_file', 'exec_shell']) {
      const card = page.locator(`[data-testid="tool-card"][data-tool="${tool}"][data-state="waiting"]`).first()
      await card.getByTestId('approve-once').click()
    }
    await page.getByTestId('msg-assistant').filter({ hasText: 'Three edits and a command done.' }).waitFor()
    assert.notDeepEqual(read(), before)
    const msg = page.getByTestId('msg-user').filter({ hasText: 'three edits and a command' })
    await msg.getByTestId('restore-checkpoint').click()
    await msg.getByTestId('rewind-both').click()
    await page.getByTestId('msg-notice').filter({ hasText: 'Files rewound' }).waitFor()
    await page.getByTestId('msg-user').filter({ hasText: 'three edits' }).waitFor({ state: 'detached' })
    assert.deepEqual(read(), before, 'the files are back byte for byte, and what was created is gone')
    await page.getByTestId('agent-input').fill('after the rewind')
    await page.getByTestId('agent-send').click()
    await page.getByTestId('msg-assistant').filter({ hasText: 'fresh start' }).waitFor()
    const next = llm.requests.at(-1)
    // The note on the rewind names the request; the request itself, its calls and their results are gone.
    assert.ok(!next.messages.some((m) => m.role === 'user' && m.text.startsWith('three edits')), 'the rewound request is not sent again')
    assert.equal(toolResults(next).length, 0, 'nor its tool results')
    assert.ok(!JSON.stringify(next.messages).includes('level = 2'))
    assert.match(JSON.stringify(next.messages), /rewound the project's files/)
  })

  test('Edit and resend puts an earlier request back in the box; Retry runs the last one again', async () => {
    await ask('first try: hello')
    await page.getByTestId('msg-assistant').filter({ hasText: 'answer to the first try' }).waitFor()
    const msg = page.getByTestId('msg-user').filter({ hasText: 'first try: hello' })
    await msg.getByTestId('edit-resend').click()
    // Edit cuts the conversation in the backend first: the box and the log change once it answers.
    await until(() => page.getByTestId('agent-input').inputValue(), (v) => assert.equal(v, 'first try: hello'))
    await until(() => page.getByTestId('msg-user').count(), (n) => assert.equal(n, 0))
    await page.getByTestId('agent-input').fill('second try: hello')
    await page.getByTestId('agent-send').click()
    await page.getByTestId('msg-assistant').filter({ hasText: 'answer to the second try' }).waitFor()
    const n = requestsFor(llm, 'second try').length
    await page.getByTestId('agent-retry').click()
    await page.waitForFunction((n) => document.querySelectorAll('[data-testid="msg-assistant"]').length === 1 && n >= 0, n)
    await page.getByTestId('msg-assistant').filter({ hasText: 'answer to the second try' }).waitFor()
    const again = requestsFor(llm, 'second try')
    assert.equal(again.length, n + 1)
    assert.equal(again.at(-1).messages.filter((m) => m.role === 'user').length, 1, 'the retried request is sent once, without the old answer')
  })

  test('Anthropic requests mark the system prompt, the tools and the last messages as cache breakpoints', async () => {
    await useProvider('claude', 'anthropic', `${claude.url}/v1`)
    await ask('say hi to the cache')
    await page.getByTestId('msg-assistant').filter({ hasText: 'cached hello' }).waitFor()
    const body = claude.requests[0].body
    const marked = (x) => JSON.stringify(x ?? {}).includes('"cache_control":{"type":"ephemeral"}')
    assert.ok(Array.isArray(body.system) && marked(body.system.at(-1)), `system: ${JSON.stringify(body.system).slice(0, 200)}`)
    assert.ok(marked(body.tools.at(-1)), 'the last tool closes the tools breakpoint')
    assert.ok(marked(body.messages.at(-1)), 'the last message is a breakpoint')
  })
})
