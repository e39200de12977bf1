// Skills, commands and questions, end to end against the stand-in LLM: the system prompt lists the project's
// skills and use_skill reads one through the real backend; /review completes in the request box and its prompt
// file's body (with the arguments) is what the model gets; an ask_user with choices waits in the panel, and the
// choice clicked is the answer the model gets.
import { after, before, describe, test } from 'node:test'
import assert from 'node:assert/strict'
import { cleanupAll, screenshot } from './harness.mjs'
import { askAgent, startAgentScenario } from './agent-scenario.mjs'
import { toolResults } from './fake-llm.mjs'

function script(req) {
  const ask = req.messages.find((m) => m.role === 'user')?.text ?? ''
  const results = toolResults(req)
  const last = results.at(-1)?.content ?? ''
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
    await page.getByTestId('new-conversation').click()
    await askAgent(page, 'deploy it')
    await page.getByTestId('msg-assistant').filter({ hasText: 'Deploying as the skill says.' }).waitFor()
    await page.locator('[data-testid="tool-card"][data-tool="use_skill"][data-state="done"]').waitFor()
  })

  test('ask_user waits for a click on a choice, and the model gets that answer', async () => {
    await page.getByTestId('new-conversation').click()
    await askAgent(page, 'set up the database for the tests')
    const card = page.locator('[data-testid="ask-user"][data-state="waiting"]')
    await card.getByTestId('ask-question').filter({ hasText: 'Which database should the tests use?' }).waitFor()
    const before = requestsFor('set up the database').length
    await screenshot(page, 'ask-user')
    await card.getByTestId('ask-choice').filter({ hasText: 'postgres' }).click()
    await page.getByTestId('msg-assistant').filter({ hasText: 'You chose' }).waitFor()
    const reqs = requestsFor('set up the database')
    assert.equal(before, 1, 'the turn waited for the answer')
    assert.match(toolResults(reqs.at(-1)).at(-1).content, /postgres/)
    await page.locator('[data-testid="ask-user"][data-state="done"]').getByTestId('ask-answer').filter({ hasText: 'postgres' }).waitFor()
  })
})
