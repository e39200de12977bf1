// The first run, as a newcomer meets it: a fresh home (no providers file, so the default local Ollama), nothing
// listening on :11434, and a request typed before anything is set up. The panel names the problem with Retry and
// Add a provider, Send is off with the reason, the typed text stays; a preset, its address and Test connection
// (before anything is saved) make the stand-in LLM the provider, and the request is answered. The interactions
// and the seconds from the window's first paint to the first answer are printed.
import { after, before, describe, test } from 'node:test'
import assert from 'node:assert/strict'
import { cleanupAll, launchBrowser, makeFixture, onCleanup, openProject, screenshot, startDevApp } from './harness.mjs'
import { startFakeLLM } from './fake-llm.mjs'

describe('first run', { timeout: 600_000 }, () => {
  let page, llm

  before(async () => {
    llm = await startFakeLLM(() => ({ text: 'Hello! I can see the project.' }))
    onCleanup(() => llm.close())
    const app = await startDevApp()
    const browser = await launchBrowser()
    page = await browser.newPage()
    await page.goto(app.url)
    await openProject(page, makeFixture('proj', { 'main.go': 'package main\n\nfunc main() {}\n' }))
  })

  after(cleanupAll)

  test('from a fresh home with nothing on :11434 to a first answer in four interactions', async () => {
    const started = Date.now()
    let interactions = 0
    const click = async (locator) => {
      interactions++
      await locator.click()
    }
    const typeAndEnter = async (locator, text) => {
      interactions++
      await locator.fill(text)
      await locator.press('Enter')
    }

    // The problem in words, Retry and Add a provider; Send off with the reason.
    const problem = page.getByTestId('setup-problem')
    await problem.filter({ hasText: "Ollama isn't running at http://localhost:11434" }).waitFor()
    await page.getByTestId('setup-retry').waitFor()
    const input = page.getByTestId('agent-input')
    await input.fill('say hello')
    await input.press('Enter')
    assert.equal(await input.inputValue(), 'say hello', 'Enter with no provider keeps the typed request')
    assert.ok(await page.getByTestId('agent-send').isDisabled(), 'Send is off')
    assert.match(await page.getByTestId('send-blocked').innerText(), /Send is off: Ollama isn't running at http:\/\/localhost:11434/)
    await screenshot(page, 'e2e-first-run-problem.png')

    // Retry asks again, and says the same while nothing listens.
    await page.getByTestId('setup-retry').click()
    await problem.filter({ hasText: "Ollama isn't running" }).waitFor()

    // A wrong address first: Test connection says what is wrong, and nothing is saved.
    const setupStart = Date.now()
    await click(page.getByTestId('setup-add'))
    assert.deepEqual(await page.getByTestId('setup-preset').allInnerTexts(), ['Anthropic', 'OpenAI', 'OpenRouter', 'Ollama', 'Other (OpenAI-compatible)'])
    await click(page.locator('[data-testid="setup-preset"][data-preset="custom"]'))
    const detourStart = Date.now()
    await page.getByTestId('setup-url').fill(`${llm.url}/nope`)
    await page.getByTestId('setup-test').click()
    await page.getByTestId('setup-test-problem').filter({ hasText: 'has no model list (HTTP 404)' }).waitFor()
    assert.deepEqual((await page.evaluate(() => window.go.app.Agent.Providers())).providers.map((p) => p.id), ['ollama'])
    await screenshot(page, 'e2e-first-run-add.png')
    const detour = Date.now() - detourStart // the wrong address is the test's detour, not a newcomer's step

    // The right address and Enter: tested, saved with its first model, made the default; the request is sent.
    await typeAndEnter(page.getByTestId('setup-url'), `${llm.url}/v1`)
    await page.getByTestId('setup-card').waitFor({ state: 'detached' })
    const view = await page.evaluate(() => window.go.app.Agent.Providers())
    const added = view.providers.find((p) => p.id === view.active)
    assert.equal(added.base_url, `${llm.url}/v1`)
    assert.equal(added.model, 'scripted')
    assert.equal(await input.inputValue(), 'say hello', 'the request typed before setting up is still there')
    assert.ok(await input.evaluate((el) => el === document.activeElement), 'the request box has the focus again')
    interactions++
    await input.press('Enter')
    await page.getByTestId('msg-assistant').filter({ hasText: 'Hello! I can see the project.' }).waitFor()
    const seconds = (Date.now() - setupStart - detour) / 1000
    console.log(`first run: ${interactions} interactions, ${seconds.toFixed(1)} s from Add a provider to the first answer (the window was up ${((setupStart - started) / 1000).toFixed(1)} s before, showing the problem)`)
    assert.ok(interactions <= 4, `${interactions} interactions`)
    await screenshot(page, 'e2e-first-run-answer.png')
  })
})
