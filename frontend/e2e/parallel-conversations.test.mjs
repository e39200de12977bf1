// Conversations of one project run at once: a long one (a slow command again and again) goes on while a quick one
// is asked, approved and finishes beside it. Each keeps its own approvals and cards: Enter in the one in view
// approves only its call, the other's waits (the list, the rail and the window's title say so); Stop in one leaves
// the other running; one that finishes out of sight says so (its dot, the window's title) until it is looked at.
import { after, before, describe, test } from 'node:test'
import assert from 'node:assert/strict'
import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { cleanupAll, screenshot, until } from './harness.mjs'
import { startAgentScenario } from './agent-scenario.mjs'

// The conversation a request belongs to is named by its first request; results are the tool results since it.
function conversation(req) {
  const users = req.messages.filter((m) => m.role === 'user')
  const first = users[0]?.text ?? ''
  const results = req.messages.filter((m) => m.role === 'tool').flatMap((m) => m.toolResults)
  return { first, results }
}

const slow = { name: 'exec_shell', input: { command: 'node slow.js' } }

// long loop: a slow command, an edit that waits for approval, then slow commands until it is stopped.
// quick: an edit that waits for approval, then a reply. second loop: slow commands until it is stopped. one slow
// step: a slow command, then a reply.
function script(req) {
  const { first, results } = conversation(req)
  if (first.includes('long loop')) {
    if (results.length === 1) return { tools: [{ name: 'write_file', input: { path: 'long.txt', content: 'written by the long conversation\n' } }] }
    return { tools: [slow] }
  }
  if (first.includes('quick')) {
    if (results.length === 0) return { tools: [{ name: 'write_file', input: { path: 'quick.txt', content: 'written by the quick conversation\n' } }] }
    return { text: 'Quick finished.' }
  }
  if (first.includes('second loop')) return { tools: [slow] }
  if (first.includes('one slow step')) return results.length === 0 ? { tools: [slow] } : { text: 'The slow step is done.' }
  return { text: 'ok' }
}

describe('conversations at once in one project', { timeout: 600_000 }, () => {
  let page, fixture, llm

  before(async () => {
    ;({ page, fixture, llm } = await startAgentScenario({
      script,
      fixture: { name: 'parallel', files: { 'notes.txt': 'notes\n', 'slow.js': "setTimeout(() => console.log('slow done'), 1500)\n" } },
      provider: { id: 'scripted', name: 'Scripted' },
    }))
    await page.evaluate(async () => {
      const { id } = await window.go.app.Projects.Current()
      await window.go.app.Permissions.AddRule(id, { action: 'allow', tool: 'exec_shell', command: 'node slow.js' })
    })
  })
  after(cleanupAll)

  const pane = () => page.locator('[data-testid="conversation-pane"]:not([hidden])')
  const live = (title) => page.getByTestId('live-conversation').filter({ hasText: title })
  const rail = (state) => page.locator(`[data-testid="project-strip-agent"][data-state="${state}"]`)
  // The requests the stand-in got for a conversation, by its first request.
  const asked = (first) => llm.requests.filter((r) => JSON.stringify(r).includes(first)).length
  const ask = async (text) => {
    await pane().getByTestId('agent-send').waitFor()
    await pane().getByTestId('agent-input').fill(text)
    await pane().getByTestId('agent-send').click()
  }

  test('a second conversation starts while the first waits, and finishes beside it with its own approval', async () => {
    await ask('long loop: keep the build warm')
    await pane().locator('[data-testid="tool-card"][data-tool="exec_shell"]').first().waitFor()
    await pane().getByTestId('approve-once').waitFor({ timeout: 30_000 }) // its edit waits for approval
    // New does not refuse while the long one's turn is on: a second pane is shown, the long one's card out of sight.
    await pane().getByTestId('new-conversation').click()
    await pane().getByTestId('conversation-title').filter({ hasText: 'New conversation' }).waitFor()
    await ask('quick: write the quick file')
    await pane().getByTestId('approve-once').waitFor()

    // The long one waits out of sight, said in the strip, the rail and the window's title.
    await live('long loop').and(page.locator('[data-state="waiting"]')).waitFor()
    await rail('waiting').waitFor()
    await page.waitForFunction(() => document.title.includes('long loop: keep the build warm: Needs approval'))
    await screenshot(page, 'e2e-parallel-conversations-two-waiting.png')
    assert.equal(await pane().getByTestId('approval').count(), 1, 'the pane in view shows only its own approval')

    // Enter approves the call in view, the quick one's; the long one's still waits.
    await pane().getByTestId('agent-input').focus()
    await page.keyboard.press('Enter')
    await pane().getByTestId('msg-assistant').filter({ hasText: 'Quick finished.' }).waitFor({ timeout: 30_000 })
    assert.equal(readFileSync(path.join(fixture, 'quick.txt'), 'utf8'), 'written by the quick conversation\n')
    assert.equal(existsSync(path.join(fixture, 'long.txt')), false, "Enter in the quick conversation approved the long one's edit")
    assert.equal(await live('long loop').getAttribute('data-state'), 'waiting')
    assert.equal(await pane().locator('[data-testid="tool-card"][data-tool="exec_shell"]').count(), 0, "the long conversation's commands are not in the quick one's log")
  })

  test("back in the long conversation, its card is there to approve and it goes on", async () => {
    await live('long loop').click()
    await pane().getByTestId('conversation-title').filter({ hasText: 'long loop' }).waitFor()
    assert.equal(await pane().getByTestId('msg-assistant').filter({ hasText: 'Quick finished.' }).count(), 0, "the quick conversation's answer is not in the long one's log")
    await pane().getByTestId('approve-once').click()
    await pane().locator('[data-testid="tool-card"][data-tool="write_file"][data-state="done"]').waitFor()
    assert.equal(readFileSync(path.join(fixture, 'long.txt'), 'utf8'), 'written by the long conversation\n')
    await rail('working').waitFor()
    // The list says which conversation works and which is done.
    await pane().getByTestId('conversations-toggle').click()
    const row = (t) => page.getByTestId('conversation-row').filter({ hasText: t })
    await row('long loop').and(page.locator('[data-state="working"]')).waitFor()
    assert.notEqual(await row('quick').getAttribute('data-state'), 'working')
    assert.equal(await row('long loop').getByTestId('conversation-delete').isDisabled(), true, 'a running conversation is stopped before it is deleted')
    await pane().getByTestId('conversations-toggle').click()
  })

  test('Stop in one conversation leaves the other running', async () => {
    await pane().getByTestId('new-conversation').click()
    await pane().getByTestId('conversation-title').filter({ hasText: 'New conversation' }).waitFor()
    await ask('second loop: watch the tests')
    await pane().locator('[data-testid="tool-card"][data-tool="exec_shell"]').first().waitFor()
    // The list of conversations at work is made from what each pane reports of itself, in an effect after it renders.
    await until(
      () => page.getByTestId('live-conversation').count(),
      (n) => assert.equal(n, 2, 'the long conversation and this one are at work; the quick one, done and seen, is closed'),
    )
    await pane().getByTestId('agent-stop').click()
    await pane().getByTestId('agent-send').waitFor()
    const second = asked('second loop')
    const long = asked('long loop')
    // Two slow commands' time later, the long conversation has asked the model again; the stopped one has not.
    await new Promise((r) => setTimeout(r, 4000))
    assert.equal(asked('second loop'), second, 'the stopped conversation went on')
    assert.ok(asked('long loop') > long, `the long conversation stopped with the other (${asked('long loop')} requests, ${long} before)`)
    assert.equal(await live('long loop').getAttribute('data-state'), 'working')
    await screenshot(page, 'e2e-parallel-conversations-stopped-one.png')

    // Stop there too, and nothing runs.
    await live('long loop').click()
    await pane().getByTestId('agent-stop').click()
    await pane().getByTestId('agent-send').waitFor()
    await rail('working').waitFor({ state: 'detached' })
  })

  test('a conversation that finishes out of sight says so until it is looked at', async () => {
    await pane().getByTestId('new-conversation').click()
    await pane().getByTestId('conversation-title').filter({ hasText: 'New conversation' }).waitFor()
    await ask('one slow step, then answer')
    await pane().locator('[data-testid="tool-card"][data-tool="exec_shell"]').first().waitFor()
    await pane().getByTestId('new-conversation').click()
    await pane().getByTestId('conversation-title').filter({ hasText: 'New conversation' }).waitFor()
    await live('one slow step').and(page.locator('[data-state="done"]')).waitFor({ timeout: 30_000 })
    await page.waitForFunction(() => document.title.includes('one slow step, then answer: Finished'))
    await live('one slow step').click()
    await pane().getByTestId('msg-assistant').filter({ hasText: 'The slow step is done.' }).waitFor()
    // Looked at, its news is read: the strip goes with the other conversation (new, empty, closed).
    await page.getByTestId('live-conversations').waitFor({ state: 'detached' })
    assert.equal(await page.getByTestId('conversation-pane').count(), 1)
  })
})
