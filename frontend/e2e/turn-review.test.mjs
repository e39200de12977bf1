// A turn reviewed as one diff: the turn ends with a bar counting what it changed, commands' files included; the bar
// opens the turn in the centre pane, file by file and hunk by hunk, coloured; *Revert hunk* takes back exactly
// those lines on disk (undoably); a comment on a line goes with the next request; *Undo all* puts the turn's files
// back and its notice can undo that.
import { after, before, describe, test } from 'node:test'
import assert from 'node:assert/strict'
import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { cleanupAll, screenshot } from './harness.mjs'
import { askAgent, startAgentScenario } from './agent-scenario.mjs'
import { contrastFailures } from './contrast.mjs'

const lines = (n, change = {}) => Array.from({ length: n }, (_, i) => change[i + 1] ?? `line ${i + 1}`).join('\n') + '\n'
const original = { 'a.txt': lines(30), 'b.txt': 'alpha\nbeta\n' }

function script(req) {
  const user = req.messages.filter((m) => m.role === 'user').at(-1)?.text ?? ''
  const results = req.messages.slice(req.messages.findLastIndex((m) => m.role === 'user') + 1).filter((m) => m.role === 'tool')
  if (user.startsWith('tidy up')) {
    const steps = [
      { name: 'read_file', input: { path: 'a.txt' } },
      { name: 'read_file', input: { path: 'b.txt' } },
      // Two patches: one of a.txt in two places far apart (two hunks), one of b.txt.
      { name: 'patch_file', input: { path: 'a.txt', edits: [{ search: 'line 2\n', replace: 'line two\n' }, { search: 'line 28\n', replace: 'line twenty-eight\n' }] } },
      { name: 'patch_file', input: { path: 'b.txt', search: 'beta', replace: 'BETA' } },
      // A command that makes a file.
      { name: 'exec_shell', input: { command: 'cp b.txt c.txt' } },
    ]
    if (results.length < steps.length) return { tools: [steps[results.length]] }
    return { text: 'Tidied.' }
  }
  return { text: 'noted' }
}

describe('turn review', { timeout: 600_000 }, () => {
  let page, fixture, llm

  before(async () => {
    ;({ page, fixture, llm } = await startAgentScenario({
      script,
      fixture: { name: 'review', files: original },
      provider: { id: 'scripted', name: 'Scripted' },
    }))
  })

  after(cleanupAll)

  const read = (f) => (existsSync(path.join(fixture, f)) ? readFileSync(path.join(fixture, f), 'utf8') : null)

  test('two patches and a command show as three files; reverting one hunk restores exactly its lines', async () => {
    await askAgent(page, 'tidy up')
    for (const tool of ['patch_file', 'patch_file', 'exec_shell']) await page.locator(`[data-testid="tool-card"][data-tool="${tool}"][data-state="waiting"]`).getByTestId('approve-once').click()
    await page.getByTestId('msg-assistant').filter({ hasText: 'Tidied.' }).waitFor()
    assert.equal(read('a.txt'), lines(30, { 2: 'line two', 28: 'line twenty-eight' }))
    assert.equal(read('c.txt'), 'alpha\nBETA\n')

    const bar = page.getByTestId('turn-bar')
    await bar.getByTestId('turn-bar-summary').filter({ hasText: '3 files +5 −3' }).waitFor()
    await bar.click()
    const pane = page.getByTestId('review-pane')
    await pane.getByTestId('review-file').first().waitFor()
    const files = await pane.getByTestId('review-file').evaluateAll((els) => els.map((el) => `${el.dataset.status} ${el.dataset.path}`))
    assert.deepEqual(files, ['modified a.txt', 'modified b.txt', 'added c.txt'])
    assert.equal(await pane.getByTestId('review-summary').textContent(), '3 files +5 −3')
    const aFile = pane.locator('[data-testid="review-file"][data-path="a.txt"]')
    assert.equal(await aFile.getByTestId('review-hunk').count(), 2)
    // Coloured: an added line is green on the dark theme, a removed one red.
    const colours = await aFile.evaluate((el) => ({
      add: getComputedStyle(el.querySelector('.diff-row.add')).backgroundColor,
      del: getComputedStyle(el.querySelector('.diff-row.del')).backgroundColor,
    }))
    assert.match(colours.add, /rgba\(34, 197, 94/)
    assert.match(colours.del, /rgba\(239, 68, 68/)
    assert.deepEqual(await contrastFailures(page, '[data-testid="review-pane"]'), [])
    await screenshot(page, 'e2e-turn-review.png')

    // Revert the first hunk of a.txt: line 2 is back, line 28 stays as the agent left it; the other files too.
    await aFile.getByTestId('review-hunk').first().getByTestId('review-revert-hunk').click()
    await pane.getByTestId('review-reverted').filter({ hasText: 'Reverted line 2 of a.txt' }).waitFor()
    assert.equal(read('a.txt'), lines(30, { 28: 'line twenty-eight' }))
    assert.equal(read('b.txt'), 'alpha\nBETA\n')
    assert.equal(read('c.txt'), 'alpha\nBETA\n')
    // The review is of the files now: a.txt has one hunk left, and the bar counts again.
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="review-file"][data-path="a.txt"] [data-testid="review-hunk"]').length === 1)
    await bar.getByTestId('turn-bar-summary').filter({ hasText: '3 files +4 −2' }).waitFor()

    // Undo the revert: the agent's line is back.
    await pane.getByTestId('review-revert-undo').click()
    await pane.getByTestId('review-reverted').filter({ hasText: 'Undone' }).waitFor()
    assert.equal(read('a.txt'), lines(30, { 2: 'line two', 28: 'line twenty-eight' }))
    await screenshot(page, 'e2e-turn-review-reverted.png')
  })

  test('a comment on a line goes with the next request as path:line: text', async () => {
    const pane = page.getByTestId('review-pane')
    const row = pane.locator('[data-testid="review-file"][data-path="b.txt"] [data-testid="diff-row"][data-kind="add"]').first()
    await row.hover()
    await row.getByTestId('review-comment-line').click()
    await pane.getByTestId('review-comment-input').fill('keep it lower case')
    await pane.getByTestId('review-comment-input').press('Enter')
    await page.getByTestId('pending-comment').filter({ hasText: 'b.txt:2: keep it lower case' }).waitFor()
    await askAgent(page, 'see my comment')
    await page.getByTestId('msg-assistant').filter({ hasText: 'noted' }).waitFor()
    const sent = llm.requests.at(-1).messages.filter((m) => m.role === 'user').at(-1).text
    assert.match(sent, /see my comment/)
    assert.match(sent, /b\.txt:2: keep it lower case/)
    assert.equal(await page.getByTestId('pending-comment').count(), 0, 'a comment goes once')
  })

  test('Undo all puts the turn back; the notice can undo that', async () => {
    await page.getByTestId('turn-bar').first().click()
    const pane = page.getByTestId('review-pane')
    await pane.getByTestId('review-scope-turn').click()
    await pane.getByTestId('review-summary').filter({ hasText: '3 files' }).waitFor()
    await pane.getByTestId('review-undo-all').click()
    const notice = page.getByTestId('msg-notice').filter({ hasText: 'Undid “tidy up”: 3 files back as before it.' })
    await notice.waitFor()
    assert.deepEqual({ a: read('a.txt'), b: read('b.txt'), c: read('c.txt') }, { a: original['a.txt'], b: original['b.txt'], c: null })
    await notice.getByTestId('restore-undo').click()
    await notice.getByTestId('restore-undone').waitFor()
    assert.equal(read('a.txt'), lines(30, { 2: 'line two', 28: 'line twenty-eight' }))
    assert.equal(read('c.txt'), 'alpha\nBETA\n')
  })
})
