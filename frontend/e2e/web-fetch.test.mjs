// web_fetch's approval in the window, end to end: the first fetch from a domain waits on a card that names the
// domain; "Always for <domain>" adds a web_fetch rule with that domain to the user's settings and runs the call; the
// next fetch from the domain runs without a card; another domain asks again. (Nothing is fetched: the page's
// content is the backend's, tested against a local TLS server in Go; here the fetch fails or succeeds as this
// machine's network allows, and either result reaches the model.)
import { after, before, describe, test } from 'node:test'
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { cleanupAll } from './harness.mjs'
import { toolResults } from './fake-llm.mjs'
import { askAgent, startAgentScenario } from './agent-scenario.mjs'

// script answers the latest request: a fetch of the URL it names, then a line once the result is back.
function script(req) {
  const last = req.messages.findLastIndex((m) => m.role === 'user' && m.text)
  const ask = req.messages[last]?.text ?? ''
  const m = /^fetch (\S+)/.exec(ask)
  if (m) {
    if (toolResults({ messages: req.messages.slice(last) }).length === 0) return { tools: [{ name: 'web_fetch', input: { url: m[1] } }] }
    return { text: `Fetched ${m[1]}.` }
  }
  return { text: 'ok' }
}

describe('web_fetch approvals', { timeout: 600_000 }, () => {
  let page, app

  before(async () => {
    ;({ page, app } = await startAgentScenario({ script, fixture: { name: 'web', files: { 'README.md': '# web\n' } }, provider: { id: 'p', name: 'Scripted' } }))
  })

  after(cleanupAll)

  test('the first fetch from a domain asks, naming it; Always adds the domain rule; the next fetch runs; another domain asks', async () => {
    await askAgent(page, 'fetch https://docs.python.org/3/library/json.html')
    const card = page.getByTestId('approval')
    await card.getByTestId('approval-fetch').filter({ hasText: 'Fetch from docs.python.org' }).waitFor()
    await card.getByTestId('approve-session').filter({ hasText: 'Allow docs.python.org for this session' }).waitFor()
    await card.getByTestId('approve-always').filter({ hasText: 'Always for docs.python.org' }).click()
    await page.getByTestId('msg-assistant').filter({ hasText: 'Fetched https://docs.python.org/3/library/json.html.' }).waitFor()
    const settings = JSON.parse(readFileSync(path.join(app.configHome, 'rooted', 'settings.json'), 'utf8'))
    const rules = Object.values(settings.projects ?? {}).flatMap((p) => p.rules ?? [])
    assert.ok(rules.some((r) => r.action === 'allow' && r.tool === 'web_fetch' && r.domain === 'docs.python.org'), JSON.stringify(settings))

    await askAgent(page, 'fetch https://docs.python.org/3/tutorial/')
    await page.getByTestId('msg-assistant').filter({ hasText: 'Fetched https://docs.python.org/3/tutorial/.' }).waitFor()
    assert.equal(await page.getByTestId('approval').count(), 0, 'the allowed domain asked again')
    assert.equal(await page.locator('[data-testid="tool-card"][data-tool="web_fetch"]').count(), 2, 'the second fetch ran')

    await askAgent(page, 'fetch https://evil.example.com/')
    await page.getByTestId('approval').getByTestId('approval-fetch').filter({ hasText: 'Fetch from evil.example.com' }).waitFor()
    await page.getByTestId('approval').getByTestId('deny').click()
    await page.getByTestId('msg-assistant').filter({ hasText: 'Fetched https://evil.example.com/.' }).waitFor()
    await page.locator('[data-testid="tool-card"][data-tool="web_fetch"][data-state="denied"]').waitFor()
  })
})
