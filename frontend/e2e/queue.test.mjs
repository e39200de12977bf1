// Queue and steer: Enter while the agent works queues the message (shown, editable, removable); by default the
// model gets it at its next step as "Sent while you worked: …"; chosen as the next request, it starts the next turn
// when this one ends; Stop puts what is queued back in the request box.
import { after, before, describe, test } from 'node:test'
import assert from 'node:assert/strict'
import { cleanupAll, screenshot } from './harness.mjs'
import { askAgent, startAgentScenario } from './agent-scenario.mjs'

// Each request: read the file, then patch it (an approval, where the turn waits while the user types), then done.
function script(req) {
  const user = req.messages.filter((m) => m.role === 'user').at(-1)?.text ?? ''
  const first = req.messages.filter((m) => m.role === 'user').findLast((m) => !m.text.startsWith('Sent while you worked'))?.text ?? ''
  const results = req.messages.slice(req.messages.findLastIndex((m) => m.role === 'user' && !m.text.startsWith('Sent while you worked')) + 1).filter((m) => m.role === 'tool')
  if (/^(edit|again|third)/.test(first)) {
    if (results.length === 0) return { tools: [{ name: 'read_file', input: { path: 'notes.txt' } }] }
    if (results.length === 1) return { tools: [{ name: 'patch_file', input: { path: 'notes.txt', search: 'one', replace: `one (${first})` } }] }
    return { text: `Finished ${first}; last I heard: ${user}` }
  }
  return { text: `Answered: ${user}` }
}

describe('queue and steer', { timeout: 600_000 }, () => {
  let page, llm

  before(async () => {
    ;({ page, llm } = await startAgentScenario({
      script,
      fixture: { name: 'queue', files: { 'notes.txt': 'one\n' } },
      provider: { id: 'scripted', name: 'Scripted' },
    }))
  })

  after(cleanupAll)

  const waitingPatch = () => page.locator('[data-testid="tool-card"][data-tool="patch_file"][data-state="waiting"]')

  test('a message queued during step 2 is in the model request 3', async () => {
    await askAgent(page, 'edit the notes')
    await waitingPatch().waitFor()
    assert.equal(llm.requests.length, 2, 'the turn is at its second step')
    const input = page.getByTestId('agent-input')
    await input.fill('use tabs, not spaces')
    await input.press('Enter')
    const queued = page.getByTestId('queued-message')
    await queued.waitFor()
    assert.equal(await input.inputValue(), '', 'the box is free for the next one')
    // Editable and removable: a second message is removed, the first edited.
    await input.fill('never mind this')
    await input.press('Enter')
    assert.equal(await queued.count(), 2)
    await queued.nth(1).getByTestId('queued-remove').click()
    assert.equal(await queued.count(), 1)
    await queued.getByTestId('queued-text').fill('use tabs, not two spaces')
    await screenshot(page, 'e2e-queue-pending.png')

    await waitingPatch().getByTestId('approve-once').click()
    await page.getByTestId('msg-assistant').filter({ hasText: 'Finished edit the notes' }).waitFor()
    const third = llm.requests[2]
    const users = third.messages.filter((m) => m.role === 'user').map((m) => m.text)
    assert.equal(users.at(-1), 'Sent while you worked: use tabs, not two spaces')
    assert.ok(!llm.requests[1].messages.some((m) => m.text?.includes('use tabs')), 'request 2 was sent before it was typed')
    assert.equal(await queued.count(), 0)
    await page.getByTestId('msg-steer').filter({ hasText: 'use tabs, not two spaces' }).waitFor()
    assert.equal(llm.requests.length, 3, 'given at the step, it starts no other request')
  })

  test('chosen as the next request, it starts the next turn when this one ends', async () => {
    const before = llm.requests.length
    await askAgent(page, 'again please')
    await waitingPatch().waitFor()
    await page.getByTestId('agent-input').fill('now summarise')
    await page.getByTestId('agent-input').press('Enter')
    await page.getByTestId('queued-mode').selectOption('next')
    await waitingPatch().getByTestId('approve-once').click()
    await page.getByTestId('msg-assistant').filter({ hasText: 'Answered: now summarise' }).waitFor()
    const sent = llm.requests.slice(before)
    assert.equal(sent.length, 4, 'three steps of the turn, then the queued request')
    assert.ok(!sent.slice(0, 3).some((r) => JSON.stringify(r.messages).includes('now summarise')), 'the turn did not hear of it')
    assert.equal(sent[3].messages.filter((m) => m.role === 'user').at(-1).text, 'now summarise')
    await page.getByTestId('msg-user').filter({ hasText: 'now summarise' }).waitFor()
  })

  test('Stop puts what is queued back in the box', async () => {
    const before = llm.requests.length
    await askAgent(page, 'third time')
    await waitingPatch().waitFor()
    await page.getByTestId('agent-input').fill('and also this')
    await page.getByTestId('agent-input').press('Enter')
    await page.getByTestId('queued-message').waitFor()
    await page.getByTestId('agent-input').fill('half typed')
    await page.getByTestId('agent-stop').click()
    await page.getByTestId('agent-send').waitFor()
    assert.equal(await page.getByTestId('agent-input').inputValue(), 'half typed\n\nand also this')
    assert.equal(await page.getByTestId('queued-message').count(), 0)
    assert.equal(llm.requests.length, before + 2, 'nothing was sent after Stop')
  })
})
