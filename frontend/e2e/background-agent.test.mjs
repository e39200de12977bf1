// An agent keeps working in a project that is not shown: with two projects open, a turn started in alpha goes on
// while the user works in beta. The strip says what alpha's agent is doing (working, needs you, done), the window's
// title says when alpha waits for an approval, keys pressed in beta never answer alpha's card, and when the user
// comes back alpha's turn has finished with its edit in alpha's folder and beta's files untouched.
import { after, before, describe, test } from 'node:test'
import assert from 'node:assert/strict'
import { existsSync, readFileSync, readdirSync } from 'node:fs'
import path from 'node:path'
import { cleanupAll, makeFixture, screenshot, until } from './harness.mjs'
import { startAgentScenario } from './agent-scenario.mjs'
import { lastTurn } from './fake-llm.mjs'

// The turn: a slow command (held four seconds), an edit that waits for approval, another slow command, a reply.
function script(req) {
  const { user, results } = lastTurn(req)
  if (!user.includes('work in the background')) return { text: 'ok' }
  if (results.length === 0) return { tools: [{ name: 'exec_shell', input: { command: 'node slow.js' } }] }
  if (results.length === 1) return { tools: [{ name: 'write_file', input: { path: 'result.txt', content: 'written by alpha’s agent\n' } }] }
  if (results.length === 2) return { tools: [{ name: 'exec_shell', input: { command: 'node slow.js' } }] }
  return { text: 'Alpha finished its work.' }
}

const tree = (dir) =>
  readdirSync(dir, { recursive: true })
    .filter((p) => !p.split(path.sep).includes('.git'))
    .sort()
    .map((p) => [p, existsSync(path.join(dir, p)) && !p.endsWith('/') ? safeRead(path.join(dir, p)) : ''])
const safeRead = (p) => {
  try {
    return readFileSync(p, 'utf8')
  } catch {
    return '(dir)'
  }
}

describe('an agent in a project not shown', { timeout: 600_000 }, () => {
  let page, alpha, beta, betaBefore, llm

  before(async () => {
    ;({ page, fixture: alpha, llm } = await startAgentScenario({
      script,
      fixture: { name: 'alpha-project', files: { 'notes.txt': 'alpha notes\n', 'slow.js': "setTimeout(() => console.log('slow done'), 4000)\n" } },
      provider: { id: 'scripted', name: 'Scripted' },
    }))
    beta = makeFixture('beta-project', { 'beta-only.txt': 'beta\n', 'notes.txt': 'beta notes\n' })
    betaBefore = tree(beta)
  })

  after(cleanupAll)

  // Every open project's view is mounted; the one shown is the one not hidden.
  const view = () => page.locator('[data-testid="project-view"]:not([hidden])')
  const strip = (name) => page.getByTestId('project-strip-item').filter({ hasText: name })
  const agentState = (name, state) => strip(name).locator(`[data-testid="project-strip-agent"][data-state="${state}"]`)
  const show = async (name) => {
    await strip(name).click()
    await view().getByTestId('project-name').filter({ hasText: name }).waitFor()
  }

  test('opens beta beside alpha, and lets alpha run its slow command without asking', async () => {
    await view().getByTestId('project-name').filter({ hasText: 'alpha-project' }).waitFor()
    await page.getByTestId('project-strip-open').click()
    await page.getByTestId('path-input').fill(beta)
    await page.getByTestId('open-path').click()
    await view().getByTestId('project-name').filter({ hasText: 'beta-project' }).waitFor()
    await page.evaluate(async () => {
      const id = (await window.go.app.Projects.List()).find((p) => p.name === 'alpha-project').id
      await window.go.app.Permissions.AddRule(id, { action: 'allow', tool: 'exec_shell', command: 'node slow.js' })
    })
    await show('alpha-project')
  })

  test("alpha's turn goes on while beta is shown, and the strip and title say what it does", async () => {
    await view().getByTestId('agent-send').waitFor()
    await view().getByTestId('agent-input').fill('work in the background')
    await view().getByTestId('agent-send').click()
    await view().locator('[data-testid="tool-card"][data-tool="exec_shell"]').first().waitFor()
    await show('beta-project')

    // Working: the slow command runs in alpha while the user reads beta's files.
    await agentState('alpha-project', 'working').waitFor()
    await view().locator('[data-testid="tree-node"][data-path="beta-only.txt"]').click()
    assert.equal(await view().locator('[data-testid="tree-node"][data-path="slow.js"]').count(), 0, "beta's tree shows none of alpha's files")

    // Needs you: alpha's edit waits for approval, said in the strip and the window's title.
    await agentState('alpha-project', 'waiting').waitFor({ timeout: 30_000 })
    await page.waitForFunction(() => document.title.includes('alpha-project: Needs approval'))
    await screenshot(page, 'e2e-background-agent-waiting.png')
    // Enter in beta is beta's: alpha's card, out of sight, takes no keys.
    await view().getByTestId('agent-input').focus()
    await page.keyboard.press('Enter')
    await new Promise((r) => setTimeout(r, 500))
    assert.equal(existsSync(path.join(alpha, 'result.txt')), false, 'a key pressed in beta approved nothing in alpha')
    assert.equal(await agentState('alpha-project', 'waiting').count(), 1)

    // Approved in alpha, the turn goes on in the background again and finishes while beta is shown.
    await show('alpha-project')
    assert.equal(await agentState('alpha-project', 'waiting').count(), 1, 'shown, alpha still waits for its answer')
    await view().getByTestId('approve-once').click()
    await show('beta-project')
    await agentState('alpha-project', 'working').waitFor()
    await agentState('alpha-project', 'done').waitFor({ timeout: 30_000 })
    assert.equal(await strip('beta-project').getByTestId('project-strip-agent').count(), 0, "beta's agent did nothing")
  })

  test("back in alpha, its turn has finished with its edit in alpha's folder and beta's untouched", async () => {
    await show('alpha-project')
    await view().getByTestId('msg-assistant').filter({ hasText: 'Alpha finished its work.' }).waitFor()
    // Shown, the view marks its finished turn read from an effect: the strip drops the mark a render later.
    await until(() => agentState('alpha-project', 'done').count(), (n) => assert.equal(n, 0, 'looked at, done is read'))
    assert.equal(readFileSync(path.join(alpha, 'result.txt'), 'utf8'), 'written by alpha’s agent\n')
    assert.equal(readFileSync(path.join(alpha, 'notes.txt'), 'utf8'), 'alpha notes\n')
    assert.deepEqual(tree(beta), betaBefore, "beta's folder is as it was")
    await screenshot(page, 'e2e-background-agent-done.png')
  })

  test("closing alpha while its agent works stops that agent and leaves beta open", async () => {
    await view().getByTestId('new-conversation').click()
    await view().getByTestId('agent-input').fill('work in the background')
    await view().getByTestId('agent-send').click()
    await view().locator('[data-testid="tool-card"][data-tool="exec_shell"]').first().waitFor()
    await agentState('alpha-project', 'working').waitFor()
    const asked = llm.requests.length
    await show('beta-project')
    await strip('alpha-project').hover() // its × shows on hover
    await page.getByRole('button', { name: 'Close alpha-project' }).click()
    // Stopped with its view: once its slow command would have ended, the model was asked nothing more.
    await new Promise((r) => setTimeout(r, 6000))
    assert.equal(llm.requests.length, asked, "alpha's agent went on after alpha closed")
    assert.equal(await strip('alpha-project').count(), 0)
    await view().getByTestId('project-name').filter({ hasText: 'beta-project' }).waitFor()
    await view().locator('[data-testid="tree-node"][data-path="beta-only.txt"]').waitFor()
    assert.equal(await page.getByTestId('project-view').count(), 1, "alpha's view is gone with it")
  })
})
