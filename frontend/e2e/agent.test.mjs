// The agent in the window, end to end: Chromium drives the real UI served by `wails dev`; the model is a local
// stand-in speaking the real OpenAI and Anthropic streaming protocols with scripted replies; every tool call goes
// through the real backend (files, snapshots, the sandboxed go test).
import { after, before, describe, test } from 'node:test'
import assert from 'node:assert/strict'
import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { cleanupAll, launchBrowser, makeFixture, onCleanup, openProject, screenshot, startDevApp } from './harness.mjs'
import { startFakeLLM, toolResults } from './fake-llm.mjs'

const buggy = 'package calc\n\n// Add returns the sum of a and b.\nfunc Add(a, b int) int {\n\treturn a - b\n}\n'
const calcTest = 'package calc\n\nimport "testing"\n\nfunc TestAdd(t *testing.T) {\n\tif got := Add(2, 3); got != 5 {\n\t\tt.Fatalf("Add(2, 3) = %d, want 5", got)\n\t}\n}\n'

// The fix-the-bug conversation: search, read, patch, run the tests, finish; each step follows the results the
// model was sent, so a wrong or missing result changes the script's path and fails the test.
function fixScript(req) {
  const results = toolResults(req)
  const last = results[results.length - 1]?.content ?? ''
  switch (results.length) {
    case 0:
      return { text: 'Let me find Add.', tools: [{ name: 'search_files', input: { query: 'func Add' } }] }
    case 1:
      if (!last.includes('calc.go')) return { text: `search failed: ${last}` }
      return { tools: [{ name: 'read_file', input: { path: 'calc.go' } }] }
    case 2:
      return { text: 'It subtracts. Fixing.', tools: [{ name: 'patch_file', input: { path: 'calc.go', search: 'return a - b', replace: 'return a + b' } }] }
    case 3:
      if (!/"replaced":1|replaced: 1/.test(last)) return { text: `patch failed: ${last}` }
      return { tools: [{ name: 'exec_shell', input: { command: 'go test ./...' } }] }
    default:
      return { text: /"exit_code":0|exit code 0/.test(last) && last.includes('ok') ? 'Fixed: Add now adds, and go test passes.' : `tests failed: ${last}` }
  }
}

// The denied conversation: the model asks to delete a file, and answers what it was told.
function denyScript(req) {
  const results = toolResults(req)
  if (results.length === 0) return { tools: [{ name: 'exec_shell', input: { command: 'rm notes.txt' } }] }
  return { text: `Understood. The tool said: ${results[0].content}` }
}

// The stopped conversation: a command that never ends.
function stopScript(req) {
  if (toolResults(req).length === 0) return { text: 'Watching.', tools: [{ name: 'exec_shell', input: { command: `node -e "setInterval(() => console.log('tick'), 100)"` } }] }
  return { text: 'should not be reached' }
}

describe('agent', { timeout: 600_000 }, () => {
  let page, fixture, openai, anthropic, stopper

  before(async () => {
    openai = await startFakeLLM(fixScript)
    anthropic = await startFakeLLM(denyScript, { overloaded: 1 })
    stopper = await startFakeLLM(stopScript)
    onCleanup(() => stopper.close())
    onCleanup(() => openai.close())
    onCleanup(() => anthropic.close())
    const app = await startDevApp()
    const browser = await launchBrowser()
    page = await browser.newPage()
    fixture = makeFixture('calc', { 'go.mod': 'module example.com/calc\n\ngo 1.21\n', 'calc.go': buggy, 'calc_test.go': calcTest, 'notes.txt': 'keep me\n' })
    await page.goto(app.url)
    await openProject(page, fixture)
  })

  after(cleanupAll)

  test('a provider is set up in the settings screen and lists its models through the backend', async () => {
    await page.getByTestId('open-settings').click()
    await page.getByTestId('provider-add').click()
    await page.getByTestId('provider-id').fill('scripted')
    await page.getByTestId('provider-url').fill(`${openai.url}/v1`)
    await page.getByTestId('provider-key').fill('sk-test-key')
    await page.getByTestId('provider-save').click()
    await page.getByTestId('settings-saved').filter({ hasText: 'saved' }).waitFor()
    await page.getByTestId('provider-list-models').click()
    await page.getByTestId('provider-models').filter({ hasText: '3 models' }).waitFor()
    // Once added, the provider's changes save as they are made.
    assert.equal(await page.getByTestId('provider-save').count(), 0, 'no Save for a saved provider')
    await page.getByTestId('provider-model').fill('scripted')
    await page.getByTestId('provider-form-saved').waitFor()
    await page.locator('[data-testid="provider"][data-id="scripted"] input[type="radio"]').click()
    await page.getByTestId('settings-saved').filter({ hasText: 'used for new requests' }).waitFor()
    // The key is stored by the backend and never shown again.
    assert.equal(await page.getByTestId('provider-key').inputValue(), '')
    assert.match(await page.locator('[data-testid="provider"][data-id="scripted"]').innerText(), /key from settings/)
    assert.match(await page.getByTestId('settings-sandbox').innerText(), /landlock \d+/)
    // The sandbox's openings: a lone * is refused with its field named, then a prefix and a socket are saved.
    // They save as they change, under Advanced.
    await page.getByTestId('settings-advanced').locator('summary').click()
    await page.getByTestId('settings-env-allow').fill('*')
    await page.getByTestId('settings-env-allow-error').filter({ hasText: 'a lone * would pass every variable' }).waitFor()
    await page.getByTestId('settings-env-allow').fill('MY_TOOL_* DEBUG')
    await page.getByTestId('settings-env-allow-saved').waitFor()
    await page.getByTestId('settings-sockets').fill('/var/run/docker.sock')
    await page.getByTestId('settings-sockets-saved').waitFor()
    const saved = await page.evaluate(async () => window.go.app.Settings.Project((await window.go.app.Projects.Current()).id))
    assert.deepEqual([saved.env_allow, saved.unix_sockets], [['MY_TOOL_*', 'DEBUG'], ['/var/run/docker.sock']])
    await page.getByTestId('settings-close').click()
    await page.getByTestId('agent-model').filter({ hasText: 'scripted · scripted' }).waitFor()
    // The panel's picker lists the provider's models and switches between them.
    const pick = page.getByTestId('agent-model-pick')
    await pick.focus()
    await pick.locator('option[value="scripted-large"]').waitFor({ state: 'attached' })
    await pick.selectOption('scripted-large')
    await page.getByTestId('agent-model').filter({ hasText: 'scripted · scripted-large' }).waitFor()
    await pick.selectOption('scripted')
    await page.getByTestId('agent-model').filter({ hasText: 'scripted · scripted' }).waitFor()
  })

  test('the agent searches, reads, patches with approval, runs go test with approval, and Undo restores the file', async () => {
    await page.getByTestId('agent-input').fill('Add is broken: fix it and run the tests')
    await page.getByTestId('agent-send').click()

    // Read-only calls ran without asking; the patch waits for approval and shows what it will change.
    const patch = page.locator('[data-testid="tool-card"][data-tool="patch_file"]')
    await patch.locator('[data-testid="approval"]').waitFor()
    // The card shows the change in its context: the diff of a dry run, with the lines around it.
    assert.match(await patch.getByTestId('approval-diff').innerText(), /func Add\(a, b int\) int \{\s+-\s*return a - b\s+\+\s*return a \+ b\s+\}/)
    assert.equal(readFileSync(path.join(fixture, 'calc.go'), 'utf8'), buggy, 'nothing is written before approval')
    assert.equal(await page.locator('[data-testid="tool-card"][data-tool="search_files"][data-state="done"]').count(), 1)
    assert.equal(await page.locator('[data-testid="tool-card"][data-tool="read_file"][data-state="done"]').count(), 1)
    await patch.getByTestId('approve-once').click()

    // The diff card, and the file on disk.
    const diff = patch.getByTestId('tool-diff')
    await diff.waitFor()
    assert.match(await diff.innerText(), /-\s*return a - b/)
    assert.match(await diff.innerText(), /\+\s*return a \+ b/)
    assert.match(readFileSync(path.join(fixture, 'calc.go'), 'utf8'), /return a \+ b/)

    // The command asks too, per program; approved, it runs sandboxed and its output shows.
    const exec = page.locator('[data-testid="tool-card"][data-tool="exec_shell"]')
    await exec.locator('[data-testid="approval"]').waitFor()
    assert.equal(await exec.getByTestId('approve-session').innerText(), 'Allow go for this session')
    await exec.getByTestId('approve-once').click()
    await exec.getByTestId('tool-exit').filter({ hasText: 'exit 0' }).waitFor({ timeout: 180_000 })
    assert.match(await exec.getByTestId('tool-output').innerText(), /ok\s+example\.com\/calc/)

    // The model saw the output and finished; usage is counted.
    await page.getByTestId('msg-assistant').filter({ hasText: 'Fixed: Add now adds, and go test passes.' }).waitFor()
    assert.match(await page.getByTestId('agent-usage').innerText(), /[1-9][\d,]* in · [1-9]\d* out/)
    // The provider got the key from the backend, and the system prompt named the project root.
    assert.equal(openai.requests[0].headers.authorization, 'Bearer sk-test-key')
    assert.ok(openai.requests[0].messages[0].text.includes(fixture), 'the system prompt names the root')
    assert.ok(openai.requests[0].tools.includes('patch_file') && openai.requests[0].tools.includes('exec_shell'))
    await screenshot(page, 'e2e-agent.png')

    // A search hit in the conversation opens the file at its line.
    await page.locator('[data-testid="tool-hit"][data-path="calc.go"]').click()
    await page.getByTestId('file-name').filter({ hasText: 'calc.go' }).waitFor()
    await page.locator('.cm-activeLine', { hasText: 'func Add' }).waitFor()

    // Undo restores the file from the snapshot taken before the patch.
    await patch.getByTestId('undo').click()
    await patch.getByTestId('undo').filter({ hasText: 'Undone' }).waitFor()
    assert.equal(readFileSync(path.join(fixture, 'calc.go'), 'utf8'), buggy)
  })

  test('the conversation survives a reload and can be reopened from the list', async () => {
    await page.reload()
    await page.getByTestId('conversations-toggle').click()
    const item = page.getByTestId('conversation-item').filter({ hasText: 'Add is broken' })
    await item.waitFor()
    await item.click()
    await page.locator('[data-testid="tool-card"][data-tool="patch_file"] [data-testid="tool-diff"]').waitFor()
    await page.getByTestId('msg-assistant').filter({ hasText: 'Fixed: Add now adds' }).waitFor()
    assert.equal(await page.getByTestId('undo').innerText(), 'Undone')
  })

  test('over the Anthropic protocol, after a retried overload, a denied command is not run and the model is told why', async () => {
    await page.evaluate(async (url) => {
      await window.go.app.Agent.SaveProvider({ id: 'claude', name: 'Claude (scripted)', kind: 'anthropic', base_url: url, model: 'scripted', api_key: 'sk-ant-test', clear_key: false })
      await window.go.app.Agent.SetActive('claude', '')
    }, `${anthropic.url}/v1`)
    await page.reload()
    await page.getByTestId('agent-model').filter({ hasText: 'Claude (scripted)' }).waitFor()
    await page.getByTestId('agent-input').fill('delete notes.txt')
    await page.getByTestId('agent-send').click()
    const exec = page.locator('[data-testid="tool-card"][data-tool="exec_shell"]')
    await exec.getByTestId('deny-reason').fill('I still need those notes')
    await exec.getByTestId('deny').click()
    await page.getByTestId('msg-assistant').filter({ hasText: 'Understood.' }).waitFor()
    assert.equal(await exec.getAttribute('data-state'), 'denied')
    assert.ok(existsSync(path.join(fixture, 'notes.txt')), 'the denied command did not run')
    const told = toolResults(anthropic.requests.at(-1))[0].content
    assert.match(told, /denied_by_user/)
    assert.match(told, /I still need those notes/)
    assert.equal(anthropic.requests[0].headers['x-api-key'], 'sk-ant-test')
    // The first request met a 529 and was retried: three requests for two model calls.
    assert.equal(anthropic.requests.length, 3)
    await screenshot(page, 'e2e-agent-denied.png')
  })

  test('Stop ends the turn and kills the running command', async () => {
    await page.evaluate(async (url) => {
      await window.go.app.Agent.SaveProvider({ id: 'stopper', name: 'Stopper', kind: 'openai-compatible', base_url: url, model: 'scripted', api_key: '', clear_key: false })
      await window.go.app.Agent.SetActive('stopper', '')
    }, `${stopper.url}/v1`)
    await page.reload()
    await page.getByTestId('agent-model').filter({ hasText: 'Stopper' }).waitFor()
    await page.getByTestId('agent-input').fill('watch the ticks')
    await page.getByTestId('agent-send').click()
    const exec = page.locator('[data-testid="tool-card"][data-tool="exec_shell"]')
    await exec.getByTestId('approve-once').click()
    await exec.getByTestId('tool-output').filter({ hasText: /tick\s+tick/ }).waitFor()
    await page.getByTestId('agent-stop').click()
    await page.getByTestId('msg-notice').filter({ hasText: 'Stopped.' }).waitFor()
    await page.getByTestId('agent-send').waitFor()
    assert.equal(stopper.requests.length, 1, 'the model was not called again after Stop')
    // The command was stopped (its whole process group) and its output stops growing.
    await exec.getByTestId('tool-exit').filter({ hasText: 'stopped' }).waitFor()
    const before = await exec.getByTestId('tool-output').innerText()
    await new Promise((r) => setTimeout(r, 600))
    assert.equal(await exec.getByTestId('tool-output').innerText(), before)
  })
})
