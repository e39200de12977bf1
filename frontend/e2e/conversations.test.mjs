// A long day's conversation, end to end against the real UI and backend: 2,000 items saved through the window's
// own bound method reopen with only what is in view in the page; Ctrl+F finds a word in an item far out of view
// and in a stored tool result; the reader keeps their place while the agent writes; the list renames in place;
// the CLI exports what the window exports; and a save made to fail (a file where the conversations folder
// should be, which stops root too) shows a notice that stays until a save succeeds, losing nothing.
import { after, before, describe, test } from 'node:test'
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { cleanupAll, onCleanup, repoRoot, screenshot } from './harness.mjs'
import { askAgent, startAgentScenario } from './agent-scenario.mjs'

const story = `Once upon a time ${'the agent kept writing and writing. '.repeat(120)}THE END.`

function script(req) {
  const ask = [...req.messages].reverse().find((m) => m.role === 'user')?.text ?? ''
  if (ask.startsWith('tell me a long story')) return { text: story }
  return { text: `Noted: ${ask.slice(0, 40)}` }
}

const id = 'clongday'
const items = 2000

describe('conversations, a long day', { timeout: 900_000 }, () => {
  let page, fixture, app

  before(async () => {
    ;({ page, fixture, app } = await startAgentScenario({ script, fixture: { name: 'long', files: { 'a.txt': 'a\n' } }, provider: { id: 'long', name: 'Long' } }))
  })
  after(cleanupAll)

  test('a 2,000-item conversation reopens with only the items in view in the page', async (t) => {
    // Saved as the window saves: events through the bound method, long results becoming stored contents.
    await page.evaluate(
      async ({ id, items }) => {
        const { root } = await window.go.app.Projects.Current()
        let batch = [{ t: 'title', title: 'A long day' }]
        for (let i = 0; i < items; i++) {
          let item
          if (i % 10 === 0) item = { kind: 'user', id: `u${i}`, text: i === 4 * 10 ? 'request 40: where is zanzibar mentioned?' : `request ${i}` }
          else if (i % 2 === 1) {
            const content = `result ${i}\n${`line of file ${i}\n`.repeat(1200)}${i === 7 ? 'the quetzal is here\n' : ''}`
            item = { kind: 'tool', id: `t${i}`, name: 'read_file', input: { path: `src/f${i}.go` }, state: 'done', output: { content } }
          } else item = { kind: 'assistant', id: `a${i}`, text: `answer ${i}` }
          batch.push({ t: 'item', i, item })
          if (batch.length >= 100) {
            await window.go.app.Agent.AppendConversation(root, id, JSON.stringify(batch))
            batch = []
          }
        }
        if (batch.length) await window.go.app.Agent.AppendConversation(root, id, JSON.stringify(batch))
      },
      { id, items },
    )
    await page.reload()
    await page.getByTestId('conversations-toggle').click()
    const started = Date.now()
    await page.locator(`[data-testid="conversation-item"][data-id="${id}"]`).click()
    await page.getByTestId('msg-assistant').filter({ hasText: `answer ${items - 2}` }).waitFor()
    const took = Date.now() - started
    const rows = await page.locator('.agent-log-row').count()
    const heap = await page.evaluate(() => performance.memory?.usedJSHeapSize ?? 0)
    t.diagnostic(`reopened ${items} items in ${took} ms; ${rows} rows in the page; JS heap ${(heap / 2 ** 20).toFixed(0)} MiB`)
    assert.ok(rows > 3 && rows < 100, `${rows} rows rendered for ${items} items`)
    await screenshot(page, 'conversations-long.png')
  })

  test('Ctrl+F finds a word in an item scrolled far out of view, and in a stored tool result', async () => {
    assert.equal(await page.getByTestId('msg-user').filter({ hasText: 'zanzibar' }).count(), 0) // not rendered
    await page.getByTestId('agent-log').click({ position: { x: 5, y: 5 } })
    await page.keyboard.press('Control+f')
    await page.getByTestId('find-input').fill('Zanzibar')
    const current = page.locator('[data-find="current"]')
    await current.filter({ hasText: 'where is zanzibar mentioned?' }).waitFor()
    assert.equal(await page.getByTestId('find-count').innerText(), '1 of 1')
    const log = await page.getByTestId('agent-log').boundingBox()
    const hit = await current.boundingBox()
    assert.ok(hit.y >= log.y && hit.y + hit.height <= log.y + log.height, `the match is out of view: ${JSON.stringify({ hit, log })}`)

    await page.getByTestId('find-input').fill('quetzal')
    await current.locator('[data-testid="tool-card"]').waitFor()
    assert.match(await current.locator('.tool-summary').innerText(), /src\/f7\.go/)
    await current.getByTestId('tool-result-toggle').click()
    await current.getByTestId('tool-result').filter({ hasText: 'the quetzal is here' }).waitFor()
    await page.getByTestId('find-input').press('Escape')
    await page.getByTestId('find-bar').waitFor({ state: 'detached' })
  })

  test('the reader keeps their place while the agent writes, and a pill takes them to the new output', async () => {
    await page.getByTestId('agent-log').evaluate((el) => (el.scrollTop = el.scrollHeight / 3))
    await page.waitForTimeout(200)
    const before = await page.getByTestId('agent-log').evaluate((el) => el.scrollTop)
    await askAgent(page, 'tell me a long story')
    await page.getByTestId('new-output').waitFor()
    await page.getByTestId('agent-send').waitFor() // the answer is done
    const during = await page.getByTestId('agent-log').evaluate((el) => el.scrollTop)
    assert.ok(Math.abs(during - before) < 50, `the log moved from ${before} to ${during} while the reader was away from its end`)
    await page.getByTestId('new-output').click()
    await page.getByTestId('msg-assistant').filter({ hasText: 'THE END.' }).waitFor()
    await page.getByTestId('new-output').waitFor({ state: 'detached' })
  })

  test('the list shows dates and renames in place', async () => {
    await page.getByTestId('conversations-toggle').click()
    const row = page.locator('li', { has: page.locator(`[data-testid="conversation-item"][data-id="${id}"]`) })
    assert.match(await row.getByTestId('conversation-date').innerText(), /just now|s ago|min ago/)
    await row.getByTestId('conversation-rename').click()
    const input = page.getByTestId('conversation-rename-input') // in place of the title while it is edited
    await input.fill('The longest day')
    await input.press('Enter')
    await page.locator(`[data-testid="conversation-item"][data-id="${id}"]`).filter({ hasText: 'The longest day' }).waitFor()
    await page.getByTestId('conversation-title').filter({ hasText: 'The longest day' }).waitFor()
    await page.getByTestId('conversations-toggle').click()
  })

  test('the CLI exports what the window exports', async () => {
    const bin = path.join(mkdtempSync(path.join(tmpdir(), 'rooted-cli-')), 'rooted')
    onCleanup(() => rmSync(path.dirname(bin), { recursive: true, force: true }))
    execFileSync('go', ['build', '-o', bin, './cmd/rooted'], { cwd: repoRoot, env: { ...process.env, CGO_ENABLED: '0' } })
    const fromWindow = await page.evaluate(async (id) => window.go.app.Agent.ExportConversation((await window.go.app.Projects.Current()).id, id, 'markdown'), id)
    const fromCLI = execFileSync(bin, ['conversations', 'show', id, '--root', fixture, '--data', path.join(app.dataHome, 'rooted')], { maxBuffer: 512 << 20 }).toString()
    assert.equal(fromCLI, fromWindow)
    assert.ok(fromCLI.startsWith('# The longest day\n'), fromCLI.slice(0, 80))
    assert.ok(fromCLI.includes('where is zanzibar mentioned?') && fromCLI.includes('the quetzal is here') && fromCLI.includes('THE END.'))
  })

  test('a save that fails shows a notice until a save succeeds, and nothing is lost', async () => {
    const folder = path.join(app.dataHome, 'rooted', 'conversations')
    renameSync(folder, `${folder}.aside`)
    writeFileSync(folder, 'a file where the folder should be\n')
    await askAgent(page, 'remember the kumquat')
    await page.getByTestId('msg-assistant').filter({ hasText: 'Noted: remember the kumquat' }).waitFor()
    const notice = page.getByTestId('save-error')
    await notice.waitFor()
    // It stays: the next tries fail too.
    await page.waitForTimeout(4500)
    assert.ok(await notice.isVisible())
    // A new conversation opens beside it; the one not saved stays open (in the strip of those at work), nothing lost.
    await page.getByTestId('new-conversation').click()
    const pane = () => page.locator('[data-testid="conversation-pane"]:not([hidden])')
    await pane().getByTestId('conversation-title').filter({ hasText: 'New conversation' }).waitFor()
    await page.locator(`[data-testid="live-conversation"][data-id="${id}"]`).click()
    await pane().getByTestId('msg-user').filter({ hasText: 'remember the kumquat' }).waitFor()
    await screenshot(page, 'conversations-save-failed.png')

    rmSync(folder)
    renameSync(`${folder}.aside`, folder)
    await notice.waitFor({ state: 'detached', timeout: 10_000 })
    await page.reload()
    await page.getByTestId('conversations-toggle').click()
    await page.locator(`[data-testid="conversation-item"][data-id="${id}"]`).click()
    await page.getByTestId('msg-assistant').filter({ hasText: 'Noted: remember the kumquat' }).waitFor()
    await page.getByTestId('msg-user').filter({ hasText: 'remember the kumquat' }).waitFor()
  })
})
