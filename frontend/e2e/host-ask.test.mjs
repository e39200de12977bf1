// A command in allow-list mode meets a host not on the list, end to end: the real UI served by `wails dev`, a
// scripted model, curl through the real proxy and sandbox. The card appears in the command's card while it runs
// (its connection held); Allow once lets it through and the download arrives; Deny refuses it, and what the model
// reads names the host. The host stands for one on the internet: a loopback HTTPS server, which the development
// build's proxy resolves the name to and lets through (ROOTED_DEV_PROXY_FIXTURES; a release build has no such
// setting). The wait for the answer is cut from 120 s to a few seconds (ROOTED_DEV_PROXY_ASK_WAIT, the development
// build's too) for the card that expires.
import { after, before, describe, test } from 'node:test'
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createServer } from 'node:https'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { cleanupAll, onCleanup } from './harness.mjs'
import { askAgent, newConversation, startAgentScenario } from './agent-scenario.mjs'
import { lastTurn } from './fake-llm.mjs'

const host = 'unlisted.rooted.test'
const body = 'hello from the fixture host'
// askWait is the proxy's wait for an answer here: long enough for a click, short enough to watch run out.
const askWait = 10

// fixtureHost serves body over HTTPS on loopback with a certificate for host; it returns the port and the
// certificate's file.
async function fixtureHost() {
  const dir = mkdtempSync(path.join(tmpdir(), 'rooted-e2e-host-'))
  onCleanup(() => rmSync(dir, { recursive: true, force: true }))
  const key = path.join(dir, 'key.pem')
  const cert = path.join(dir, 'cert.pem')
  execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert, '-days', '1', '-subj', `/CN=${host}`, '-addext', `subjectAltName=DNS:${host}`], { stdio: 'ignore' })
  const server = createServer({ key: readFileSync(key), cert: readFileSync(cert) }, (_req, res) => res.end(body))
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
  onCleanup(() => new Promise((resolve) => server.close(resolve)))
  return { port: server.address().port, cert }
}

describe('a host asked about while the command runs', { timeout: 600_000 }, () => {
  let page, url, fixture

  before(async () => {
    fixture = await fixtureHost()
    url = `https://${host}:${fixture.port}/`
    process.env.ROOTED_DEV_PROXY_FIXTURES = `${host}=127.0.0.1:${fixture.port}`
    process.env.ROOTED_DEV_PROXY_ASK_WAIT = `${askWait}s`
    const script = (req) => {
      const { user, results, last } = lastTurn(req)
      if (user.startsWith('download')) {
        if (results.length === 0) return { tools: [{ name: 'exec_shell', input: { command: 'curl', args: ['-sS', '--max-time', '100', '--cacert', 'ca.pem', url] } }] }
        return { text: `Result: ${last.slice(0, 1500)}` }
      }
      return { text: 'ok' }
    }
    ;({ page } = await startAgentScenario({
      script,
      fixture: { name: 'hosts', files: { 'README.md': '# hosts\n' }, setup: (dir) => copyFileSync(fixture.cert, path.join(dir, 'ca.pem')) },
      provider: { id: 'p', name: 'Scripted' },
    }))
    const mode = await page.evaluate(async () => {
      const p = await window.go.app.Projects.Current()
      const s = await window.go.app.Settings.Save(p.id, { allowlist: ['curl'], network: false, network_mode: 'allowlist', network_hosts: [], readable: [], unix_sockets: [], env_allow: [] })
      return { mode: s.network_mode, proxy: s.sandbox?.proxy ?? '', note: s.sandbox?.net_note ?? '' }
    })
    assert.equal(mode.mode, 'allowlist')
    assert.ok(mode.proxy, `no network namespace for allow-list mode here: ${mode.note}`)
  })

  after(cleanupAll)

  // run asks for the download, allows the command itself, and waits for the host's card in the running command.
  async function run(text) {
    await askAgent(page, text)
    const exec = page.locator('[data-testid="tool-card"][data-tool="exec_shell"]').last()
    await exec.getByTestId('approve-once').click()
    const ask = exec.locator(`[data-testid="host-ask"][data-host="${host}"]`)
    await ask.waitFor()
    assert.equal(await exec.getAttribute('data-state'), 'running', 'the card appeared only after the command ended')
    // The card names the port curl asked for: what an answer covers.
    assert.equal(await ask.getAttribute('data-port'), String(fixture.port))
    assert.ok((await ask.textContent()).includes(`waiting to reach ${host}:${fixture.port}`), await ask.textContent())
    return { exec, ask }
  }

  test('Allow once: the held connection goes on and the download arrives', async () => {
    const { exec, ask } = await run('download it')
    await ask.getByTestId('host-allow-once').click()
    await ask.getByTestId('host-answered').filter({ hasText: 'allowed for this command' }).waitFor()
    await page.getByTestId('msg-assistant').filter({ hasText: body }).waitFor()
    await exec.getByTestId('tool-exit').waitFor()
    assert.match(await exec.getByTestId('tool-exit').textContent(), /exit 0/)
    assert.equal(await exec.getByTestId('host-card').count(), 0, 'a host answered while the command ran was asked again')
  })

  test('Deny: the command fails and what the model reads names the host', async () => {
    await newConversation(page)
    const { exec, ask } = await run('download it again')
    await ask.getByTestId('host-deny').click()
    // The reply streams in: wait for the hint's words, not the command's line, which names the host too.
    const reply = page.getByTestId('msg-assistant').filter({ hasText: `declined ${host}` })
    await reply.waitFor()
    await page.getByTestId('agent-send').waitFor() // the answer streams in: read it once the turn is over
    const said = await reply.textContent()
    assert.ok(said.includes('CONNECT tunnel failed, response 403') && !said.includes(body), said)
    await exec.getByTestId('tool-exit').waitFor()
    assert.doesNotMatch(await exec.getByTestId('tool-exit').textContent(), /exit 0/)
  })

  // Last: its Always adds the rule the other tests need absent.
  test('No answer in time: the card says the host was refused and offers the rule for next time', async () => {
    await newConversation(page)
    const { exec } = await run('download it once more')
    const ended = exec.locator(`[data-testid="host-ask-ended"][data-host="${host}"]`)
    await ended.waitFor({ timeout: (askWait + 30) * 1000 })
    assert.equal(await ended.getAttribute('data-ended'), 'timeout')
    assert.equal(await ended.getByTestId('host-ask-why').textContent(), `No answer within ${askWait} s: ${host}:${fixture.port} was refused to this command.`)
    assert.equal(await exec.getByTestId('host-allow-once').count(), 0, 'the expired card still offers Allow once')
    assert.equal(await exec.getByTestId('host-deny').count(), 0, 'the expired card still offers Deny')
    // The command was refused the host, and the model reads it.
    await page.getByTestId('msg-assistant').filter({ hasText: `tried to reach ${host}` }).waitFor()
    await exec.getByTestId('tool-exit').waitFor()
    assert.doesNotMatch(await exec.getByTestId('tool-exit').textContent(), /exit 0/)
    await ended.getByTestId('host-allow-always').click()
    await ended.getByTestId('host-answered').filter({ hasText: 'always allowed in this project' }).waitFor()
    const rules = await page.evaluate(async () => {
      const p = await window.go.app.Projects.Current()
      return window.go.app.Permissions.Rules(p.id)
    })
    assert.ok(
      rules.some((r) => r.action === 'allow' && r.tool === 'network' && r.domain === host),
      JSON.stringify(rules),
    )
  })
})
