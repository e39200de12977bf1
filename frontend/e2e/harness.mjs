// Shared end-to-end harness: a display (Xvfb when there is none), the real app served by `wails dev`, Debian's
// Chromium driven by playwright-core, and throwaway fixture projects. Scenarios import what they need.
import { spawn, execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, openSync, readlinkSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { chromium } from 'playwright-core'

export const repoRoot = path.resolve(import.meta.dirname, '..', '..')
export const outputDir = path.join(repoRoot, 'test-output')
export const devURL = 'http://localhost:34115'
const chromiumPath = process.env.CHROMIUM_PATH || '/usr/bin/chromium'

mkdirSync(outputDir, { recursive: true })

const cleanups = []
export function onCleanup(fn) {
  cleanups.push(fn)
}
export async function cleanupAll() {
  while (cleanups.length) {
    try {
      await cleanups.pop()()
    } catch (e) {
      console.error('cleanup:', e)
    }
  }
}

// ensureDisplay returns a DISPLAY to use: the caller's, or a private Xvfb started for the run.
export async function ensureDisplay() {
  if (process.env.DISPLAY) return process.env.DISPLAY
  for (let n = 90; n < 110; n++) {
    if (existsSync(`/tmp/.X11-unix/X${n}`) || existsSync(`/tmp/.X${n}-lock`)) continue
    const xvfb = spawn('Xvfb', [`:${n}`, '-screen', '0', '1280x800x24', '-nolisten', 'tcp'], { stdio: 'ignore' })
    onCleanup(() => xvfb.kill('SIGTERM'))
    for (let i = 0; i < 100; i++) {
      if (existsSync(`/tmp/.X11-unix/X${n}`)) return `:${n}`
      if (xvfb.exitCode !== null) break
      await sleep(100)
    }
    xvfb.kill('SIGKILL')
  }
  throw new Error('could not start Xvfb (is the xvfb package installed?)')
}

// killGroup ends a detached child and everything it started (wails dev runs vite and the app as children).
function killGroup(child) {
  if (child.exitCode !== null || child.pid === undefined) return Promise.resolve()
  return new Promise((resolve) => {
    const done = setTimeout(() => {
      try {
        process.kill(-child.pid, 'SIGKILL')
      } catch {}
      resolve()
    }, 5000)
    child.once('exit', () => {
      clearTimeout(done)
      try {
        process.kill(-child.pid, 'SIGKILL') // stragglers in the group
      } catch {}
      resolve()
    })
    try {
      process.kill(-child.pid, 'SIGTERM')
    } catch {
      resolve()
    }
  })
}

// appPid finds the app's own process among wails dev's descendants (the dev build of rooted-desktop).
function appPid(root) {
  const children = (pid) => {
    try {
      return execFileSync('pgrep', ['-P', String(pid)]).toString().trim().split('\n').filter(Boolean).map(Number)
    } catch {
      return []
    }
  }
  const queue = children(root)
  while (queue.length) {
    const pid = queue.shift()
    try {
      if (path.basename(readlinkSync(`/proc/${pid}/exe`)).startsWith('rooted-desktop')) return pid
    } catch {}
    queue.push(...children(pid))
  }
  return undefined
}

async function waitForHTTP(url, child, logFile, timeoutMs) {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`wails dev exited with ${child.exitCode}; see ${logFile}`)
    try {
      const res = await fetch(url)
      if (res.ok && (await res.text()).includes('/wails/ipc.js')) return
    } catch {}
    await sleep(500)
  }
  throw new Error(`the app did not answer at ${url} within ${timeoutMs / 1000}s; see ${logFile}`)
}

// startDevApp runs `wails dev` for the repository with an isolated config directory and waits until it serves.
// Given the folders of an earlier run (homes), it starts again on them: the same settings, providers and
// conversations, as after a restart. Given built (a folder buildFrontend made), the page is that production build
// rather than the sources Vite serves in development (React's development build). stop ends this run (the dev
// server and the app).
export async function startDevApp(homes = {}, { built } = {}) {
  const display = await ensureDisplay()
  const fresh = (prefix) => {
    const d = mkdtempSync(path.join(tmpdir(), prefix))
    onCleanup(() => rmSync(d, { recursive: true, force: true }))
    return d
  }
  const configHome = homes.configHome ?? fresh('rooted-e2e-config-')
  const cacheHome = homes.cacheHome ?? fresh('rooted-e2e-cache-')
  const dataHome = homes.dataHome ?? fresh('rooted-e2e-data-')
  // Go's caches stay the machine's (the isolated cache home would make every build, and the agent's go test,
  // start cold); Rooted's own state (recent list, settings, providers, snapshots, conversations) is isolated.
  const goEnv = (name) => execFileSync('go', ['env', name]).toString().trim()
  const logFile = path.join(outputDir, 'wails-dev.log')
  const log = openSync(logFile, 'w')
  const wails = process.env.WAILS || path.join(execFileSync('go', ['env', 'GOPATH']).toString().trim(), 'bin', 'wails')
  const child = spawn(wails, ['dev', '-tags', 'webkit2_41', '-s', '-noreload', '-m', '-nogorebuild', '-skipbindings', '-nocolour'], {
    cwd: repoRoot,
    env: {
      ...process.env,
      DISPLAY: display,
      XDG_CONFIG_HOME: configHome,
      XDG_CACHE_HOME: cacheHome,
      XDG_DATA_HOME: dataHome,
      GOCACHE: goEnv('GOCACHE'),
      GOMODCACHE: goEnv('GOMODCACHE'),
      OPENAI_API_KEY: '',
      ANTHROPIC_API_KEY: '',
      CI: 'true',
      ROOTED_SERVE_BUILT: built ?? '',
    },
    stdio: ['ignore', log, log],
    detached: true,
  })
  onCleanup(() => killGroup(child))
  await waitForHTTP(devURL, child, logFile, 240_000)
  return { url: devURL, configHome, cacheHome, dataHome, logFile, stop: () => killGroup(child), appPid: () => appPid(child.pid) }
}

// buildFrontend runs `vite build` on the frontend (the sources in frontend/, or those of another copy of it: from)
// into a new folder and returns it, for startDevApp's built; the caller removes it (it outlives cleanupAll, so that
// a bench can start the app on it again).
// minify: false keeps the names (a CPU profile's functions; React's production code all the same).
export function buildFrontend(from = path.join(repoRoot, 'frontend'), { minify = true } = {}) {
  const out = mkdtempSync(path.join(tmpdir(), 'rooted-e2e-built-'))
  // Its warnings (chunk sizes, annotations in dependencies) are the build's own; a failure throws with its output.
  const flags = ['build', '--logLevel', 'error', '--emptyOutDir', '--outDir', out, ...(minify ? [] : ['--minify', 'false'])]
  execFileSync(path.join(repoRoot, 'frontend', 'node_modules', '.bin', 'vite'), flags, { cwd: from, stdio: 'pipe' })
  return out
}

// launchBrowser starts Debian's Chromium with a fresh profile and the flags this closed network needs.
export async function launchBrowser() {
  const profile = mkdtempSync(path.join(tmpdir(), 'rooted-e2e-chromium-'))
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: chromiumPath,
    headless: true,
    viewport: { width: 1280, height: 800 },
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  })
  onCleanup(async () => {
    await context.close()
    rmSync(profile, { recursive: true, force: true })
  })
  return context
}

// makeFixture writes a project folder: keys are slash paths, values are contents (string or Buffer).
export function makeFixture(name, files) {
  const dir = path.join(mkdtempSync(path.join(tmpdir(), 'rooted-fixture-')), name)
  for (const [rel, content] of Object.entries(files)) {
    const p = path.join(dir, ...rel.split('/'))
    mkdirSync(path.dirname(p), { recursive: true })
    writeFileSync(p, content)
  }
  onCleanup(() => rmSync(path.dirname(dir), { recursive: true, force: true }))
  return dir
}

// gitCommitted makes dir a git repository on main with all it holds committed (a fixture's setup), as a project
// under version control is when a person opens it.
export function gitCommitted(dir) {
  const git = (...args) => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { cwd: dir })
  git('init', '-q', '-b', 'main')
  git('add', '.')
  git('commit', '-qm', 'first')
}

// openProject opens a folder through the app's bound method, as the UI's buttons do, and reloads the page.
export async function openProject(page, dir) {
  await page.waitForFunction(() => window.go?.app?.Projects?.Open !== undefined, null, { timeout: 30_000 })
  await page.evaluate((d) => window.go.app.Projects.Open(d), dir)
  await page.reload()
}

// until reads the page (read) until check, an assertion on what was read, passes, and returns that value: a value
// filled in after an action (an answer streaming, a call's reply, a setting loaded) is checked once it has arrived,
// not when the read happens to run. Past the timeout it throws check's last failure, which shows the last value read.
export async function until(read, check, { timeout = 15_000 } = {}) {
  const deadline = Date.now() + timeout
  for (;;) {
    const value = await read()
    try {
      check(value)
      return value
    } catch (e) {
      if (Date.now() > deadline) throw e
    }
    await sleep(50)
  }
}

export async function screenshot(page, name) {
  const file = path.join(outputDir, name)
  await page.screenshot({ path: file })
  return file
}

// paneInView is the conversation pane in view: each conversation at work keeps a pane of its own, hidden out of view.
export const paneInView = (page) => page.locator('[data-testid="conversation-pane"]:not([hidden])')

// askInView sends a request from the pane in view once it can take one.
export async function askInView(page, text) {
  await paneInView(page).getByTestId('agent-send').waitFor()
  await paneInView(page).getByTestId('agent-input').fill(text)
  await paneInView(page).getByTestId('agent-send').click()
}

// startBeside starts a new conversation beside the one in view (which goes on if it works) and waits for its pane.
export async function startBeside(page) {
  await paneInView(page).getByTestId('new-conversation').click()
  await paneInView(page).getByTestId('conversation-title').filter({ hasText: 'New conversation' }).waitFor()
}

// watchKeys makes the page time each key, from its keydown to the frame painted after it (a task queued from the
// frame's requestAnimationFrame runs once it is painted); takeKeyTimes returns the times since the last take.
export async function watchKeys(page) {
  await page.evaluate(() => {
    window.__keyLatency = []
    document.addEventListener(
      'keydown',
      (e) => {
        const t0 = e.timeStamp
        requestAnimationFrame(() => setTimeout(() => window.__keyLatency.push(performance.now() - t0), 0))
      },
      true,
    )
  })
}
export const takeKeyTimes = (page) => page.evaluate(() => window.__keyLatency.splice(0))

// countRenders makes the page count, by component name, the renders React commits: it stands in for React
// DevTools' hook (installed before the app's script, as the extension's is), and walks each commit as DevTools does,
// down the parts that changed, counting each function or class component that rendered (React marks it
// PerformedWork). It takes effect from the next load; takeRenders returns the counts since the last take. A
// production build's names are its minified ones.
export async function countRenders(page) {
  await page.addInitScript(() => {
    let counts = {}
    const nameOf = (f) => f.type?.displayName || f.type?.name || f.type?.render?.name || '(anonymous)'
    // FunctionComponent, ClassComponent, ForwardRef, SimpleMemoComponent (a MemoComponent's inner one is its child).
    const component = (f) => f.tag === 0 || f.tag === 1 || f.tag === 11 || f.tag === 15
    const count = (f) => (counts[nameOf(f)] = (counts[nameOf(f)] ?? 0) + 1)
    const mount = (f) => {
      for (; f; f = f.sibling) {
        if (component(f)) count(f)
        mount(f.child)
      }
    }
    const update = (next, prev) => {
      if (next !== prev && component(next) && next.flags & 1) count(next) // 1: PerformedWork
      if (next.child === prev.child) return // nothing below changed
      for (let c = next.child; c; c = c.sibling) {
        if (c.alternate) update(c, c.alternate)
        else {
          if (component(c)) count(c)
          mount(c.child)
        }
      }
    }
    let ids = 0
    window.__REACT_DEVTOOLS_GLOBAL_HOOK__ = {
      supportsFiber: true,
      isDisabled: false,
      renderers: new Map(),
      inject(renderer) {
        this.renderers.set(++ids, renderer)
        return ids
      },
      onCommitFiberRoot(_id, root) {
        const cur = root.current
        if (cur.alternate) update(cur, cur.alternate)
        else mount(cur.child)
      },
      onCommitFiberUnmount() {},
      onPostCommitFiberRoot() {},
      onScheduleFiberRoot() {},
      checkDCE() {},
    }
    window.__takeRenders = () => {
      const c = counts
      counts = {}
      return c
    }
  })
}
export const takeRenders = (page) => page.evaluate(() => window.__takeRenders?.() ?? {})
