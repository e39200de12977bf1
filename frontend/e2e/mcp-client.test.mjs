// The agent uses another MCP server, end to end: the real UI served by `wails dev`, a scripted model, a server on
// the TypeScript SDK (mcp-fixture/server.mjs, 2025-06-18 only) named in the project's entry of the user's settings.
// Settings shows it connected; the model's tool list has its tools; a call of add goes through the approval card
// (the server's readOnlyHint spares it nothing) and the model receives the sum; inside Rooted's sandbox the server
// can neither read a secret outside the project nor connect anywhere. With the project in allow-list network mode the
// server's proxy refuses a host not on the list; Settings lists it under the server with Allow HOST for SERVER, which
// lets that server alone reach it from its next connection, and Remove refuses it again. The host stands for one on
// the internet: a loopback listener the development build's proxy resolves the name to (ROOTED_DEV_PROXY_FIXTURES).
import { after, before, describe, test } from 'node:test'
import assert from 'node:assert/strict'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import net from 'node:net'
import path from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { fileURLToPath } from 'node:url'
import { cleanupAll, paneInView, screenshot } from './harness.mjs'
import { askAgent, newConversation, startAgentScenario } from './agent-scenario.mjs'
import { lastTurn } from './fake-llm.mjs'

const here = path.dirname(fileURLToPath(import.meta.url))
const frontend = path.dirname(here)
// apiHost is a name no resolver answers but the development build's proxy, and no list holds until Allow.
const apiHost = 'api.rooted-test.invalid'
const greeting = `hello from ${apiHost}`

let steal = {}
const calcEntry = { command: process.execPath, args: [path.join(here, 'mcp-fixture', 'server.mjs')], readable: [frontend] }
let apiPort = 0
function script(req) {
  const { user, results, last } = lastTurn(req)
  if (user.includes('add with the calculator')) {
    if (results.length === 0) return { tools: [{ name: 'mcp__calc__add', input: { a: 20, b: 22 } }] }
    return { text: `Sum: ${last}` }
  }
  if (user.includes('take the key')) {
    if (results.length === 0) return { tools: [{ name: 'mcp__calc__steal', input: steal }] }
    return { text: `Took: ${last}` }
  }
  const reach = user.match(/^reach the api \((\d+)\)/)
  if (reach) {
    if (results.length === 0) return { tools: [{ name: 'mcp__calc__reach', input: { host: apiHost, port: apiPort } }] }
    return { text: `Reached (${reach[1]}): ${last}` }
  }
  return { text: 'ok' }
}

describe('another MCP server the agent uses', { timeout: 600_000 }, () => {
  let page, fixture, llm, app, listener, secret, api

  before(async () => {
    // The host the server is refused, then allowed: it greets whoever the proxy's tunnel brings.
    api = net.createServer((s) => s.end(`${greeting}\n`)).listen(0, '127.0.0.1')
    await new Promise((r) => api.once('listening', r))
    apiPort = api.address().port
    process.env.ROOTED_DEV_PROXY_FIXTURES = `${apiHost}=127.0.0.1:${apiPort}`
    ;({ page, fixture, llm, app } = await startAgentScenario({
      script,
      fixture: { name: 'calc', files: { 'README.md': '# calc\n' } },
      provider: { id: 'scripted', name: 'Scripted' },
    }))
    // A secret where the user's keys would be, and a listener the server must not reach.
    secret = path.join(path.dirname(fixture), 'home', '.ssh', 'id_ed25519')
    mkdirSync(path.dirname(secret), { recursive: true })
    writeFileSync(secret, 'PRIVATE-KEY-MATERIAL\n')
    listener = net.createServer((s) => s.end()).listen(0, '127.0.0.1')
    await new Promise((r) => listener.once('listening', r))
    steal = { path: secret, host: '127.0.0.1', port: listener.address().port }
  })

  after(async () => {
    listener?.close()
    api?.close()
    await cleanupAll()
  })

  test('Settings adds the server to the project and shows it connected with its tools, over 2025-06-18', async () => {
    await page.getByTestId('open-settings').click()
    const section = page.getByTestId('mcp-servers')
    await section.locator('summary', { hasText: 'Edit the servers' }).click()
    const config = section.getByTestId('mcp-servers-config')
    // A misspelt grant is refused whole, not saved as nothing.
    await config.fill(JSON.stringify({ calc: { command: process.execPath, netwrok: true } }))
    await section.getByTestId('mcp-servers-save').click()
    await section.getByText('unknown field "netwrok"').waitFor({ state: 'attached' })
    const entry = { calc: calcEntry }
    await config.fill(JSON.stringify(entry, null, 2))
    await section.getByTestId('mcp-servers-save').click()
    const row = page.getByTestId('mcp-server-calc')
    await row.getByTestId('mcp-server-state').filter({ hasText: 'connected, 3 tools (2025-06-18)' }).waitFor({ timeout: 60_000 })
    const file = JSON.parse(readFileSync(path.join(app.configHome, 'rooted', 'settings.json'), 'utf8'))
    assert.deepEqual(file.projects[fixture].mcp_servers, entry, "kept in the user's settings, in the project's entry")
    assert.match(await row.innerText(), /mcp__calc__add, mcp__calc__steal, mcp__calc__reach/)
    await row.scrollIntoViewIfNeeded()
    await screenshot(page, 'e2e-mcp-servers.png')
    await page.getByTestId('settings-close').click()
  })

  test('a call of add asks first, and the model receives the sum', async () => {
    await askAgent(page, 'add with the calculator')
    const card = page.locator('[data-testid="tool-card"][data-tool="mcp__calc__add"]').last()
    await card.getByTestId('approve-once').waitFor()
    const asked = llm.requests.at(-1)
    assert.ok(asked.tools.includes('mcp__calc__add'), `the model's tools: ${asked.tools}`)
    await card.getByTestId('approve-once').click()
    await page.getByTestId('msg-assistant').filter({ hasText: 'Sum:' }).waitFor()
    const { last } = lastTurn(llm.requests.at(-1))
    assert.match(last, /\b42\b/, `the model received: ${last}`)
  })

  test('inside the sandbox the server reads no secret and connects nowhere', async () => {
    await newConversation(page)
    await askAgent(page, 'take the key')
    const card = page.locator('[data-testid="tool-card"][data-tool="mcp__calc__steal"]').last()
    await card.getByTestId('approve-once').click()
    await page.getByTestId('msg-assistant').filter({ hasText: 'Took:' }).waitFor()
    const { last } = lastTurn(llm.requests.at(-1))
    assert.doesNotMatch(last, /PRIVATE-KEY-MATERIAL/, `the server read the secret: ${last}`)
    assert.doesNotMatch(last, /connect: ok/, `the server connected: ${last}`)
    assert.match(last, /read: E/, last)
  })

  test('a request sent while the server is still starting waits for it, and the model gets its tools', async () => {
    // Saved again, slow to start (as a server npx is still fetching): the request below is sent while it starts.
    const section = page.getByTestId('mcp-servers')
    const save = async (entry, state) => {
      await page.getByTestId('open-settings').click()
      await section.locator('summary', { hasText: 'Edit the servers' }).click()
      await section.getByTestId('mcp-servers-config').fill(JSON.stringify(entry, null, 2))
      await section.getByTestId('mcp-servers-save').click()
      await page.getByTestId('mcp-server-calc').getByTestId('mcp-server-state').filter({ hasText: state }).waitFor()
      await page.getByTestId('settings-close').click()
    }
    await save({ calc: { ...calcEntry, env: { CALC_START_DELAY_MS: '6000' } } }, 'starting')
    await newConversation(page)
    const state = await page.evaluate(async () => {
      const p = await window.go.app.Projects.Current()
      return (await window.go.app.MCPServers.Status(p.id)).find((s) => s.name === 'calc')?.state
    })
    assert.equal(state, 'starting', 'the server had started before the request could be sent: nothing here tests the wait')
    await askAgent(page, 'add with the calculator')
    const pane = paneInView(page)
    await pane.locator('[data-testid="tool-card"][data-tool="mcp__calc__add"]').getByTestId('approve-once').click()
    await pane.getByTestId('msg-assistant').filter({ hasText: 'Sum:' }).waitFor()
    assert.ok(llm.requests.at(-1).tools.includes('mcp__calc__add'), `the model's tools: ${llm.requests.at(-1).tools}`)
    assert.match(lastTurn(llm.requests.at(-1)).last, /\b42\b/)
    await save({ calc: calcEntry }, 'connected')
  })

  test('in allow-list mode, Allow HOST for SERVER lets the server alone reach a host it was refused; Remove refuses it again', async (t) => {
    const row = page.getByTestId('mcp-server-calc')
    const refused = row.locator(`[data-testid="mcp-refused-host"][data-host="${apiHost}"]`)
    const allowed = row.locator(`[data-testid="mcp-allowed-host"][data-host="${apiHost}"]`)
    const project = () => JSON.parse(readFileSync(path.join(app.configHome, 'rooted', 'settings.json'), 'utf8')).projects[fixture]
    // reach asks the model to call reach in a new conversation, allows the call, and returns what the model read.
    const reach = async (n) => {
      await newConversation(page)
      await askAgent(page, `reach the api (${n})`)
      await paneInView(page).locator('[data-testid="tool-card"][data-tool="mcp__calc__reach"]').getByTestId('approve-once').click()
      await page.getByTestId('msg-assistant').filter({ hasText: `Reached (${n}):` }).waitFor()
      return lastTurn(llm.requests.at(-1)).last
    }
    const policy403 = new RegExp(`reach: 403 Forbidden by Rooted: ${apiHost.replaceAll('.', '\\.')} is not on this project's list of hosts`)

    // The project's commands reach only listed hosts; its servers get a proxy of their own when they start again.
    await page.getByTestId('open-settings').click()
    await page.getByTestId('settings-network-allowlist').check()
    await page.getByTestId('settings-saved').filter({ hasText: 'saved: commands reach only the listed hosts' }).waitFor()
    await page.getByTestId('mcp-servers-restart').click()
    // Started again, the server's sandbox names its proxy, or says why there can be none; until it has connected
    // the model is not given its tools.
    const calc = () =>
      page.evaluate(async () => {
        const p = await window.go.app.Projects.Current()
        return (await window.go.app.MCPServers.Status(p.id)).find((s) => s.name === 'calc')
      })
    let st = await calc()
    for (const deadline = Date.now() + 60_000; !(st?.state === 'connected' && (st.sandbox?.proxy || st.sandbox?.network_note)); st = await calc()) {
      assert.ok(Date.now() < deadline, `the server did not start again in allow-list mode: ${JSON.stringify(st)}`)
      await sleep(200)
    }
    const sandbox = st.sandbox
    if (!sandbox.proxy) return t.skip(`no network namespace for the server here: ${sandbox.network_note}`)
    await row.getByTestId('mcp-server-state').filter({ hasText: 'connected, 3 tools' }).waitFor()
    await page.getByTestId('settings-close').click()

    const first = await reach(1)
    assert.match(first, policy403, `the model read: ${first}`)
    assert.match(first, /ask the user to allow it for calc \(Settings, MCP servers: Allow under calc/, 'the model is told what the user can do')

    // Settings lists the refused host under the server; Allow moves it to the hosts the server alone may reach.
    await page.getByTestId('open-settings').click()
    await refused.filter({ hasText: 'once' }).waitFor()
    assert.equal(await allowed.count(), 0)
    await refused.getByTestId('mcp-allow-host').filter({ hasText: `Allow ${apiHost} for calc` }).click()
    await allowed.getByTestId('mcp-remove-host').waitFor()
    await row.getByTestId('mcp-host-allowed').filter({ hasText: `${apiHost} is allowed for calc alone` }).waitFor()
    await refused.waitFor({ state: 'detached' })
    await row.scrollIntoViewIfNeeded()
    await screenshot(page, 'e2e-mcp-allow-host.png')
    assert.deepEqual(project().mcp_server_hosts, { calc: [apiHost] }, "kept for the server in the user's settings")
    assert.equal(await page.getByTestId('settings-network-hosts').inputValue(), '', "the project's commands are not given it")
    assert.equal(project().network_hosts, undefined)
    await page.getByTestId('settings-close').click()

    // The server's next connection, with no restart asked for: the proxy opens the tunnel and the greeting comes through.
    const second = await reach(2)
    assert.match(second, new RegExp(`reach: 200 Connection established(\\\\n|\n)${greeting}`), `the model read: ${second}`)
    assert.doesNotMatch(second, /403|allow it for calc/, second)

    // Remove: the host is refused again from the next connection, and the record of its refusals shows once more.
    await page.getByTestId('open-settings').click()
    await allowed.getByTestId('mcp-remove-host').click()
    await allowed.waitFor({ state: 'detached' })
    await refused.getByTestId('mcp-allow-host').waitFor()
    assert.equal(project().mcp_server_hosts, undefined, 'the grant is gone from the settings')
    await page.getByTestId('settings-close').click()
    const third = await reach(3)
    assert.match(third, policy403, `the model read: ${third}`)
    await page.getByTestId('open-settings').click()
    await refused.filter({ hasText: '2 times' }).getByTestId('mcp-allow-host').waitFor()
    await page.getByTestId('settings-close').click()
  })
})
