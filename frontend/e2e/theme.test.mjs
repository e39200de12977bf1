// The dark theme holds on every screen a person meets: the workbench with a file open, an open approval card, the
// request's restore sheet, plan mode with its Start, and Settings. On each, every visible piece of text meets WCAG's contrast
// minimum (4.5:1, 3:1 for large text) against what is behind it, computed in the page from the computed colours,
// and no control (select, number box, checkbox, radio, button, summary) is drawn lighter than the theme allows,
// measured on the screenshot's pixels.
import { after, before, describe, test } from 'node:test'
import assert from 'node:assert/strict'
import { cleanupAll, gitCommitted, screenshot } from './harness.mjs'
import { askAgent, newConversation, startAgentScenario } from './agent-scenario.mjs'
import { lastTurn } from './fake-llm.mjs'
import { contrastFailures, lightControls } from './contrast.mjs'

function script(req) {
  const { user, results } = lastTurn(req)
  if (user.includes('fix the sum')) {
    if (results.length === 0) return { tools: [{ name: 'read_file', input: { path: 'calc.go' } }] }
    if (results.length === 1) return { tools: [{ name: 'patch_file', input: { path: 'calc.go', search: 'return a - b', replace: 'return a + b' } }] }
    return { text: 'Left as it was.' }
  }
  if (user.includes('plan the fix')) return { text: 'Plan: change `a - b` to `a + b` in calc.go, then run the tests.' }
  return { text: 'ok' }
}

describe('the dark theme', { timeout: 600_000 }, () => {
  let page

  before(async () => {
    ;({ page } = await startAgentScenario({
      script,
      fixture: {
        name: 'calc',
        files: {
          '.gitignore': 'dist/\n',
          'go.mod': 'module example.com/calc\n\ngo 1.21\n',
          'calc.go': 'package calc\n\n// Add returns the sum.\nfunc Add(a, b int) int { return a - b }\n',
          'dist/out.txt': 'built\n',
        },
        setup: gitCommitted,
      },
      provider: { id: 'scripted', name: 'Scripted' },
    }))
  })

  after(cleanupAll)

  // check runs both probes on the screen as it is now and keeps a screenshot of it.
  const found = []
  async function check(screen, scope = 'body') {
    await page.evaluate(() => document.fonts.ready)
    const text = await contrastFailures(page, scope)
    const controls = await lightControls(page, scope)
    await screenshot(page, `e2e-theme-${screen}.png`)
    for (const f of text) found.push(`${screen}: text ${f.what} "${f.text}" ${f.fg} on ${f.bg} is ${f.ratio}:1, needs ${f.need}:1`)
    for (const c of controls) found.push(`${screen}: control ${c.what} is drawn light (median luminance ${c.median})`)
  }

  test('the page asks for dark native controls', async () => {
    assert.equal(await page.evaluate(() => getComputedStyle(document.documentElement).colorScheme), 'dark')
  })

  test('every screen: text meets 4.5:1 and no control is lighter than the theme', async () => {
    // The workbench, a file open, an ignored folder in the tree.
    await page.locator('[data-testid="tree-node"][data-path="calc.go"]').click()
    await page.locator('.cm-content').waitFor()
    await check('workbench')

    // An open approval card.
    await askAgent(page, 'fix the sum')
    const patch = page.locator('[data-testid="tool-card"][data-tool="patch_file"]').last()
    await patch.getByTestId('approval-diff').waitFor()
    await check('approval')
    await patch.getByTestId('deny').click()
    await page.getByTestId('msg-assistant').filter({ hasText: 'Left as it was.' }).waitFor()

    // The request's actions and the restore sheet they open.
    await page.getByTestId('restore-checkpoint').last().click()
    await page.getByTestId('restore-sheet').waitFor()
    await check('rewind')

    // Plan mode, with Start under the plan.
    await newConversation(page)
    await page.getByTestId('plan-mode').check()
    await askAgent(page, 'plan the fix')
    await page.getByTestId('plan-start').waitFor()
    await check('plan')
    await page.getByTestId('plan-mode').uncheck()

    // Settings.
    await page.getByTestId('open-settings').click()
    await page.getByTestId('settings-close').waitFor()
    await page.getByTestId('settings-nav').getByRole('button', { name: 'Advanced' }).waitFor() // the project's sections, once read
    // The dialog, read from top to bottom a screenful at a time; the dimmed window behind it is not for reading.
    const pages = await page.locator('.settings').evaluate((el) => Math.ceil(el.scrollHeight / el.clientHeight))
    for (let n = 0; n < pages; n++) {
      await page.locator('.settings').evaluate((el, n) => (el.scrollTop = n * el.clientHeight), n)
      await check(`settings-${n + 1}`, '.settings')
    }
    await page.getByTestId('settings-close').click()

    assert.deepEqual(found, [], `\n${found.join('\n')}`)
  })
})
