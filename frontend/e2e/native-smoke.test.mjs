// Smoke test of the built native binary: a real GTK/WebKit window under Xvfb, opened on a fixture folder with
// --root, captured with ImageMagick's `import` and checked for real content (not a blank or single-colour window).
import { after, test } from 'node:test'
import assert from 'node:assert/strict'
import { execFileSync, spawn } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { cleanupAll, ensureDisplay, makeFixture, onCleanup, outputDir, repoRoot } from './harness.mjs'

const binary = process.env.ROOTED_BINARY || path.join(repoRoot, 'build', 'bin', 'rooted')

after(cleanupAll)

// findWindow returns the X id of the top-level window titled "Rooted", or null. While the app starts, GTK makes
// and destroys windows of its own: one gone between xwininfo's listing and its query fails the whole call (X error
// "Bad Window"), which is no answer either way, so it counts as not found yet and the caller asks again.
function findWindow(display) {
  let tree
  try {
    tree = execFileSync('xwininfo', ['-root', '-tree'], {
      env: { ...process.env, DISPLAY: display },
      stdio: ['ignore', 'pipe', 'pipe'],
    }).toString()
  } catch (err) {
    if (/Bad (Window|Drawable)/.test(String(err.stderr ?? err.message))) return null
    throw err
  }
  const m = tree.match(/^\s*(0x[0-9a-f]+) "Rooted":/m)
  return m ? m[1] : null
}

function colours(file) {
  return Number(execFileSync('identify', ['-format', '%k', file]).toString().trim())
}

test('the native window opens a folder given with --root and renders it', { timeout: 180_000 }, async () => {
  assert.ok(existsSync(binary), `${binary} is missing: build it with make build`)
  const display = await ensureDisplay()
  const fixture = makeFixture('smoke-project', {
    'README.md': '# Smoke\n',
    'src/main.go': 'package main\n\nfunc main() {}\n',
    'docs/guide.md': '# Guide\n',
  })
  const configHome = mkdtempSync(path.join(tmpdir(), 'rooted-smoke-config-'))
  onCleanup(() => rmSync(configHome, { recursive: true, force: true }))
  const app = spawn(binary, ['--root', fixture], {
    env: { ...process.env, DISPLAY: display, XDG_CONFIG_HOME: configHome, XDG_CACHE_HOME: configHome },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  app.stdout.on('data', (d) => (output += d))
  app.stderr.on('data', (d) => (output += d))
  onCleanup(() => app.kill('SIGKILL'))

  let win = null
  for (let i = 0; i < 120 && !win; i++) {
    assert.equal(app.exitCode, null, `rooted exited early: ${output}`)
    win = findWindow(display)
    if (!win) await sleep(250)
  }
  assert.ok(win, `no window titled Rooted appeared; output: ${output}`)

  // WebKit paints asynchronously and the panels fill in as their calls return: wait until the window shows more
  // than its background colour and has stopped changing (the same picture twice, half a second apart).
  const shot = path.join(outputDir, 'native-window.png')
  let n = 0
  let previous = ''
  for (let i = 0; i < 60; i++) {
    execFileSync('import', ['-display', display, '-window', win, shot])
    n = colours(shot)
    const picture = execFileSync('identify', ['-format', '%#', shot]).toString() // a hash of the pixels
    if (n > 100 && picture === previous) break
    previous = picture
    await sleep(500)
  }
  // A blank or solid window has a handful of colours; the tree, text and status bar antialiased give hundreds.
  assert.ok(n > 100, `the window looks blank (${n} colours); see ${shot}`)
  assert.equal(app.exitCode, null, 'rooted must still be running')
})

test('without a display the binary says so plainly instead of crashing', () => {
  assert.ok(existsSync(binary), `${binary} is missing: build it with make build`)
  const env = { ...process.env }
  delete env.DISPLAY
  delete env.WAYLAND_DISPLAY
  let err
  try {
    execFileSync(binary, [], { env, stdio: 'pipe' })
  } catch (e) {
    err = e
  }
  assert.ok(err, 'rooted without a display must fail')
  assert.equal(err.status, 1)
  assert.match(err.stderr.toString(), /no display/)
})
