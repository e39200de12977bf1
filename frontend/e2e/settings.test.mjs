// Settings as a person uses them: the sections are named at the top and a click goes to each; every setting saves
// as it changes (no Save to find) and says Saved beside it; text that is not valid shows its error beside the field
// and nothing is saved; the rare options wait under Advanced; the permission rules read in words.
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

  const saved = () => page.evaluate(async () => window.go.app.Settings.Project((await window.go.app.Projects.Current()).id))

  test('sections are named and a click goes to each', async () => {
    await page.getByTestId('open-settings').click()
    const nav = page.getByTestId('settings-nav')
    await nav.getByRole('button', { name: 'Advanced' }).waitFor() // the project's sections, once its settings are read
    assert.deepEqual(await nav.getByTestId('settings-nav-item').allTextContents(), ['Providers', 'Agent', 'This project', 'Permissions', 'MCP servers', 'Advanced'])
    // Under Providers, where the API keys are: the keyring by name, or the keys file, who may read it, and why there
    // is no keyring (here, on CI, no session bus).
    const keys = (await page.getByTestId('key-storage').innerText()).trim()
    assert.match(keys, /^API keys: Stored in (.+ \(Secret Service\)|.+\/rooted\/keys\.json \(readable only by you\) — no system keyring found: .+)$/)
    await nav.getByRole('button', { name: 'Permissions' }).click()
    await page.waitForFunction(() => {
      const h = document.getElementById('settings-permissions').getBoundingClientRect()
      const box = document.querySelector('.settings').getBoundingClientRect()
      return h.top >= box.top && h.top < box.top + box.height / 2
    })
    assert.deepEqual(await contrastFailures(page, '[data-testid="settings-nav"]'), [])
  })

  test('a switch saves as it changes, and so does a field once typed', async () => {
    const before = await saved()
    assert.equal(before.auto_approve_edits, false)
    assert.equal(await page.locator('.settings button').filter({ hasText: /^Save/ }).count(), 0, 'no Save button to find')
    await page.getByTestId('settings-auto-edits').check()
    await page.getByTestId('settings-saved').filter({ hasText: "saved: the agent's edits apply without asking" }).waitFor()
    assert.equal((await saved()).auto_approve_edits, true)
    await page.getByTestId('settings-allowlist').fill('go git')
    await page.getByTestId('settings-allowlist-saved').waitFor()
    assert.deepEqual((await saved()).allowlist, ['go', 'git'])
    await page.getByTestId('settings-network').check()
    await page.getByTestId('settings-saved').filter({ hasText: 'saved: commands may use the network' }).waitFor()
    const now = await saved()
    assert.equal(now.network, true)
    assert.deepEqual(now.allowlist, ['go', 'git'], 'the switch kept the list saved before it')
    assert.equal(await page.getByTestId('settings-auto-edits').isChecked(), true, 'the other switch stays as saved')
    // Closed and opened again, everything reads as saved.
    await page.getByTestId('settings-close').click()
    await page.getByTestId('open-settings').click()
    await page.getByTestId('settings-network').waitFor()
    assert.equal(await page.getByTestId('settings-network').isChecked(), true)
    assert.equal(await page.getByTestId('settings-auto-edits').isChecked(), true)
    assert.equal(await page.getByTestId('settings-allowlist').inputValue(), 'go git')
  })

  test('invalid input shows its error beside the field and nothing is saved', async () => {
    const before = await saved()
    await page.getByTestId('settings-step-limit').fill('0')
    assert.equal(await page.getByTestId('settings-step-limit-error').textContent(), 'a whole number from 1 to 10000')
    // The rare options are under Advanced, closed until opened.
    assert.equal(await page.getByTestId('settings-snapshot-keep').isVisible(), false)
    await page.getByTestId('settings-advanced').locator('summary').click()
    await page.getByTestId('settings-snapshot-keep').fill('0')
    await page.getByTestId('settings-snapshot-keep-error').filter({ hasText: 'a whole number, 1 or more' }).waitFor()
    await page.getByTestId('settings-readable').fill('relative/folder')
    await page.getByTestId('settings-readable-error').filter({ hasText: 'not an absolute path: relative/folder' }).waitFor()
    // The backend's refusal lands beside its field too: a lone * would pass every variable.
    await page.getByTestId('settings-env-allow').fill('*')
    await page.getByTestId('settings-env-allow-error').filter({ hasText: 'a lone * would pass every variable' }).waitFor()
    await page.waitForTimeout(800) // past the moment a valid change would have been saved
    const after = await saved()
    assert.deepEqual([after.snapshot_keep, after.readable, after.env_allow], [before.snapshot_keep, before.readable, before.env_allow])
    assert.deepEqual(await contrastFailures(page, '[data-testid="settings-advanced"]'), [])
    await screenshot(page, 'e2e-settings-errors.png')
    // Put right, each saves and says so.
    await page.getByTestId('settings-snapshot-keep').fill('50')
    await page.getByTestId('settings-snapshot-keep-saved').waitFor()
    await page.getByTestId('settings-step-limit').fill('40')
    await page.getByTestId('settings-step-limit-saved').waitFor()
    // The rules' own settings too.
    await page.getByTestId('background-after').fill('soon')
    await page.getByTestId('background-after-error').filter({ hasText: 'whole seconds' }).waitFor()
    await page.getByTestId('background-after').fill('90')
    await page.getByTestId('background-after-saved').waitFor()
    assert.equal((await saved()).snapshot_keep, 50)
  })

  test('permission rules read in words', async () => {
    await page.getByTestId('rule-action').selectOption('deny')
    await page.getByTestId('rule-tool').selectOption('patch_file')
    await page.getByTestId('rule-add').click()
    const rule = page.locator('[data-testid="rule"][data-action="deny"]')
    await rule.waitFor()
    assert.equal((await rule.textContent()).replace('Remove', '').trim(), 'Never Edit a file')
    assert.deepEqual(await page.getByTestId('rule-tool').locator('option').allTextContents(), ['Run a command', 'Write a file', 'Edit a file', 'Restore a snapshot', 'Stop a background job', 'Search the web'])
    await screenshot(page, 'e2e-settings-rules.png')
  })
})
