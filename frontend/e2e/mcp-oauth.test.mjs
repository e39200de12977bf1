// An HTTP MCP server that needs OAuth, end to end in the window: the real UI served by `wails dev`, the Go fixture
// (backend/mcpclient/mcpfixture/oauthserver: an authorization server and an MCP server that takes its tokens) on
// loopback ports. Settings shows the server asking for a sign-in; Sign in opens the system browser with xdg-open
// (here the user's default browser, as mimeapps.list names it, is a script that follows the authorization URL and
// its redirect back, as a user who approves does); the server is then connected with its tools, and the grant is
// stored where Settings says (here Rooted's data folder, readable only by the user), not in the settings file.
import { after, before, describe, test } from 'node:test'
import assert from 'node:assert/strict'
import { spawn, execFileSync } from 'node:child_process'
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import readline from 'node:readline'
import { cleanupAll, launchBrowser, makeFixture, onCleanup, openProject, repoRoot, screenshot, startDevApp } from './harness.mjs'

// userBrowser makes a config and a data home whose default browser (for xdg-open) is a script that fetches the URL
// with curl, following redirects, and notes each URL it was given in opened.
function userBrowser() {
  const base = mkdtempSync(path.join(tmpdir(), 'rooted-e2e-oauth-'))
  onCleanup(() => rmSync(base, { recursive: true, force: true }))
  const configHome = path.join(base, 'config')
  const dataHome = path.join(base, 'data')
  const opened = path.join(base, 'opened')
  const script = path.join(base, 'browser.sh')
  mkdirSync(configHome, { recursive: true })
  mkdirSync(path.join(dataHome, 'applications'), { recursive: true })
  writeFileSync(script, `#!/bin/sh\necho "$1" >> '${opened}'\nexec curl -sSL --max-time 60 -o /dev/null "$1"\n`)
  chmodSync(script, 0o755)
  writeFileSync(path.join(configHome, 'mimeapps.list'), '[Default Applications]\nx-scheme-handler/http=rooted-e2e-browser.desktop\nx-scheme-handler/https=rooted-e2e-browser.desktop\n')
  writeFileSync(path.join(dataHome, 'applications', 'rooted-e2e-browser.desktop'), `[Desktop Entry]\nType=Application\nName=e2e browser\nExec=${script} %u\n`)
  return { configHome, dataHome, opened }
}

// startOAuthFixture builds and starts the Go fixture, and answers its URLs.
async function startOAuthFixture() {
  const bin = path.join(mkdtempSync(path.join(tmpdir(), 'rooted-e2e-oauthserver-')), 'oauthserver')
  onCleanup(() => rmSync(path.dirname(bin), { recursive: true, force: true }))
  execFileSync('go', ['build', '-o', bin, './backend/mcpclient/mcpfixture/oauthserver'], { cwd: repoRoot, stdio: 'inherit' })
  const child = spawn(bin, [], { stdio: ['pipe', 'pipe', 'inherit'] })
  onCleanup(() => child.kill())
  const line = await new Promise((resolve, reject) => {
    readline.createInterface({ input: child.stdout }).once('line', resolve)
    child.once('exit', (code) => reject(new Error(`the OAuth fixture exited (${code})`)))
  })
  return JSON.parse(line)
}

describe('an HTTP MCP server that needs OAuth', { timeout: 600_000 }, () => {
  let page, app, fixture, dir, homes

  before(async () => {
    fixture = await startOAuthFixture()
    homes = userBrowser()
    app = await startDevApp({ configHome: homes.configHome, dataHome: homes.dataHome })
    const browser = await launchBrowser()
    page = await browser.newPage()
    page.on('pageerror', (e) => {
      if (!String(e.stack).includes('/wails/ipc.js')) console.error(`page error: ${e.stack ?? e}`)
    })
    dir = makeFixture('docs', { 'README.md': '# docs\n' })
    await page.goto(app.url)
    await openProject(page, dir)
  })

  after(async () => {
    await cleanupAll()
  })

  test('Settings asks for a sign-in, Sign in goes through the browser, and the server connects', async () => {
    await page.getByTestId('open-settings').click()
    const section = page.getByTestId('mcp-servers')
    await section.locator('summary', { hasText: 'Edit the servers' }).click()
    await section.getByTestId('mcp-servers-config').fill(JSON.stringify({ docs: { url: fixture.mcp } }))
    await section.getByTestId('mcp-servers-save').click()
    const row = page.getByTestId('mcp-server-docs')
    const button = row.getByTestId('mcp-server-sign-in')
    await button.filter({ hasText: 'Sign in' }).waitFor({ timeout: 60_000 })
    assert.match(await row.innerText(), /needs you to sign in/)
    assert.equal(existsSync(homes.opened), false, 'no browser before the user asks')

    await button.click()
    await row.getByTestId('mcp-server-state').filter({ hasText: 'connected, 1 tool' }).waitFor({ timeout: 60_000 })
    await button.filter({ hasText: 'Sign out' }).waitFor()
    await screenshot(page, 'e2e-mcp-oauth.png')

    const opened = readFileSync(homes.opened, 'utf8').trim().split('\n')
    assert.equal(opened.length, 1)
    assert.ok(opened[0].startsWith(`${fixture.issuer}/authorize?`), opened[0])
    assert.match(opened[0], /code_challenge_method=S256/)
    assert.match(opened[0], /redirect_uri=http%3A%2F%2F127\.0\.0\.1%3A\d+%2Fcallback/)

    // Settings says where the sign-in is kept, as it does for the API keys: the keyring by name, or the file (here,
    // on CI, with no session bus) with who may read it and why there is no keyring.
    const where = await page.getByTestId('mcp-secret-storage').textContent()
    assert.match(where, /^Secrets and sign-ins: Stored in (.+ \(Secret Service\)|.+\/rooted\/mcp-secrets\.json \(readable only by you\) — no system keyring found: .+)$/)
    const grants = path.join(homes.dataHome, 'rooted', 'mcp-oauth.json')
    if (where.includes('(Secret Service)')) {
      assert.equal(existsSync(grants), false, 'no grants file beside the keyring')
      return
    }
    assert.equal(statSync(grants).mode & 0o777, 0o600)
    const grant = JSON.parse(readFileSync(grants, 'utf8'))[fixture.mcp]
    assert.ok(grant?.token?.refresh_token, 'the refresh token is kept')
    const settingsFile = readFileSync(path.join(homes.configHome, 'rooted', 'settings.json'), 'utf8')
    assert.ok(!settingsFile.includes(grant.token.access_token), 'no token in the settings file')
  })
})
