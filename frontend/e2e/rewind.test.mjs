// Rewind a person can trust: each request says *Restore checkpoint* and *Edit* in words; the restore first shows
// which files it will change (put back, removed, brought back) and changes nothing until asked; after it, *Undo* on
// its notice puts the files back as they were just before it, and the model is told each time. The sheet and the
// notice meet the theme's contrast.
import { after, before, describe, test } from 'node:test'
import assert from 'node:assert/strict'
import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { cleanupAll, screenshot } from './harness.mjs'
import { askAgent, startAgentScenario } from './agent-scenario.mjs'
import { contrastFailures } from './contrast.mjs'

function script(req) {
  const user = req.messages.filter((m) => m.role === 'user').at(-1)?.text ?? ''
  const results = req.messages.slice(req.messages.findLastIndex((m) => m.role === 'user') + 1).filter((m) => m.role === 'tool')
  if (user.startsWith('tidy the notes')) {
    if (results.length === 0) return { tools: [{ name: 'read_file', input: { path: 'notes.txt' } }] }
    if (results.length === 1) return { tools: [{ name: 'patch_file', input: { path: 'notes.txt', search: 'keep me', replace: 'kept' } }] }
    if (results.length === 2) return { tools: [{ name: 'write_file', input: { path: 'made.txt', content: 'new\n' } }] }
    return { text: 'Tidied.' }
  }
  return { text: 'ok' }
}

describe('rewind', { timeout: 600_000 }, () => {
  let page, fixture, llm

  before(async () => {
    ;({ page, fixture, llm } = await startAgentScenario({
      script,
      fixture: { name: 'notes', files: { 'notes.txt': 'keep me\n', 'other.txt': 'untouched\n' } },
      provider: { id: 'scripted', name: 'Scripted' },
    }))
  })

  after(cleanupAll)

  const read = () => Object.fromEntries(['notes.txt', 'made.txt', 'other.txt'].map((f) => [f, existsSync(path.join(fixture, f)) ? readFileSync(path.join(fixture, f), 'utf8') : null]))

  test('the sheet names what a restore changes before it does; Restore, then Undo', async () => {
    const original = read()
    await askAgent(page, 'tidy the notes')
    for (const tool of ['patch_file', 'write_file']) await page.locator(`[data-testid="tool-card"][data-tool="${tool}"][data-state="waiting"]`).getByTestId('approve-once').click()
    await page.getByTestId('msg-assistant').filter({ hasText: 'Tidied.' }).waitFor()
    const edited = read()
    assert.deepEqual(edited, { 'notes.txt': 'kept\n', 'made.txt': 'new\n', 'other.txt': 'untouched\n' })

    // The actions are there in words, not behind a menu.
    const request = page.getByTestId('msg-user').filter({ hasText: 'tidy the notes' })
    assert.equal(await request.getByTestId('restore-checkpoint').textContent(), 'Restore checkpoint')
    assert.equal(await request.getByTestId('edit-resend').textContent(), 'Edit')

    await request.getByTestId('restore-checkpoint').click()
    const sheet = page.getByTestId('restore-sheet')
    await sheet.getByTestId('restore-file').first().waitFor()
    const files = await sheet.getByTestId('restore-file').evaluateAll((els) => els.map((el) => `${el.dataset.change}: ${el.querySelector('code').textContent}`).sort())
    assert.deepEqual(files, ['put back: notes.txt', 'removed: made.txt'])
    assert.match(await sheet.getByTestId('restore-sheet-summary').textContent(), /Restoring changes 2 files/)
    assert.deepEqual(read(), edited, 'opening the sheet changes nothing')
    assert.deepEqual(await contrastFailures(page, '[data-testid="restore-sheet"]'), [])
    await screenshot(page, 'e2e-rewind-sheet.png')
    // Cancel leaves everything as it was.
    await sheet.getByTestId('restore-cancel').click()
    await sheet.waitFor({ state: 'detached' })
    assert.deepEqual(read(), edited)

    await request.getByTestId('restore-checkpoint').click()
    await sheet.getByTestId('rewind-code').click()
    const notice = page.getByTestId('msg-notice').filter({ hasText: 'Files rewound to before “tidy the notes”' })
    await notice.getByTestId('restore-undo').waitFor()
    assert.deepEqual(read(), original, 'the files are back as before the request, what it made is gone')
    assert.deepEqual(await contrastFailures(page, '[data-testid="msg-notice"]'), [])

    await notice.getByTestId('restore-undo').click()
    await notice.getByTestId('restore-undone').waitFor()
    assert.deepEqual(read(), edited, 'Undo puts back what the restore replaced')
    await screenshot(page, 'e2e-rewind-undone.png')

    // History names each snapshot by the request that made it, not by the tool's reason and a hash.
    await page.getByTestId('tab-history').click()
    // The tab shows the list it has at once and reads the snapshots made since in the background: wait for all
    // four (the assertion below names what is missing if they never come).
    await page
      .waitForFunction(() => document.querySelectorAll('[data-testid="snapshot"] .history-reason').length >= 4, null, { timeout: 15_000 })
      .catch(() => undefined)
    const named = await page.locator('[data-testid="snapshot"] .history-reason').allTextContents()
    assert.deepEqual(named, [
      'Before undo: files rewound to before “tidy the notes”',
      'Before restoring to before “tidy the notes”',
      'Before: tidy the notes',
      'Before: tidy the notes',
    ])
    await screenshot(page, 'e2e-rewind-history.png')

    // The model hears of both.
    await askAgent(page, 'what now')
    await page.getByTestId('msg-assistant').filter({ hasText: 'ok' }).last().waitFor()
    const sent = JSON.stringify(llm.requests.at(-1).messages)
    assert.match(sent, /rewound the project's files to before the request/)
    assert.match(sent, /undid the rewind of the files/)
  })

  test('a request that changed nothing offers only the conversation', async () => {
    const request = page.getByTestId('msg-user').filter({ hasText: 'what now' })
    await request.getByTestId('restore-checkpoint').click()
    await page.getByTestId('restore-sheet-summary').filter({ hasText: 'This request changed no file' }).waitFor()
    assert.equal(await page.getByTestId('rewind-code').count(), 0)
    await page.getByTestId('rewind-conversation').click()
    await request.waitFor({ state: 'detached' })
    assert.equal(await page.getByTestId('msg-user').filter({ hasText: 'tidy the notes' }).count(), 1)
  })
})
