// Permissions and background jobs in the window, end to end: the real UI served by `wails dev`, a scripted model
// speaking the OpenAI streaming protocol, and every call through the real backend (rules in the user's settings,
// the sandboxed go test, git, a background node process).
import { after, before, describe, test } from 'node:test'
import assert from 'node:assert/strict'
import { cleanupAll, gitCommitted, screenshot } from './harness.mjs'
import { askAgent, newConversation, startAgentScenario } from './agent-scenario.mjs'
import { answering, lastTurn } from './fake-llm.mjs'

const tick = `node -e "setInterval(() => console.log('tick'), 200)"`

// script answers each request; a reply it cannot make is text saying why, never a request left hanging.
const script = answering(reply)

function reply(req) {
  const { user, results, last } = lastTurn(req)
  if (user.includes('count the files')) {
    if (results.length === 0) return { tools: [{ name: 'exec_shell', input: { command: 'ls | wc -l' } }] }
    return { text: `Told: ${last}` }
  }
  if (user.includes('run the tests')) {
    if (results.length === 0) return { tools: [{ name: 'exec_shell', input: { command: 'go test ./...' } }] }
    return { text: /"exit_code":0|exit code 0/.test(last) ? 'Tests passed.' : `Tests failed: ${last}` }
  }
  if (user.includes('status, then push')) {
    if (results.length === 0) return { tools: [{ name: 'exec_shell', input: { command: 'git status --short' } }] }
    if (results.length === 1) return { tools: [{ name: 'exec_shell', input: { command: 'git push origin main' } }] }
    return { text: `Push: ${last}` }
  }
  if (user.includes('start the ticker')) {
    if (results.length === 0) return { tools: [{ name: 'exec_shell', input: { command: tick, background: true } }] }
    if (results.length === 1) {
      const id = /job-\d+/.exec(last)?.[0]
      if (!id) return { text: `no job: ${last}` }
      return { tools: [{ name: 'job_output', input: { id, wait_ms: 5000 } }] }
    }
    return { text: last.includes('tick') ? 'The ticker runs: I saw tick.' : `no tick: ${last}` }
  }
  if (user.includes('break Add')) {
    if (results.length === 0) return { tools: [{ name: 'read_file', input: { path: 'calc.go' } }] }
    if (results.length === 1) return { tools: [{ name: 'patch_file', input: { path: 'calc.go', search: 'return a + b', replace: 'return a + c' } }] }
    // Results reach the model as text or JSON: what matters is that the check's problem is in it.
    const problem = /calc\.go:3: undefined: c/.exec(last)
    return { text: problem ? `The check says: ${problem[0]}` : `no diagnostics: ${last}` }
  }
  return { text: 'ok' }
}

describe('permissions and background jobs', { timeout: 600_000 }, () => {
  let page, fixture, llm

  before(async () => {
    ;({ page, fixture, llm } = await startAgentScenario({
      script,
      fixture: {
        name: 'calc',
        files: {
          'go.mod': 'module example.com/calc\n\ngo 1.21\n',
          'calc.go': 'package calc\n\nfunc Add(a, b int) int { return a + b }\n',
          'calc_test.go': 'package calc\n\nimport "testing"\n\nfunc TestAdd(t *testing.T) {\n\tif Add(2, 3) != 5 {\n\t\tt.Fatal("Add")\n\t}\n}\n',
        },
        setup: gitCommitted,
      },
      provider: { id: 'scripted', name: 'Scripted' },
    }))
  })

  after(cleanupAll)

  const ask = (text) => askAgent(page, text)
  const lastCard = () => page.locator('[data-testid="tool-card"][data-tool="exec_shell"]').last()

  test('a command that cannot run is answered at once and never shown for approval', async () => {
    await ask('count the files')
    await page.getByTestId('msg-assistant').filter({ hasText: 'Told:' }).waitFor()
    const card = lastCard()
    assert.equal(await card.getAttribute('data-state'), 'failed')
    assert.equal(await page.getByTestId('approval').count(), 0, 'no approval card was shown')
    assert.equal(await card.getByTestId('tool-error').getAttribute('data-code'), 'invalid_argument')
    assert.match(lastTurn(llm.requests.at(-1)).last, /invalid_argument.*pipes are not run/)
  })

  test('Always allow holds in a new conversation and after a reload', async () => {
    await newConversation(page)
    await ask('run the tests')
    const card = lastCard()
    const always = card.getByTestId('approve-always')
    await always.waitFor()
    assert.equal(await always.innerText(), 'Always allow `go test …` in this project')
    await always.click()
    await page.getByTestId('msg-assistant').filter({ hasText: 'Tests passed.' }).waitFor({ timeout: 180_000 })

    // A new conversation: the rule holds, the command runs without a card asking.
    await newConversation(page)
    await ask('run the tests')
    await page.getByTestId('msg-assistant').filter({ hasText: 'Tests passed.' }).waitFor({ timeout: 180_000 })
    assert.equal(await page.getByTestId('approval').count(), 0)

    // After a reload (the window starting again): the same.
    await page.reload()
    await page.getByTestId('agent-model').filter({ hasText: 'Scripted' }).waitFor()
    await ask('run the tests')
    await page.getByTestId('msg-assistant').filter({ hasText: 'Tests passed.' }).waitFor({ timeout: 180_000 })
    assert.equal(await page.getByTestId('approval').count(), 0)

    // Settings lists the rule.
    await page.getByTestId('open-settings').click()
    await page.locator('[data-testid="rule"][data-action="allow"][data-command="go test"]').waitFor()
    await page.getByTestId('settings-close').click()
  })

  test('git push asks under an allow rule for git, while git status runs', async () => {
    await page.getByTestId('open-settings').click()
    await page.getByTestId('rule-command').fill('git')
    await page.getByTestId('rule-add').click()
    await page.locator('[data-testid="rule"][data-action="allow"][data-command="git"]').waitFor()
    await page.getByTestId('settings-close').click()

    await newConversation(page)
    await ask('status, then push')
    const push = page.locator('[data-testid="tool-card"][data-tool="exec_shell"]', { hasText: 'git push' })
    await push.getByTestId('approval').waitFor()
    // git status ran without asking.
    const status = page.locator('[data-testid="tool-card"][data-tool="exec_shell"]', { hasText: 'git status' })
    assert.equal(await status.getAttribute('data-state'), 'done')
    assert.match(await push.getByTestId('approval-why').innerText(), /publishes/)
    assert.equal(await push.getByTestId('approve-always').innerText(), 'Always allow `git push …` in this project')
    await screenshot(page, 'e2e-permissions-push.png')
    await push.getByTestId('deny').click()
    await page.getByTestId('msg-assistant').filter({ hasText: 'Push:' }).waitFor()
    assert.match(lastTurn(llm.requests.at(-1)).last, /denied_by_user/)
  })

  test('a compile error introduced by an edit reaches the model in the edit\'s result', async () => {
    await newConversation(page)
    await ask('break Add')
    const card = page.locator('[data-testid="tool-card"][data-tool="patch_file"]').last()
    await card.getByTestId('approve-once').click()
    try {
      await page.getByTestId('msg-assistant').filter({ hasText: 'The check says:' }).waitFor({ timeout: 180_000 })
    } catch (e) {
      console.error('last request:', JSON.stringify(lastTurn(llm.requests.at(-1))).slice(0, 3000))
      console.error('card:', await card.innerText())
      await screenshot(page, 'e2e-permissions-diagnostics-failed.png')
      throw e
    }
    assert.match(lastTurn(llm.requests.at(-1)).last, /diagnostics.*calc\.go:3: undefined: c/s)
    await card.getByTestId('diagnostic').filter({ hasText: 'calc.go:3: undefined: c' }).waitFor()
  })

  test('a background job: the model reads its output, the Run tab shows it live and stops it', async () => {
    await newConversation(page)
    await ask('start the ticker')
    const card = lastCard()
    await card.getByTestId('approve-once').click()
    await page.getByTestId('msg-assistant').filter({ hasText: 'The ticker runs: I saw tick.' }).waitFor()
    await card.getByTestId('tool-job').waitFor()

    await page.getByTestId('tab-run').click()
    const job = page.locator('[data-testid="job"][data-state="running"]')
    await job.getByTestId('job-output').filter({ hasText: /tick\s+tick/ }).waitFor()
    await job.getByTestId('job-stop').click()
    const stopped = page.locator('[data-testid="job"][data-state="done"]')
    await stopped.getByTestId('job-status').filter({ hasText: 'stopped' }).waitFor()
    // The job writes nothing after Stop (its process is gone), and the Run tab shows all it wrote.
    const written = async () => (await page.evaluate(async () => window.go.app.Jobs.List((await window.go.app.Projects.Current()).id)))[0].bytes
    const bytes = await written()
    await new Promise((r) => setTimeout(r, 1000))
    assert.equal(await written(), bytes, 'the job wrote after Stop')
    await page.waitForFunction((n) => document.querySelector('[data-testid="job"][data-state="done"] [data-testid="job-output"]')?.textContent?.length === n, bytes)
    await screenshot(page, 'e2e-permissions-jobs.png')
  })
})
