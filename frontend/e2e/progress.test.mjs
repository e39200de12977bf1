// Progress as a person watching it sees it: the row under the log names the step and counts its seconds (a busy
// provider's retry with its countdown, a command running, the check after an edit), and a window that is not
// focused gets a title that says the agent needs approval or is done (and a notification where the web view
// allows them), put back when the window is focused again.
import { after, before, describe, test } from 'node:test'
import assert from 'node:assert/strict'
import { cleanupAll, screenshot, until } from './harness.mjs'
import { askAgent, startAgentScenario } from './agent-scenario.mjs'

function script(req) {
  const user = req.messages.filter((m) => m.role === 'user').at(-1)?.text ?? ''
  const results = req.messages.slice(req.messages.findLastIndex((m) => m.role === 'user') + 1).filter((m) => m.role === 'tool')
  if (user.includes('say hello')) return { text: 'Hello.' }
  if (user.includes('run the slow build')) {
    if (results.length === 0) return { tools: [{ name: 'exec_shell', input: { command: 'node slow.js' } }] }
    return { text: 'Built.' }
  }
  if (user.includes('write the todo list')) {
    if (results.length === 0) return { tools: [{ name: 'write_file', input: { path: 'todo.md', content: '- ship it\n' } }] }
    return { text: 'Written.' }
  }
  return { text: 'ok' }
}

describe('progress for people', { timeout: 600_000 }, () => {
  let page

  before(async () => {
    ;({ page } = await startAgentScenario({
      script,
      llmOptions: { overloaded: 1 },
      fixture: {
        name: 'slow',
        files: {
          'slow.js': "setTimeout(() => console.log('built'), 3500)\n",
          'check.js': "setTimeout(() => console.log('checked'), 2500)\n",
        },
      },
      provider: { id: 'scripted', name: 'Scripted' },
    }))
  })

  after(cleanupAll)

  const label = () => page.getByTestId('turn-status-label')
  const elapsed = async () => Number((await page.getByTestId('turn-status-elapsed').textContent()).match(/(\d+) s/)[1])

  test('a busy provider: the row says it waits and counts down to the retry, then the answer comes', async () => {
    // The stand-in answers the first request with HTTP 529, as Anthropic does when overloaded.
    await askAgent(page, 'say hello')
    await label().filter({ hasText: 'Waiting for Scripted (HTTP 529) · retry in 2 s' }).waitFor({ timeout: 5_000 })
    await screenshot(page, 'e2e-progress-retry.png')
    await label().filter({ hasText: 'retry in 1 s' }).waitFor({ timeout: 3_000 })
    await page.getByTestId('msg-assistant').filter({ hasText: 'Hello.' }).waitFor()
    await page.getByTestId('turn-status').waitFor({ state: 'detached' })
  })

  test('a command: the row names it and its seconds tick', async () => {
    await askAgent(page, 'run the slow build')
    await label().filter({ hasText: 'Needs your approval: Running node slow.js' }).waitFor()
    await page.getByTestId('approve-once').click()
    await label().filter({ hasText: /^Running node slow\.js$/ }).waitFor()
    const first = await elapsed()
    await page.waitForFunction(
      (n) => Number(document.querySelector('[data-testid="turn-status-elapsed"]')?.textContent.match(/(\d+) s/)?.[1] ?? -1) >= n + 2,
      first,
      { timeout: 5_000 },
    )
    await screenshot(page, 'e2e-progress-command.png')
    await page.getByTestId('msg-assistant').filter({ hasText: 'Built.' }).waitFor()
  })

  test('the check after an edit is named while it runs', async () => {
    await page.evaluate(async () => window.go.app.Diagnostics.SetMode((await window.go.app.Projects.Current()).id, 'node check.js'))
    await askAgent(page, 'write the todo list')
    await page.getByTestId('approve-once').click()
    await label().filter({ hasText: 'Checking todo.md after the edit' }).waitFor()
    await page.waitForFunction(() => /[1-9] s/.test(document.querySelector('[data-testid="turn-status-elapsed"]')?.textContent ?? ''), null, { timeout: 5_000 })
    await page.getByTestId('msg-assistant').filter({ hasText: 'Written.' }).waitFor()
    await page.evaluate(async () => window.go.app.Diagnostics.SetMode((await window.go.app.Projects.Current()).id, ''))
  })

  test('away from the window: the title and a notification say it needs approval, then that it is done', async () => {
    // The window manager's side, stood in for: the page is not focused, and the notifications the system would show
    // (through Wails' runtime) are kept.
    await page.evaluate(() => {
      window.shown = []
      document.hasFocus = () => false
      window.runtime.InitializeNotifications = async () => undefined
      window.runtime.SendNotification = async (o) => void window.shown.push(`${o.title}: ${o.body}`)
    })
    await askAgent(page, 'run the slow build')
    await page.waitForFunction(() => document.title === '● Needs approval — Rooted')
    await page.getByTestId('approve-once').click()
    await page.waitForFunction(() => document.title === '● Finished — Rooted', null, { timeout: 15_000 })
    // The notification goes out from an async call made beside the title's change, not with it.
    const shown = await until(
      () => page.evaluate(() => window.shown),
      (s) => assert.deepEqual(s.map((s) => s.split(':')[0]), ['Needs approval — Rooted', 'Finished — Rooted']),
    )
    assert.match(shown[0], /say hello/, 'the notification names the conversation')
    // Back at the window: the title is the app's again.
    await page.evaluate(() => {
      document.hasFocus = () => true
      window.dispatchEvent(new Event('focus'))
    })
    await page.waitForFunction(() => document.title === 'Rooted')
  })

  test('with no notification service, the web view’s Notification is used where granted', async () => {
    await page.evaluate(() => {
      window.shown = []
      document.hasFocus = () => false
      window.runtime.InitializeNotifications = async () => {
        throw new Error('failed to connect to session bus')
      }
      window.runtime.SendNotification = async () => {
        throw new Error('not initialised')
      }
      window.Notification = class {
        static permission = 'granted'
        constructor(title, o) {
          window.shown.push(`${title}: ${o?.body ?? ''}`)
        }
      }
    })
    await askAgent(page, 'say hello')
    await page.waitForFunction(() => document.title === '● Finished — Rooted')
    await page.waitForFunction(() => window.shown.length === 1)
    assert.match(await page.evaluate(() => window.shown[0]), /^Finished — Rooted: say hello/)
  })
})
