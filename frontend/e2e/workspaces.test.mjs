// Several projects open in one window: the strip down the left edge lists them, a click switches between them
// (each showing its own files, its view kept as it was left), a background job of one keeps running while another
// is shown, and closing a project ends its job and leaves the other open.
import { after, before, describe, test } from 'node:test'
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { cleanupAll, launchBrowser, makeFixture, openProject, screenshot, startDevApp } from './harness.mjs'

describe('workspaces', { timeout: 600_000 }, () => {
  let app, browser, page, alpha, beta
  // The job beats: it writes a counter into alpha's folder every 100 ms, so the test sees whether it still runs.
  const program = "let n = 0; setInterval(() => require('fs').writeFileSync('beat.txt', String(++n)), 100)"
  const beat = () => {
    try {
      return readFileSync(path.join(alpha, 'beat.txt'), 'utf8')
    } catch {
      return ''
    }
  }
  const beating = async () => {
    const first = beat()
    for (let i = 0; i < 100; i++) {
      await new Promise((r) => setTimeout(r, 100))
      if (beat() !== first) return true
    }
    return false
  }

  before(async () => {
    app = await startDevApp()
    browser = await launchBrowser()
    page = await browser.newPage()
    alpha = makeFixture('alpha-project', { 'alpha-only.txt': 'alpha\n', 'src/a.go': 'package a\n' })
    beta = makeFixture('beta-project', { 'beta-only.txt': 'beta\n', 'lib/b.ts': 'export const b = 1\n' })
    await page.goto(app.url)
  })

  after(cleanupAll)

  // Every open project's view stays mounted; the one shown is the one not hidden.
  const view = () => page.locator('[data-testid="project-view"]:not([hidden])')
  const strip = () => page.getByTestId('project-strip-item')
  const showing = (name) => view().getByTestId('project-name').filter({ hasText: name }).waitFor()
  const inTree = (rel) => view().locator(`[data-testid="tree-node"][data-path="${rel}"]`)

  test('opens two projects side by side, each listed in the strip and showing its own files', async () => {
    await openProject(page, alpha)
    await showing('alpha-project')
    await inTree('alpha-only.txt').waitFor()
    assert.equal(await strip().count(), 1)

    await page.getByTestId('project-strip-open').click()
    await page.getByTestId('path-input').fill(beta)
    await page.getByTestId('open-path').click()
    await showing('beta-project')
    await inTree('beta-only.txt').waitFor()
    assert.equal(await inTree('alpha-only.txt').count(), 0, "beta's tree shows none of alpha's files")
    const names = (await strip().allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim())
    assert.deepEqual(names, ['A alpha-project', 'B beta-project'])
    assert.equal(await page.locator('.project-strip li.current').innerText().then((t) => t.includes('beta-project')), true)
    await screenshot(page, 'e2e-workspaces.png')
  })

  test("switching back shows alpha's files again, and a job of alpha runs on while beta is shown", async () => {
    await strip().filter({ hasText: 'alpha-project' }).click()
    await showing('alpha-project')
    await inTree('alpha-only.txt').waitFor()
    assert.equal(await inTree('beta-only.txt').count(), 0)

    // A background command in alpha, started as the Run tab would through the bound call with alpha's id.
    const job = await page.evaluate(async (program) => {
      const list = await window.go.app.Projects.List()
      const id = list.find((p) => p.name === 'alpha-project').id
      const out = JSON.parse(await window.go.app.Tools.Call(id, 'exec_shell', JSON.stringify({ command: 'node', args: ['-e', program], background: true })))
      return out.job.id
    }, program)
    await view().getByTestId('tab-run').click()
    await view().locator(`[data-testid="job"][data-id="${job}"][data-state="running"]`).waitFor()

    await strip().filter({ hasText: 'beta-project' }).click()
    await showing('beta-project')
    await view().getByTestId('tab-run').click()
    await view().getByTestId('jobs-none').waitFor({ state: 'attached' }) // beta's list was read, and is empty
    assert.equal(await view().locator('[data-testid="job"]').count(), 0, "beta's Run tab lists none of alpha's jobs")
    assert.ok(await beating(), "alpha's job runs while beta is shown")
    // The strip says so: alpha, not on screen, has one command running; beta none.
    await strip().filter({ hasText: 'alpha-project' }).getByTestId('project-strip-jobs').filter({ hasText: '1' }).waitFor()
    assert.equal(await strip().filter({ hasText: 'beta-project' }).getByTestId('project-strip-jobs').count(), 0)

    await strip().filter({ hasText: 'alpha-project' }).click()
    await showing('alpha-project')
    await view().getByTestId('tab-run').click()
    await view().locator(`[data-testid="job"][data-id="${job}"][data-state="running"]`).waitFor()
  })

  test('closing alpha ends its job and leaves beta open', async () => {
    await page.getByRole('button', { name: 'Close alpha-project' }).click()
    await page.getByTestId('open-project').waitFor()
    assert.deepEqual((await strip().allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim()), ['B beta-project'])
    const open = await page.evaluate(async () => (await window.go.app.Projects.List()).map((p) => p.name))
    assert.deepEqual(open, ['beta-project'])
    // Close returns once alpha's jobs are gone: the beat stops.
    const last = beat()
    await new Promise((r) => setTimeout(r, 1500))
    assert.equal(beat(), last, "alpha's job ended with alpha")

    // Beta's view stayed mounted all along: it comes back as it was left (on its Run tab).
    await strip().filter({ hasText: 'beta-project' }).click()
    await showing('beta-project')
    assert.equal(await view().getByTestId('tab-run').getAttribute('aria-selected'), 'true')
    await view().getByTestId('tab-files').click()
    await inTree('beta-only.txt').waitFor()
    assert.equal(await page.getByTestId('project-view').count(), 1, "alpha's view went with alpha")
  })
})
