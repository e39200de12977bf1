// Settings as a person uses them: the sections are named at the top and a click goes to each; a switch saves as it
// changes (no Save to find), leaving a field still being typed in unsaved; the permission rules read in words.
import { after, before, describe, test } from 'node:test'
import assert from 'node:assert/strict'
import { cleanupAll, screenshot } from './harness.mjs'
import { startAgentScenario } from './agent-scenario.mjs'
import { contrastFailures } from './contrast.mjs'

describe('settings', { timeout: 600_000 }, () => {
  let page

  before(async () => {
    ;({ page } = await startAgentScenario({
      script: () => ({ text: 'ok' }),
      fixture: { name: 'calc', files: { 'calc.go': 'package calc\n' } },
      provider: { id: 'scripted', name: 'Scripted' },
    }))
  })

  after(cleanupAll)

  const saved = () => page.evaluate(() => window.go.app.Settings.Project())

  test('sections are named and a click goes to each', async () => {
    await page.getByTestId('open-settings').click()
    const nav = page.getByTestId('settings-nav')
    assert.deepEqual(await nav.getByTestId('settings-nav-item').allTextContents(), ['Providers', 'Agent', 'This project', 'Permissions'])
    await nav.getByRole('button', { name: 'Permissions' }).click()
    await page.waitForFunction(() => {
      const h = document.getElementById('settings-permissions').getBoundingClientRect()
      const box = document.querySelector('.settings').getBoundingClientRect()
      return h.top >= box.top && h.top < box.top + box.height / 2
    })
    assert.deepEqual(await contrastFailures(page, '[data-testid="settings-nav"]'), [])
  })

  test('a switch saves as it changes; a field being typed in is not saved with it', async () => {
    const before = await saved()
    assert.equal(before.auto_approve_edits, false)
    await page.getByTestId('settings-allowlist').fill('go git')
    await page.getByTestId('settings-auto-edits').check()
    await page.getByTestId('settings-saved').filter({ hasText: "saved: the agent's edits apply without asking" }).waitFor()
    const after = await saved()
    assert.equal(after.auto_approve_edits, true)
    assert.deepEqual(after.allowlist, before.allowlist, 'the list being edited waits for its Save')
    await page.getByTestId('settings-network').check()
    await page.getByTestId('settings-saved').filter({ hasText: 'saved: commands may use the network' }).waitFor()
    assert.equal((await saved()).network, true)
    assert.equal(await page.getByTestId('settings-auto-edits').isChecked(), true, 'the other switch stays as saved')
    // Closed and opened again, the switches read as saved.
    await page.getByTestId('settings-close').click()
    await page.getByTestId('open-settings').click()
    await page.getByTestId('settings-network').waitFor()
    assert.equal(await page.getByTestId('settings-network').isChecked(), true)
    assert.equal(await page.getByTestId('settings-auto-edits').isChecked(), true)
  })

  test('permission rules read in words', async () => {
    await page.getByTestId('rule-action').selectOption('deny')
    await page.getByTestId('rule-tool').selectOption('patch_file')
    await page.getByTestId('rule-add').click()
    const rule = page.locator('[data-testid="rule"][data-action="deny"]')
    await rule.waitFor()
    assert.equal((await rule.textContent()).replace('Remove', '').trim(), 'Never Edit a file')
    assert.deepEqual(await page.getByTestId('rule-tool').locator('option').allTextContents(), ['Run a command', 'Write a file', 'Edit a file', 'Restore a snapshot', 'Stop a background job'])
    await screenshot(page, 'e2e-settings-rules.png')
  })
})
