// The window driven by keys alone: after the page loads, not one click. Ctrl+L goes to the request box, Enter sends
// and allows a command's approval, typing during the turn is queued (not sent), Esc stops the turn and puts it back, Ctrl+N starts
// a conversation, Ctrl+P opens a file by name, Ctrl+Shift+F searches, Ctrl+, opens Settings and Esc closes it,
// Ctrl+/ lists the shortcuts.
import { after, before, describe, test } from 'node:test'
import assert from 'node:assert/strict'
import { cleanupAll, screenshot } from './harness.mjs'
import { startAgentScenario } from './agent-scenario.mjs'

function script(req) {
  const user = req.messages.filter((m) => m.role === 'user').at(-1)?.text ?? ''
  const results = req.messages.slice(req.messages.findLastIndex((m) => m.role === 'user') + 1).filter((m) => m.role === 'tool')
  if (user.includes('wait a while')) {
    if (results.length === 0) return { tools: [{ name: 'exec_shell', input: { command: `node -e "setTimeout(() => console.log('woke'), 60000); console.log('sleeping')"` } }] }
    return { text: 'Done waiting.' }
  }
  return { text: 'ok' }
}

describe('the keyboard', { timeout: 600_000 }, () => {
  let page, llm

  before(async () => {
    ;({ page, llm } = await startAgentScenario({
      script,
      fixture: { name: 'calc', files: { 'calc.go': 'package calc\n\nfunc Add(a, b int) int { return a + b }\n', 'docs/notes.md': '# Notes\n' } },
      provider: { id: 'scripted', name: 'Scripted' },
    }))
  })

  after(cleanupAll)

  const focused = () => page.evaluate(() => document.activeElement?.dataset?.testid ?? document.activeElement?.tagName)

  test('Ctrl+L, Enter to send and to allow, typing queued during the turn, Esc stops it and gives it back, Ctrl+N starts anew', async () => {
    await page.keyboard.press('Control+l')
    assert.equal(await focused(), 'agent-input')
    await page.keyboard.type('wait a while')
    await page.keyboard.press('Enter')
    const card = page.locator('[data-testid="tool-card"][data-tool="exec_shell"]')
    await card.getByTestId('approval').waitFor()
    await page.keyboard.press('Enter') // allows once
    await card.getByTestId('tool-output').filter({ hasText: 'sleeping' }).waitFor()
    // Typing while the agent works: Enter queues it for the agent's next step, and sends nothing yet.
    const requests = llm.requests.length
    await page.keyboard.type('next: add Sub')
    await page.keyboard.press('Enter')
    await page.getByTestId('queued-message').waitFor()
    assert.equal(await page.getByTestId('queued-text').inputValue(), 'next: add Sub')
    assert.equal(llm.requests.length, requests, 'nothing was sent during the turn')
    await page.keyboard.press('Escape')
    await page.getByTestId('agent-send').waitFor()
    await card.getByTestId('tool-exit').filter({ hasText: 'stopped' }).waitFor()
    assert.equal(await page.getByTestId('agent-input').inputValue(), 'next: add Sub', 'the queued text is back in the box after the stop')

    await page.keyboard.press('Control+n')
    await page.getByTestId('conversation-title').filter({ hasText: 'New conversation' }).waitFor()
    assert.equal(await page.getByTestId('tool-card').count(), 0)
    assert.equal(await focused(), 'agent-input')
  })

  test('Ctrl+P opens a file by name, Ctrl+Shift+F searches, Ctrl+, and Esc open and close Settings, Ctrl+/ lists the keys', async () => {
    await page.keyboard.press('Control+p')
    await page.getByTestId('quick-open').waitFor()
    assert.equal(await focused(), 'quick-open-input')
    await page.keyboard.type('note')
    await page.locator('[data-testid="quick-open-item"][data-path="docs/notes.md"]').waitFor()
    await page.keyboard.press('Enter')
    await page.getByTestId('file-name').filter({ hasText: 'docs/notes.md' }).waitFor()
    assert.equal(await page.getByTestId('quick-open').count(), 0)

    await page.keyboard.press('Control+Shift+F')
    await page.waitForFunction(() => document.activeElement?.dataset?.testid === 'search-input')
    await page.keyboard.type('func Add')
    await page.keyboard.press('Enter')
    await page.locator('[data-testid="search-hit"][data-path="calc.go"]').waitFor()

    await page.keyboard.press('Control+,')
    await page.getByTestId('settings').waitFor()
    await page.keyboard.press('Escape')
    await page.getByTestId('settings').waitFor({ state: 'detached' })

    await page.keyboard.press('Control+/')
    await page.getByTestId('shortcuts').waitFor()
    const listed = await page.getByTestId('shortcut').allInnerTexts()
    for (const keys of ['Esc', 'Ctrl+N', 'Ctrl+P', 'Ctrl+Shift+F', 'Ctrl+L', 'Ctrl+,', 'Ctrl+/']) assert.ok(listed.some((l) => l.startsWith(keys)), `${keys} is listed`)
    await screenshot(page, 'e2e-keyboard-shortcuts.png')
    await page.keyboard.press('Escape')
    await page.getByTestId('shortcuts').waitFor({ state: 'detached' })
  })
})
