// The prelude the agent scenarios share: the stand-in LLM playing a script, the real app served by `wails dev`, a
// browser page on a fixture project, and a provider pointing at the stand-in, chosen and shown in the panel.
import { startFakeLLM } from './fake-llm.mjs'
import { launchBrowser, makeFixture, onCleanup, openProject, startDevApp } from './harness.mjs'

// startAgentScenario starts everything; fixture.setup runs on the project folder before it opens (a git init).
// provider.path is added to the stand-in's URL to make the base URL ('/v1' by default; '' for Ollama's root).
// built (a folder harness.buildFrontend made) runs the page on that production build.
export async function startAgentScenario({ script, llmOptions, fixture, provider, built }) {
  const llm = await startFakeLLM(script, llmOptions)
  onCleanup(() => llm.close())
  const app = await startDevApp({}, { built })
  const browser = await launchBrowser()
  const page = await browser.newPage()
  // An error thrown in the window (a render that crashed the panel) is in the test's output, not only its effect;
  // the dev server's own IPC script throws on every page load in a plain browser, which is left out.
  page.on('pageerror', (e) => {
    if (!String(e.stack).includes('/wails/ipc.js')) console.error(`page error: ${e.stack ?? e}`)
  })
  const dir = makeFixture(fixture.name, fixture.files)
  fixture.setup?.(dir)
  await page.goto(app.url)
  await openProject(page, dir)
  const { path = '/v1', ...rest } = provider
  await useProvider(page, { kind: 'openai-compatible', model: 'scripted', ...rest, base_url: `${llm.url}${path}` })
  return { app, page, fixture: dir, llm }
}

// useProvider saves a provider through the app's bound method, makes it (and its model) the active one, reloads
// and waits until the panel names it.
export async function useProvider(page, p) {
  await page.evaluate(async (p) => {
    await window.go.app.Agent.SaveProvider({ api_key: '', clear_key: false, context_window: 0, price: null, ...p })
    await window.go.app.Agent.SetActive(p.id, p.model)
  }, p)
  await page.reload()
  await page.getByTestId('agent-model').filter({ hasText: `${p.name} · ${p.model}` }).waitFor()
}

// askAgent types a request and sends it once the panel is ready for one.
export async function askAgent(page, text) {
  await page.getByTestId('agent-send').waitFor()
  await page.getByTestId('agent-input').fill(text)
  await page.getByTestId('agent-send').click()
}

// newConversation starts a new conversation once the one in view is idle. New itself does not wait for a turn to
// end (the running conversation goes on beside the new one); a scenario of one conversation at a time waits, so its
// page holds one conversation's pane.
export async function newConversation(page) {
  await page.getByTestId('agent-send').waitFor()
  await page.getByTestId('new-conversation').click()
}
