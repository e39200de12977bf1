// The app killed (SIGKILL) at seeded moments during a long scripted conversation, then started again on the same
// data folder: every change the backend had acknowledged is in the reopened conversation (a streamed answer at
// least as long as when it was acknowledged), and the conversation goes on.
import { after, before, describe, test } from 'node:test'
import assert from 'node:assert/strict'
import { setTimeout as sleep } from 'node:timers/promises'
import { cleanupAll, openProject, startDevApp } from './harness.mjs'
import { askAgent, startAgentScenario } from './agent-scenario.mjs'

// Each answer streams for a while (the stand-in sends a few characters every 5 ms), so kills land mid-answer too.
const answer = (ask) => `Answer to ${ask}: ${'words streaming in, '.repeat(25)}done.`
function script(req) {
  const ask = [...req.messages].reverse().find((m) => m.role === 'user')?.text ?? ''
  return { text: answer(ask) }
}

// mulberry32: the same moments on every run.
function seeded(seed) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

// acknowledge records, in the page, every item the backend acknowledged as saved (its last acknowledged form).
async function acknowledge(page) {
  await page.evaluate(() => {
    window.__acked = {}
    const agent = window.go.app.Agent
    const append = agent.AppendConversation
    agent.AppendConversation = async (root, id, events) => {
      const meta = await append(root, id, events)
      for (const e of JSON.parse(events)) if (e.t === 'item') window.__acked[e.i] = { id: e.item.id, kind: e.item.kind, text: e.item.text ?? '' }
      window.__ackedConv = id
      return meta
    }
  })
}

describe('a conversation killed mid-stream', { timeout: 900_000 }, () => {
  let page, fixture, app
  before(async () => {
    ;({ page, fixture, app } = await startAgentScenario({ script, fixture: { name: 'killed', files: { 'a.txt': 'a\n' } }, provider: { id: 'kill', name: 'Kill' } }))
  })
  after(cleanupAll)

  for (const seed of [2, 4, 7]) {
    test(`seed ${seed}: every acknowledged change survives the kill`, async (t) => {
      const rand = seeded(seed)
      await acknowledge(page)
      const requests = 3 + Math.floor(rand() * 5)
      for (let n = 1; n < requests; n++) {
        await askAgent(page, `request ${seed}.${n}`)
        await page.getByTestId('msg-assistant').filter({ hasText: `Answer to request ${seed}.${n}: ` }).last().waitFor()
        await page.getByTestId('agent-send').waitFor()
      }
      await askAgent(page, `request ${seed}.${requests}`)
      await sleep(Math.floor(rand() * 600)) // somewhere in the last answer's stream, or just after it
      const acked = await page.evaluate(() => ({ id: window.__ackedConv, items: window.__acked }))
      const pid = app.appPid()
      assert.ok(pid, 'the app process was not found')
      process.kill(pid, 'SIGKILL')
      t.diagnostic(`killed after ${requests} requests with ${Object.keys(acked.items).length} items acknowledged`)

      await app.stop()
      app = await startDevApp({ configHome: app.configHome, cacheHome: app.cacheHome, dataHome: app.dataHome })
      // A new page: the old one reloads itself when its server goes away.
      const browser = page.context()
      await page.close()
      page = await browser.newPage()
      await page.goto(app.url)
      await openProject(page, fixture)
      const stored = await page.evaluate(async (id) => JSON.parse(await window.go.app.Agent.LoadConversation((await window.go.app.Projects.Current()).id, id)).items, acked.id)
      for (const [i, want] of Object.entries(acked.items)) {
        const got = stored[Number(i)]
        assert.ok(got, `item ${i} (${want.kind}) was acknowledged and is gone`)
        assert.equal(got.id, want.id)
        assert.ok((got.text ?? '').startsWith(want.text), `item ${i} lost text: had ${want.text.length} characters, has ${(got.text ?? '').length}`)
      }
      // The conversation reopens from the list and goes on.
      await page.getByTestId('conversations-toggle').click()
      await page.locator(`[data-testid="conversation-item"][data-id="${acked.id}"]`).click()
      await page.getByTestId('msg-user').filter({ hasText: `request ${seed}.${requests - 1}` }).waitFor()
      await askAgent(page, `after ${seed}`)
      await page.getByTestId('msg-assistant').filter({ hasText: `Answer to after ${seed}: ` }).waitFor()
      await page.getByTestId('agent-send').waitFor()
      await page.getByTestId('new-conversation').click()
    })
  }
})
