// Ollama through its own API, end to end against the real UI and backend with the stand-in speaking Ollama's
// protocol: the window read from /api/show is in the footer before the first request and goes with every /api/chat
// as options.num_ctx; the model reads a file as numbered lines; a price set in Settings puts money in the footer;
// the step limit set in Settings lands in settings.json.
import { after, before, describe, test } from 'node:test'
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { cleanupAll, screenshot } from './harness.mjs'
import { toolResults } from './fake-llm.mjs'
import { askAgent, newConversation, startAgentScenario } from './agent-scenario.mjs'

// What /api/show says of the model: trained for 12,288 tokens, no num_ctx in its parameters.
const show = { parameters: 'stop "<|eot_id|>"\ntemperature 0.2', model_info: { 'general.architecture': 'llama', 'llama.context_length': 12288, 'llama.embedding_length': 4096 } }

function script(req) {
  const ask = req.messages.find((m) => m.role === 'user')?.text ?? ''
  const results = toolResults(req)
  if (ask.startsWith('read main.go')) {
    if (results.length === 0) return { tools: [{ name: 'read_file', input: { path: 'main.go' } }] }
    return { text: `Read ${results[0].content.split('\n').length} lines.` }
  }
  return { text: 'ok' }
}

// formatCost is the panel's: four decimals under a dollar.
const formatCost = (usd) => (usd < 0.0001 ? '<$0.0001' : usd < 1 ? `$${usd.toFixed(4)}` : `$${usd.toFixed(2)}`)

describe('Ollama through its own API', { timeout: 600_000 }, () => {
  let page, llm, app

  before(async () => {
    ;({ page, llm, app } = await startAgentScenario({
      script,
      llmOptions: { ollamaShow: show },
      fixture: { name: 'ollama', files: { 'main.go': 'package main\n\nfunc main() {\n\tprintln("hi")\n}\n' } },
      provider: { id: 'local', name: 'Local', kind: 'ollama', path: '' },
    }))
  })

  after(cleanupAll)

  test('the window from /api/show is in the footer at once and every request carries it as num_ctx; reads reach the model as numbered lines', async () => {
    await page.getByTestId('agent-context').filter({ hasText: /^context 12k$/ }).waitFor()
    assert.ok(llm.shows.length > 0 && llm.shows.every((m) => m === 'scripted'), `/api/show asked about ${llm.shows}`)
    const asked = llm.shows.length // once per page load (the scenario's set-up reloads)
    await askAgent(page, 'read main.go')
    await page.getByTestId('msg-assistant').filter({ hasText: 'Read 6 lines.' }).waitFor()
    const chats = llm.requests.filter((r) => r.protocol === 'ollama')
    assert.equal(chats.length, 2)
    for (const r of chats) {
      assert.equal(r.body.options?.num_ctx, 12288, 'num_ctx is the window /api/show gave')
      assert.equal(r.body.model, 'scripted')
      assert.equal(r.body.stream, true)
    }
    // What the task cost the model: its steps and each request's size (the stand-in's count of the messages, four
    // characters a token, system prompt included) with the tool schemas on top.
    const schemas = Math.ceil(JSON.stringify(chats[0].body.tools).length / 4)
    console.log(`task "read main.go": ${chats.length} requests, prompts of ${chats.map((r) => r.tokens).join(' and ')} tokens plus ${schemas} of tool schemas (${chats[0].body.tools.length} tools), num_ctx ${chats[0].body.options.num_ctx}`)
    const read = toolResults(chats[1])[0].content
    assert.match(read, /^1\tpackage main$/m)
    assert.match(read, /^4\t\tprintln\("hi"\)$/m)
    // After the request the footer says how full that same window was, by Ollama's count.
    assert.match(await page.getByTestId('agent-context').innerText(), /^context \S+ \/ 12k \(\d+%\)$/)
    // Ollama reports no cost and no price is set: no money is shown.
    assert.equal(await page.getByTestId('agent-cost').count(), 0)
    assert.equal(llm.shows.length, asked, 'the requests reuse the window /api/show gave rather than asking again')
  })

  test('a price set in Settings puts the cost of each request and of the conversation in the footer', async () => {
    await page.getByTestId('open-settings').click()
    await page.locator('[data-testid="provider"][data-id="local"]').getByRole('button', { name: 'Edit' }).click()
    // A price half given is not saved: it needs both, and says so beside the form.
    await page.getByTestId('provider-price-input').fill('2')
    await page.getByTestId('provider-form-error').filter({ hasText: 'a price needs both input and output' }).waitFor()
    await page.getByTestId('provider-price-output').fill('10')
    await page.getByTestId('provider-form-saved').waitFor()
    await page.getByTestId('settings-saved').filter({ hasText: 'saved' }).waitFor()
    await page.getByTestId('settings-close').click()
    await newConversation(page)
    const from = llm.requests.length
    await askAgent(page, 'say something')
    await page.getByTestId('msg-assistant').filter({ hasText: 'ok' }).waitFor()
    await askAgent(page, 'read main.go again')
    await page.getByTestId('msg-assistant').filter({ hasText: 'ok' }).nth(1).waitFor()
    const reqs = llm.requests.slice(from)
    assert.equal(reqs.length, 2)
    // The stand-in counts each request's prompt (Ollama's prompt_eval_count) and answers 10 tokens.
    const costOf = (r) => (r.tokens * 2 + 10 * 10) / 1e6
    const total = reqs.reduce((sum, r) => sum + costOf(r), 0)
    const cost = page.getByTestId('agent-cost')
    await cost.filter({ hasText: formatCost(total) }).waitFor()
    assert.equal((await cost.getByTestId('agent-cost-last').innerText()).trim(), `(last ${formatCost(costOf(reqs[1]))})`)
    const file = JSON.parse(readFileSync(path.join(app.configHome, 'rooted', 'providers.json'), 'utf8'))
    assert.deepEqual(file.providers.find((p) => p.id === 'local').prices, { scripted: { input: 2, output: 10 } })
    await screenshot(page, 'e2e-ollama-footer.png')
  })

  test('the step limit set in Settings is kept in settings.json and shown under the request box', async () => {
    assert.equal(await page.getByTestId('agent-step-limit').inputValue(), '100')
    await page.getByTestId('open-settings').click()
    const box = page.getByTestId('settings-step-limit')
    // Settings opens at once and fills its fields as the saved settings arrive: wait for the value, then check it.
    await page
      .waitForFunction(() => document.querySelector('[data-testid="settings-step-limit"]')?.value !== '', null, { timeout: 10_000 })
      .catch(() => undefined)
    assert.equal(await box.inputValue(), '100')
    await box.fill('7')
    await page.getByTestId('settings-saved').filter({ hasText: 'after 7 steps' }).waitFor()
    await page.getByTestId('settings-close').click()
    await page.waitForFunction(() => document.querySelector('[data-testid="agent-step-limit"]')?.value === '7')
    const settings = JSON.parse(readFileSync(path.join(app.configHome, 'rooted', 'settings.json'), 'utf8'))
    assert.equal(settings.user.step_limit, 7)
  })
})
