// Skills, commands and questions, end to end against the stand-in LLM: the system prompt lists the project's
// skills and use_skill reads one through the real backend; /review completes in the request box and its prompt
// file's body (with the arguments) is what the model gets; an ask_user with choices waits in the panel, and the
// choice clicked is the answer the model gets; a subagent's calls nest under its card and Stop ends it.
import { after, before, describe, test } from 'node:test'
import assert from 'node:assert/strict'
import { cleanupAll, screenshot } from './harness.mjs'
import { askAgent, newConversation, startAgentScenario } from './agent-scenario.mjs'
import { toolResults } from './fake-llm.mjs'

function script(req) {
  const ask = req.messages.find((m) => m.role === 'user')?.text ?? ''
  const results = toolResults(req)
  const last = results.at(-1)?.content ?? ''
  const system = req.messages.find((m) => m.role === 'system')?.text ?? ''
  if (system.includes('You are a subagent')) {
    // The subagent lists the project, then talks for a long time (the stand-in streams 6 characters each 5 ms).
    if (results.length === 0) return { tools: [{ name: 'list_directory', input: { path: 'src' } }] }
    return { text: `Found ${last.includes('a.go') ? 'a.go' : 'nothing'}. ${'Still looking. '.repeat(1500)}` }
  }
  if (ask.startsWith('survey with a helper')) {
    if (results.length === 0) return { tools: [{ name: 'spawn_agent', input: { label: 'survey src', task: 'List src and say what is there.' } }] }
    return { text: `The helper said: ${last.slice(0, 40)}` }
  }
  if (ask.startsWith('Review src/a.go')) return { text: 'Reviewed: no risks found.' }
  if (ask.startsWith('deploy it')) {
    if (results.length === 0) return { tools: [{ name: 'use_skill', input: { name: 'deploy' } }] }
    return { text: last.includes('Run make deploy-staging') ? 'Deploying as the skill says.' : `the skill said: ${last}` }
  }
  if (ask.startsWith('set up the database')) {
    if (results.length === 0) return { tools: [{ name: 'ask_user', input: { question: 'Which database should the tests use?', choices: ['sqlite', 'postgres'] } }] }
    return { text: `You chose: ${last}` }
  }
  return { text: 'unexpected request' }
}

describe('skills, commands and ask_user', { timeout: 600_000 }, () => {
  let page, llm

  before(async () => {
    ;({ page, llm } = await startAgentScenario({
      script,
      fixture: {
        name: 'skills',
        files: {
          'src/a.go': 'package a\n',
          '.agents/commands/review.md': '---\ndescription: Review a file for risks\nargument-hint: <path>\n---\nReview $ARGUMENTS: list the risks, worst first.\n',
          '.agents/skills/deploy/SKILL.md': '---\nname: deploy\ndescription: Deploy the service to staging\n---\nRun make deploy-staging, then check the health page.\n',
        },
      },
      provider: { id: 'scripted', name: 'scripted' },
    }))
  })

  after(cleanupAll)

  const requestsFor = (prefix) => llm.requests.filter((r) => r.messages.find((m) => m.role === 'user')?.text.startsWith(prefix))

  test('/rev completes to /review, and the prompt file with its arguments is what the model gets', async () => {
    await page.getByTestId('agent-send').waitFor()
    const input = page.getByTestId('agent-input')
    await input.click()
    await input.pressSequentially('/rev')
    await page.getByTestId('mention-option').filter({ hasText: 'review' }).waitFor()
    await input.press('Tab')
    assert.equal(await input.inputValue(), '/review ')
    await input.pressSequentially('src/a.go')
    await page.getByTestId('agent-send').click()
    await page.getByTestId('msg-assistant').filter({ hasText: 'Reviewed: no risks found.' }).waitFor()
    const req = requestsFor('Review src/a.go')[0]
    assert.ok(req, 'the model got the expanded command')
    assert.match(req.messages.find((m) => m.role === 'user').text, /^Review src\/a\.go: list the risks, worst first\./)
    // The conversation shows what was typed; the system prompt lists the skill.
    await page.getByTestId('msg-user').filter({ hasText: '/review src/a.go' }).waitFor()
    const system = req.messages.find((m) => m.role === 'system').text
    assert.match(system, /- deploy: Deploy the service to staging/)
  })

  test('use_skill reads the skill through the backend without asking', async () => {
    await newConversation(page)
    await askAgent(page, 'deploy it')
    await page.getByTestId('msg-assistant').filter({ hasText: 'Deploying as the skill says.' }).waitFor()
    await page.locator('[data-testid="tool-card"][data-tool="use_skill"][data-state="done"]').waitFor()
  })

  test('ask_user waits for a click on a choice, and the model gets that answer', async () => {
    await newConversation(page)
    await askAgent(page, 'set up the database for the tests')
    const card = page.locator('[data-testid="ask-user"][data-state="waiting"]')
    await card.getByTestId('ask-question').filter({ hasText: 'Which database should the tests use?' }).waitFor()
    const before = requestsFor('set up the database').length
    await screenshot(page, 'e2e-ask-user.png')
    await card.getByTestId('ask-choice').filter({ hasText: 'postgres' }).click()
    await page.getByTestId('msg-assistant').filter({ hasText: 'You chose' }).waitFor()
    const reqs = requestsFor('set up the database')
    assert.equal(before, 1, 'the turn waited for the answer')
    assert.match(toolResults(reqs.at(-1)).at(-1).content, /postgres/)
    await page.locator('[data-testid="ask-user"][data-state="done"]').getByTestId('ask-answer').filter({ hasText: 'postgres' }).waitFor()
  })

  test("a subagent's calls nest under its card, and Stop ends it", async () => {
    await newConversation(page)
    await askAgent(page, 'survey with a helper')
    const card = page.getByTestId('subagent-card')
    await card.waitFor()
    const id = await card.getAttribute('data-id')
    // Its list_directory ran without asking, as a child of the subagent's card.
    await page.locator(`[data-testid="subagent-child"][data-parent="${id}"] [data-testid="tool-card"][data-tool="list_directory"][data-state="done"]`).waitFor()
    const sub = () => llm.requests.filter((r) => (r.messages.find((m) => m.role === 'system')?.text ?? '').includes('You are a subagent')).length
    for (let i = 0; i < 100 && sub() < 2; i++) await new Promise((r) => setTimeout(r, 50))
    assert.equal(sub(), 2, 'the subagent is streaming its answer')
    await screenshot(page, 'e2e-subagent-running.png')
    await page.getByTestId('agent-stop').click()
    await page.locator('[data-testid="subagent-card"][data-finish="stopped"]').waitFor()
    await page.getByTestId('agent-send').waitFor()
    const after = sub()
    await new Promise((r) => setTimeout(r, 1000))
    assert.equal(sub(), after, 'no request of the subagent after Stop')
    // Nothing of the stopped turn reached the parent's model as the subagent's answer.
    assert.equal(llm.requests.filter((r) => r.messages.find((m) => m.role === 'user')?.text.startsWith('survey with a helper')).length, 1)
  })
})
