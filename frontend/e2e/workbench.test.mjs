// The walking skeleton, end to end: the real app served by `wails dev`, driven in Chromium.
import { after, before, describe, test } from 'node:test'
import assert from 'node:assert/strict'
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { cleanupAll, launchBrowser, makeFixture, openProject, screenshot, startDevApp } from './harness.mjs'

// Not text and not an image (an image is shown as one): a binary file the pane cannot show.
const binBytes = Buffer.concat([Buffer.from('\x7fELF\x02\x01\x01', 'binary'), Buffer.alloc(64)])

describe('workbench', { timeout: 600_000 }, () => {
  let app, browser, page, fixture

  before(async () => {
    app = await startDevApp()
    browser = await launchBrowser()
    page = await browser.newPage()
    fixture = makeFixture('demo-project', {
      'README.md': '# Demo\n\nA fixture project.\n',
      'src/main.go': 'package main\n\nimport "fmt"\n\nfunc main() {\n\tfmt.Println("hello from the fixture")\n}\n',
      'src/util/strings.ts': 'export const shout = (s: string) => s.toUpperCase()\n',
      'assets/tool.bin': binBytes,
      '.gitignore': 'dist/\n',
      'dist/bundle.js': 'built\n',
    })
    await page.goto(app.url)
  })

  after(cleanupAll)

  test('opens a project through the bound method, expands the tree and shows a file', async () => {
    await openProject(page, fixture)
    await page.getByTestId('project-name').filter({ hasText: 'demo-project' }).waitFor()
    assert.match(await page.getByTestId('status-root').innerText(), /demo-project/)
    assert.match(await page.getByTestId('status-cwd').innerText(), /\.\//)

    // Ignored entries are shown, dimmed; tracked ones are not flagged.
    assert.equal(await page.locator('[data-testid="tree-node"][data-path="dist"]').getAttribute('data-ignored'), 'true')
    assert.equal(await page.locator('[data-testid="tree-node"][data-path="src"]').getAttribute('data-ignored'), null)

    // Lazy tree: src's children appear only once it is expanded.
    assert.equal(await page.locator('[data-path="src/main.go"]').count(), 0)
    await page.locator('[data-testid="tree-node"][data-path="src"]').click()
    await page.locator('[data-path="src/main.go"]').click()

    const viewer = page.getByTestId('code-viewer')
    await viewer.locator('.cm-content', { hasText: 'hello from the fixture' }).waitFor()
    assert.equal(await viewer.getAttribute('data-language'), 'Go')
    assert.equal(await page.getByTestId('file-name').innerText(), 'src/main.go')
    assert.match(await page.getByTestId('file-meta').innerText(), /7 lines/)
    // Syntax highlighting: the Go grammar loaded and styled the keyword "package".
    await page.waitForFunction(() => {
      const line = document.querySelector('.cm-line')
      return line !== null && line.querySelector('span') !== null && line.querySelector('span').textContent === 'package'
    })
    // An editor: typing marks the file modified without touching the disk, and Discard puts it back.
    await viewer.locator('.cm-content').click()
    await page.keyboard.type('XYZ')
    await page.getByTestId('file-dirty').waitFor()
    assert.ok(!readFileSync(path.join(fixture, 'src', 'main.go'), 'utf8').includes('XYZ'), 'nothing is written before Save')
    await page.getByTestId('file-discard').click()
    await page.getByTestId('file-dirty').waitFor({ state: 'detached' })
    assert.equal(await viewer.locator('.cm-content', { hasText: 'XYZ' }).count(), 0)
    await screenshot(page, 'e2e-workbench.png')
  })

  test('a nested directory expands and a binary file shows its error code, not a bare string', async () => {
    await page.locator('[data-testid="tree-node"][data-path="src/util"]').click()
    await page.locator('[data-path="src/util/strings.ts"]').click()
    await page.getByTestId('code-viewer').locator('.cm-content', { hasText: 'toUpperCase' }).waitFor()
    await page.locator('[data-testid="tree-node"][data-path="assets"]').click()
    await page.locator('[data-path="assets/tool.bin"]').click()
    const err = page.locator('[data-testid="error"][data-code="binary_file"]')
    await err.waitFor()
    assert.match(await err.innerText(), /assets\/tool\.bin/)
  })

  test('the search panel finds text, groups hits by file, filters by glob, and opens a hit at its line', async () => {
    await page.getByTestId('tab-search').click()
    await page.getByTestId('search-input').fill('hello from')
    const hit = page.locator('[data-testid="search-hit"][data-path="src/main.go"][data-line="6"]')
    await hit.waitFor()
    assert.match(await page.getByTestId('search-summary').innerText(), /1 match in 1 file/)
    assert.equal(await hit.locator('mark').innerText(), 'hello from')
    await hit.click()
    assert.equal(await page.getByTestId('file-name').innerText(), 'src/main.go')
    await page.locator('.cm-activeLine', { hasText: 'hello from the fixture' }).waitFor()

    // Ignored files are not searched; a glob narrows the files; a bad regex explains itself with its code.
    await page.getByTestId('search-input').fill('e')
    await page.locator('[data-testid="search-file"][data-path="README.md"]').waitFor()
    assert.equal(await page.locator('[data-testid="search-file"][data-path="dist/bundle.js"]').count(), 0)
    await page.getByTestId('search-glob').fill('*.ts')
    await page.locator('[data-testid="search-file"]').first().waitFor()
    await page.waitForFunction(() => [...document.querySelectorAll('[data-testid="search-file"]')].every((e) => e.getAttribute('data-path') === 'src/util/strings.ts'))
    await page.getByTestId('search-glob').fill('')
    await page.getByTestId('search-regex').click()
    await page.getByTestId('search-input').fill('(unclosed')
    await page.locator('[data-testid="search-panel"] [data-testid="error"][data-code="invalid_argument"]').waitFor()
    await screenshot(page, 'e2e-search.png')
    await page.getByTestId('search-regex').click()
    await page.getByTestId('tab-files').click()
  })

  test('the run panel streams a command live, stops it, and shows refusals and the sandbox', async () => {
    await page.getByTestId('tab-run').click()
    const input = page.getByTestId('run-input')
    await input.fill(`node -e "let i = 0; setInterval(() => console.log('tick ' + i++), 100)"`)
    await input.press('Enter')
    const run = page.getByTestId('run').first()
    // Output arrives while the program still runs.
    await run.getByTestId('run-output').filter({ hasText: 'tick 2' }).waitFor()
    assert.equal(await run.getAttribute('data-state'), 'running')
    await run.getByTestId('run-stop').click()
    await run.getByTestId('run-exit').filter({ hasText: 'stopped' }).waitFor()
    assert.equal(await run.getAttribute('data-state'), 'done')

    await input.fill('curl http://example.com')
    await input.press('Enter')
    await page.getByTestId('run').first().locator('[data-testid="error"][data-code="command_not_allowed"]').waitFor()

    await input.fill('ls src')
    await input.press('Enter')
    const ls = page.getByTestId('run').first()
    await ls.getByTestId('run-exit').filter({ hasText: 'exit 0' }).waitFor()
    assert.match(await ls.getByTestId('run-output').innerText(), /main\.go/)
    assert.match(await ls.getByTestId('run-sandbox').innerText(), /landlock \d+/)
    await screenshot(page, 'e2e-run.png')
    await page.getByTestId('tab-files').click()
  })

  test('history shows the snapshot taken before an edit, its diff, and restores it byte for byte', async () => {
    const readme = path.join(fixture, 'README.md')
    const original = readFileSync(readme, 'utf8')
    // An edit as the agent makes it: the bound tool calls, reading the file first (an unread file is refused with
    // not_read), then the write with its backup.
    await page.evaluate(async (p) => window.go.app.Tools.Call((await window.go.app.Projects.Current()).id, 'read_file', JSON.stringify({ path: p })), readme)
    const result = JSON.parse(await page.evaluate(async (p) => window.go.app.Tools.Call((await window.go.app.Projects.Current()).id, 'write_file', JSON.stringify({ path: p, content: '# Changed by the agent\n' })), readme))
    assert.match(result.backup, /^[0-9a-f]{40}$/)
    assert.equal(readFileSync(readme, 'utf8'), '# Changed by the agent\n')

    await page.getByTestId('tab-history').click()
    const item = page.locator(`[data-testid="snapshot"][data-id="${result.backup}"]`)
    await item.waitFor()
    await item.click()
    const pane = page.getByTestId('snapshot-pane')
    await pane.locator('.cm-content', { hasText: '+# Changed by the agent' }).waitFor()
    assert.match(await pane.locator('.cm-content').innerText(), /-# Demo/)
    await screenshot(page, 'e2e-history.png')

    page.once('dialog', (d) => d.accept())
    await page.getByTestId('snapshot-restore').click()
    await page.getByTestId('snapshot-restored').waitFor()
    assert.equal(readFileSync(readme, 'utf8'), original)

    await page.getByTestId('history-show-log').check()
    await page.locator('[data-testid="history-log"] [data-action="restore"]').first().waitFor()
    await page.getByTestId('history-show-log').uncheck()
    await page.getByTestId('tab-files').click()
    await page.locator('[data-path="README.md"]').click()
    await page.getByTestId('code-viewer').locator('.cm-content', { hasText: 'A fixture project.' }).waitFor()
  })

  test('changes on disk show up by themselves: tree, open file and search results', async () => {
    await page.getByTestId('tab-files').click()
    await page.locator('[data-testid="watch-status"][data-state="live"]').waitFor()
    assert.equal(await page.getByTestId('watch-notice').count(), 0)
    await page.locator('[data-path="src/main.go"]').click()
    await page.getByTestId('code-viewer').locator('.cm-content', { hasText: 'hello from the fixture' }).waitFor()

    // A file another program creates appears in the expanded folder; ignored output does too, but dimmed, and the
    // list only changes where something did. The time from the write to the row is printed, not asserted.
    const started = Date.now()
    writeFileSync(path.join(fixture, 'src', 'added.go'), 'package main\n\n// brand new marker\n')
    await page.locator('[data-testid="tree-node"][data-path="src/added.go"]').waitFor()
    console.log(`# write to tree row: ${Date.now() - started} ms`)

    // The user's editor saves the open file by writing a temporary file and renaming it over the original.
    const mainGo = path.join(fixture, 'src', 'main.go')
    writeFileSync(`${mainGo}.tmp`, readFileSync(mainGo, 'utf8').replace('hello from the fixture', 'hello from the editor'))
    renameSync(`${mainGo}.tmp`, mainGo)
    await page.getByTestId('code-viewer').locator('.cm-content', { hasText: 'hello from the editor' }).waitFor()
    assert.match(await page.getByTestId('file-reloaded').innerText(), /Changed on disk, reloaded/)
    assert.equal(await page.locator('[data-testid="tree-node"][data-path="src/main.go.tmp"]').count(), 0)

    // Search results follow: a match written after the search ran is listed, a deleted one disappears.
    await page.getByTestId('tab-search').click()
    await page.getByTestId('search-input').fill('brand new marker')
    await page.locator('[data-testid="search-file"][data-path="src/added.go"]').waitFor()
    mkdirSync(path.join(fixture, 'docs', 'deep'), { recursive: true })
    writeFileSync(path.join(fixture, 'docs', 'deep', 'notes.md'), 'a brand new marker in a new folder\n')
    await page.locator('[data-testid="search-file"][data-path="docs/deep/notes.md"]').waitFor()
    rmSync(path.join(fixture, 'src', 'added.go'))
    await page.waitForFunction(() => document.querySelector('[data-testid="search-file"][data-path="src/added.go"]') === null)
    assert.match(await page.getByTestId('search-summary').innerText(), /1 match in 1 file/)
    await screenshot(page, 'e2e-live.png')

    // ... and the tree drops the deleted file and shows the new folder.
    await page.getByTestId('tab-files').click()
    await page.waitForFunction(() => document.querySelector('[data-testid="tree-node"][data-path="src/added.go"]') === null)
    await page.locator('[data-testid="tree-node"][data-path="docs"]').waitFor()
    rmSync(path.join(fixture, 'docs'), { recursive: true })
    await page.waitForFunction(() => document.querySelector('[data-testid="tree-node"][data-path="docs"]') === null)
  })

  test('the open screen lists the project as recent, reopens it, and explains a bad path', async () => {
    await page.getByRole('button', { name: 'Switch…' }).click()
    const item = page.getByTestId('recent-item').filter({ hasText: 'demo-project' })
    await item.waitFor()
    assert.match(await item.innerText(), new RegExp(path.basename(path.dirname(fixture))))

    await page.getByTestId('path-input').fill(path.join(fixture, 'no-such-folder'))
    await page.getByTestId('open-path').click()
    const err = page.locator('[data-testid="error"][data-code="not_found"]')
    await err.waitFor()
    assert.match(await err.innerText(), /no-such-folder/)

    await item.click()
    await page.getByTestId('project-name').filter({ hasText: 'demo-project' }).waitFor()
  })
})
