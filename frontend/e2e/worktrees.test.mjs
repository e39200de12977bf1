// A conversation in a worktree of its own, from the window: the header's dialog makes it (git worktree add, then
// the project's setup command, its output shown as it runs) and opens it as a project marked under its main
// checkout; the conversation edits a file and runs a command there while the main checkout stays byte-identical
// on disk; Apply refuses a file both sides changed on the same line and names it with the line, then brings the
// change home as one (Undo puts the main checkout back), and merges a file both sides changed on other lines; Commit on branch commits it; the worktree closed is listed to reopen; Discard removes
// its folder and branch. The last test measures click to a usable worktree project.
import { after, before, describe, test } from 'node:test'
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { cleanupAll, screenshot } from './harness.mjs'
import { startAgentScenario } from './agent-scenario.mjs'
import { contrastFailures } from './contrast.mjs'

const original = { 'README.md': '# Demo\n', 'notes.txt': 'one\n', 'src/keep.txt': 'kept\n', 'src/lines.txt': 'a\nb\nc\nd\ne\n' }

function script(req) {
  const user = req.messages.filter((m) => m.role === 'user').at(-1)?.text ?? ''
  const results = req.messages.slice(req.messages.findLastIndex((m) => m.role === 'user') + 1).filter((m) => m.role === 'tool')
  if (user.startsWith('rewrite')) {
    const steps = [
      { name: 'read_file', input: { path: 'README.md' } },
      { name: 'write_file', input: { path: 'README.md', content: '# Rewritten\n' } },
      { name: 'exec_shell', input: { command: 'cp notes.txt copy.txt' } },
    ]
    if (results.length < steps.length) return { tools: [steps[results.length]] }
    return { text: 'Rewritten.' }
  }
  return { text: 'noted' }
}

// files reads a checkout's files (not .git) as path → content: what "byte-identical on disk" compares.
function files(dir, rel = '') {
  const out = {}
  for (const e of readdirSync(path.join(dir, rel), { withFileTypes: true })) {
    const r = rel ? `${rel}/${e.name}` : e.name
    if (e.name === '.git') continue
    if (e.isDirectory()) Object.assign(out, files(dir, r))
    else out[r] = readFileSync(path.join(dir, r), 'utf8')
  }
  return out
}

describe('worktrees in the window', { timeout: 900_000 }, () => {
  let app, page, main, worktree
  const git = (...args) => execFileSync('git', args, { cwd: main }).toString().trim()
  const view = () => page.locator('[data-testid="project-view"]:not([hidden])')
  const strip = () => page.getByTestId('project-strip-item')
  const setSetup = (argv) => {
    // worktree_setup is a per-project setting kept in the user's settings file (never in the project).
    const file = path.join(app.configHome, 'rooted', 'settings.json')
    const s = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {}
    s.projects ??= {}
    s.projects[main] = { ...(s.projects[main] ?? {}), worktree_setup: argv }
    mkdirSync(path.dirname(file), { recursive: true })
    writeFileSync(file, JSON.stringify(s))
  }
  const startWorktree = async (name) => {
    await view().getByTestId('worktree-menu').click()
    const dialog = page.getByTestId('worktree-dialog')
    await dialog.getByTestId('worktree-name').fill(name)
    await dialog.getByTestId('worktree-start').click()
    return dialog
  }

  before(async () => {
    ;({ app, page, fixture: main } = await startAgentScenario({
      script,
      fixture: {
        name: 'home',
        files: original,
        setup: (dir) => {
          const g = (...args) => execFileSync('git', args, { cwd: dir, stdio: 'ignore' })
          g('init', '-q', '-b', 'main')
          g('config', 'user.name', 'Fixture')
          g('config', 'user.email', 'fixture@example.com')
          g('add', '-A')
          g('commit', '-q', '-m', 'start')
        },
      },
      provider: { id: 'scripted', name: 'Scripted' },
    }))
  })

  after(cleanupAll)

  test('New in worktree shows its progress and opens the worktree under its project, on a new conversation', async () => {
    setSetup(['node', '-e', "console.log('setup says hi'); setTimeout(() => {}, 1500)"])
    const dialog = await startWorktree('Rewrite the readme')
    const progress = dialog.getByTestId('worktree-progress')
    await progress.filter({ hasText: 'git worktree add' }).waitFor()
    await progress.filter({ hasText: 'running the setup command: node -e' }).waitFor()
    await progress.filter({ hasText: 'setup says hi' }).waitFor()
    await screenshot(page, 'e2e-worktrees-progress.png')

    const bar = view().getByTestId('worktree-bar')
    await bar.waitFor()
    await dialog.waitFor({ state: 'detached' })
    assert.equal((await bar.getByTestId('worktree-branch').innerText()).trim(), 'rooted/rewrite-the-readme')
    await bar.getByTestId('worktree-changed').filter({ hasText: 'no files changed vs its base' }).waitFor()
    // Focused on its new conversation: the request box of the worktree's view has the keys, and it is empty.
    await page.waitForFunction(() => document.activeElement?.dataset?.testid === 'agent-input' && document.activeElement.closest('[data-testid="project-view"]:not([hidden])'))
    assert.equal(await view().getByTestId('agent-input').inputValue(), '')

    // The rail lists the worktree under its project, marked as one.
    const names = await strip().evaluateAll((els) => els.map((el) => el.querySelector('.project-strip-name').textContent))
    assert.deepEqual(names, ['home', 'rewrite-the-readme (worktree of home on rooted/rewrite-the-readme)'])
    assert.equal(await strip().nth(1).getByTestId('project-strip-worktree').count(), 1)
    worktree = await page.evaluate(async () => (await window.go.app.Projects.List()).find((p) => p.worktree)?.root)
    assert.ok(worktree && !worktree.startsWith(main), `the worktree is outside the project: ${worktree}`)
    assert.match(git('worktree', 'list'), /rooted\/rewrite-the-readme/)
    setSetup(undefined)
  })

  test("the worktree's conversation edits and runs a command; the main checkout stays byte-identical", async () => {
    const before = files(main)
    await view().getByTestId('agent-input').fill('rewrite the readme and copy the notes')
    await view().getByTestId('agent-send').click()
    for (const tool of ['write_file', 'exec_shell']) await view().locator(`[data-testid="tool-card"][data-tool="${tool}"][data-state="waiting"]`).getByTestId('approve-once').click()
    await view().getByTestId('msg-assistant').filter({ hasText: 'Rewritten.' }).waitFor()

    assert.deepEqual(files(worktree), { ...original, 'README.md': '# Rewritten\n', 'copy.txt': 'one\n' })
    assert.deepEqual(files(main), before, 'the main checkout is byte-identical')
    assert.equal(git('status', '--porcelain'), '')
    await view().getByTestId('worktree-changed').filter({ hasText: '2 files changed vs its base' }).waitFor()
  })

  test('Apply names a file both sides changed and writes nothing; then brings the change home as one, undoably', async () => {
    const bar = view().getByTestId('worktree-bar')
    writeFileSync(path.join(main, 'README.md'), '# Changed at home\n')
    const home = files(main)
    await bar.getByTestId('worktree-apply').click()
    await bar.locator('[data-testid="worktree-conflict"][data-path="README.md"]').filter({ hasText: 'line 1 in the main checkout against line 1 in the worktree' }).waitFor()
    assert.deepEqual(files(main), home, 'a conflict changes nothing')
    assert.deepEqual(await contrastFailures(page, '[data-testid="worktree-bar"]'), [])
    await screenshot(page, 'e2e-worktrees-conflict.png')

    writeFileSync(path.join(main, 'README.md'), original['README.md'])
    await bar.getByTestId('worktree-apply').click()
    await bar.getByTestId('worktree-applied').filter({ hasText: 'Applied to home: 2 files (README.md, copy.txt).' }).waitFor()
    assert.deepEqual(files(main), files(worktree), 'the main checkout is the worktree’s result')
    await screenshot(page, 'e2e-worktrees-applied.png')

    // Undo restores the main checkout's snapshot taken before the Apply; the worktree keeps its work.
    await bar.getByTestId('worktree-apply-undo').click()
    await bar.locator('[data-testid="worktree-applied"][data-state="undone"]').waitFor()
    assert.deepEqual(files(main), original)
    assert.equal(files(worktree)['README.md'], '# Rewritten\n')
    await bar.getByTestId('worktree-apply').click()
    await bar.locator('[data-testid="worktree-applied"][data-state="applied"]').waitFor()
    assert.deepEqual(files(main), files(worktree))
  })

  test('Apply merges a file both sides changed on different lines', async () => {
    const bar = view().getByTestId('worktree-bar')
    writeFileSync(path.join(worktree, 'src/lines.txt'), 'a\nb\nc\nd\nE from the worktree\n')
    writeFileSync(path.join(main, 'src/lines.txt'), 'A from home\nb\nc\nd\ne\n')
    await bar.getByTestId('worktree-apply').click()
    await bar.getByTestId('worktree-merged').filter({ hasText: "Merged with home's own changes: src/lines.txt." }).waitFor()
    assert.equal(readFileSync(path.join(main, 'src/lines.txt'), 'utf8'), 'A from home\nb\nc\nd\nE from the worktree\n')
    assert.equal(readFileSync(path.join(worktree, 'src/lines.txt'), 'utf8'), 'a\nb\nc\nd\nE from the worktree\n', 'the worktree keeps its own version')
  })

  test('Commit on branch commits the change on the worktree’s branch', async () => {
    const bar = view().getByTestId('worktree-bar')
    await bar.getByTestId('worktree-commit').click()
    await bar.getByTestId('worktree-commit-message').fill('Rewrite the readme')
    await bar.getByTestId('worktree-commit-confirm').click()
    await bar.getByTestId('worktree-committed').filter({ hasText: 'on rooted/rewrite-the-readme' }).waitFor()
    assert.equal(git('log', '-1', '--format=%s', 'rooted/rewrite-the-readme'), 'Rewrite the readme')
    assert.equal(git('show', 'rooted/rewrite-the-readme:README.md'), '# Rewritten')
  })

  test('a worktree closed is listed under its project, and reopens', async () => {
    await page.getByRole('button', { name: 'Close rewrite-the-readme' }).click()
    await strip().filter({ hasText: 'home' }).first().click()
    await view().getByTestId('worktree-menu').filter({ hasText: '(1)' }).click()
    const item = page.locator('[data-testid="worktree-item"][data-name="rewrite-the-readme"]')
    await item.filter({ hasText: '3 files changed' }).waitFor()
    await item.getByTestId('worktree-reopen').click()
    await view().getByTestId('worktree-bar').getByTestId('worktree-branch').filter({ hasText: 'rooted/rewrite-the-readme' }).waitFor()
  })

  test('Discard removes the worktree and its branch, closes it, and shows its project', async () => {
    const bar = view().getByTestId('worktree-bar')
    await bar.getByTestId('worktree-discard').click()
    await bar.getByTestId('worktree-discard-confirm').waitFor()
    await bar.getByTestId('worktree-discard-yes').click()
    await view().getByTestId('project-name').filter({ hasText: 'home' }).waitFor()
    assert.equal(await page.getByTestId('worktree-bar').count(), 0)
    assert.equal(await strip().count(), 1)
    assert.equal(existsSync(worktree), false, 'the folder is gone')
    assert.equal(git('branch', '--list', 'rooted/*'), '', 'the branch is gone')
    assert.equal(git('worktree', 'list', '--porcelain').split('\n').filter((l) => l.startsWith('worktree ')).length, 1)
    assert.deepEqual(files(main), { ...original, 'README.md': '# Rewritten\n', 'copy.txt': 'one\n', 'src/lines.txt': 'A from home\nb\nc\nd\nE from the worktree\n' }, 'what was applied stays')
  })

  test("a setup command that fails is said on the worktree's bar, with its output; the worktree opens all the same", async () => {
    setSetup(['node', '-e', "console.error('no lockfile here'); process.exit(3)"])
    await startWorktree('Setup fails')
    const failed = view().getByTestId('worktree-setup-failed')
    await failed.filter({ hasText: 'exited with status 3' }).waitFor()
    await failed.locator('summary').click()
    await failed.filter({ hasText: 'no lockfile here' }).waitFor()
    assert.equal((await view().getByTestId('worktree-branch').innerText()).trim(), 'rooted/setup-fails')
    setSetup(undefined)
    const bar = view().getByTestId('worktree-bar')
    await bar.getByTestId('worktree-discard').click()
    await bar.getByTestId('worktree-discard-yes').click()
    await view().getByTestId('project-name').filter({ hasText: 'home' }).waitFor()
  })

  test('click to a usable worktree project (measured)', async () => {
    // Per run, from the click on Start: its view shown (with its bar), its request box focused (the user can type),
    // its bar's count of changed files in.
    const runs = []
    const since = async (t0, f) => {
      await page.waitForFunction(f, null, { polling: 'raf' })
      return Math.round((await page.evaluate(() => performance.now())) - t0)
    }
    for (let i = 1; i <= 3; i++) {
      await view().getByTestId('worktree-menu').click()
      const dialog = page.getByTestId('worktree-dialog')
      await dialog.getByTestId('worktree-name').fill(`timing ${i}`)
      const t0 = await page.evaluate(() => performance.now())
      await dialog.getByTestId('worktree-start').click()
      const shown = await since(t0, () => document.querySelector('[data-testid="project-view"]:not([hidden]) [data-testid="worktree-bar"]'))
      const focused = await since(t0, () => document.activeElement?.dataset?.testid === 'agent-input' && document.activeElement.closest('[data-testid="project-view"]:not([hidden])'))
      const counted = await since(t0, () => document.querySelector('[data-testid="project-view"]:not([hidden]) [data-testid="worktree-changed"]')?.dataset.count === '0')
      runs.push(`${shown}/${focused}/${counted}`)
      const bar = view().getByTestId('worktree-bar')
      await bar.getByTestId('worktree-discard').click()
      await bar.getByTestId('worktree-discard-yes').click()
      await view().getByTestId('project-name').filter({ hasText: 'home' }).waitFor()
    }
    // The backend's part alone: the bound Start (git worktree add, settings, shadow seed, the project opened with
    // its index and watcher), then Discard, both called as the window calls them.
    const bound = await page.evaluate(async () => {
      const home = (await window.go.app.Projects.List()).find((p) => !p.worktree).id
      const out = []
      const of = []
      for (let i = 1; i <= 3; i++) {
        const t0 = performance.now()
        const r = await window.go.app.Worktrees.Start(home, `bound ${i}`, '')
        out.push(Math.round(performance.now() - t0))
        const t1 = performance.now()
        await window.go.app.Worktrees.Of(r.project.id)
        of.push(Math.round(performance.now() - t1))
        await window.go.app.Worktrees.Discard(home, r.worktree.name)
      }
      return { out, of }
    })
    console.log(`click to a worktree project shown/focused/counted (3-file repository, no setup command): ${runs.join(', ')} ms; the bound Start alone: ${bound.out.join(', ')} ms, its Of (the count): ${bound.of.join(', ')} ms`)
    assert.equal(git('branch', '--list', 'rooted/*'), '')
  })
})
