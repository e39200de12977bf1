// The agent uses another MCP server, end to end: the real UI served by `wails dev`, a scripted model, a server on
// the TypeScript SDK (mcp-fixture/server.mjs, 2025-06-18 only) named in the project's entry of the user's settings.
// Settings shows it connected; the model's tool list has its tools; a call of add goes through the approval card
// (the server's readOnlyHint spares it nothing) and the model receives the sum; inside Rooted's sandbox the server
// can neither read a secret outside the project nor connect anywhere.
import { after, before, describe, test } from 'node:test'
import assert from 'node:assert/strict'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import net from 'node:net'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { cleanupAll, screenshot } from './harness.mjs'
import { askAgent, newConversation, startAgentScenario } from './agent-scenario.mjs'

const here = path.dirname(fileURLToPath(import.meta.url))
const frontend = path.dirname(here)

function turn(req) {
  let i = req.messages.length - 1
  while (i >= 0 && req.messages[i].role !== 'user') i--
  const user = req.messages[i]?.text ?? ''
  const results = req.messages.slice(i + 1).filter((m) => m.role === 'tool').flatMap((m) => m.toolResults)
  return { user, results, last: results.at(-1)?.content ?? '' }
}

let steal = {}
function script(req) {
  const { user, results, last } = turn(req)
  if (user.includes('add with the calculator')) {
    if (results.length === 0) return { tools: [{ name: 'mcp__calc__add', input: { a: 20, b: 22 } }] }
    return { text: `Sum: ${last}` }
  }
  if (user.includes('take the key')) {
    if (results.length === 0) return { tools: [{ name: 'mcp__calc__steal', input: steal }] }
    return { text: `Took: ${last}` }
  }
  return { text: 'ok' }
}

describe('another MCP server the agent uses', { timeout: 600_000 }, () => {
  let page, fixture, llm, app, listener, secret

  before(async () => {
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
    const entry = { calc: { command: process.execPath, args: [path.join(here, 'mcp-fixture', 'server.mjs')], readable: [frontend] } }
    await config.fill(JSON.stringify(entry, null, 2))
    await section.getByTestId('mcp-servers-save').click()
    const row = page.getByTestId('mcp-server-calc')
    await row.getByTestId('mcp-server-state').filter({ hasText: 'connected, 2 tools (2025-06-18)' }).waitFor({ timeout: 60_000 })
    const file = JSON.parse(readFileSync(path.join(app.configHome, 'rooted', 'settings.json'), 'utf8'))
    assert.deepEqual(file.projects[fixture].mcp_servers, entry, "kept in the user's settings, in the project's entry")
    assert.match(await row.innerText(), /mcp__calc__add, mcp__calc__steal/)
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
    const { last } = turn(llm.requests.at(-1))
    assert.match(last, /\b42\b/, `the model received: ${last}`)
  })

  test('inside the sandbox the server reads no secret and connects nowhere', async () => {
    await newConversation(page)
    await askAgent(page, 'take the key')
    const card = page.locator('[data-testid="tool-card"][data-tool="mcp__calc__steal"]').last()
    await card.getByTestId('approve-once').click()
    await page.getByTestId('msg-assistant').filter({ hasText: 'Took:' }).waitFor()
    const { last } = turn(llm.requests.at(-1))
    assert.doesNotMatch(last, /PRIVATE-KEY-MATERIAL/, `the server read the secret: ${last}`)
    assert.doesNotMatch(last, /connect: ok/, `the server connected: ${last}`)
    assert.match(last, /read: E/, last)
  })
})
