// A working day with the agent, end to end against the real UI and backend, with the stand-in LLM: project
// instructions in the system prompt, a plan kept live, Markdown answers, a huge tool result capped for the model
// but whole in the card, an @mention attaching a file, the user's own edit saved and then the agent's stale edit
// refused, and a conversation pushed past a small context window that is compacted and carries on.
import { after, before, describe, test } from 'node:test'
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { cleanupAll, screenshot, until } from './harness.mjs'
import { toolResults } from './fake-llm.mjs'
import { askAgent, startAgentScenario } from './agent-scenario.mjs'

const summaryAsk = 'Summarise the conversation so far'
const big = `BIG-HEAD\n${'0123456789abcdef '.repeat(6000)}\nBIG-TAIL\n`

// lastUser is the text of the request's latest user message: the scenario being played.
const lastUser = (req) => [...req.messages].reverse().find((m) => m.role === 'user')?.text ?? ''
// since is what happened after the latest user message: the results of this turn's tool calls.
function since(req) {
  const i = req.messages.findLastIndex((m) => m.role === 'user')
  return req.messages.slice(i + 1).filter((m) => m.role === 'tool').flatMap((m) => m.toolResults)
}

function script(req) {
  const ask = lastUser(req)
  const results = since(req)
  if (ask.includes(summaryAsk)) return { text: 'SUMMARY: the user is chatting about long topics; nothing is pending.' }
  if (ask.startsWith('plan')) {
    if (results.length === 0) return { tools: [{ name: 'update_plan', input: { plan: [{ step: 'Look around', status: 'in_progress' }, { step: 'Write the table', status: 'pending' }] } }] }
    if (results.length === 1) return { tools: [{ name: 'update_plan', input: { plan: [{ step: 'Look around', status: 'done' }, { step: 'Write the table', status: 'in_progress' }] } }] }
    return { text: '## Results\n\n| file | lines |\n| --- | --- |\n| calc.go | 5 |\n\n- first point\n- second point\n\n```go\nfunc Add(a, b int) int { return a + b }\n```\n\nSee [the docs](https://example.com/docs).' }
  }
  if (ask.startsWith('read the big file')) {
    if (results.length === 0) return { tools: [{ name: 'read_file', input: { path: 'big.txt' } }] }
    return { text: `I got ${results[0].content.length} characters.` }
  }
  if (ask.startsWith('what do these lines do')) {
    const m = /<file path="(calc\.go:\d+-\d+)">\n([\s\S]*?)\n<\/file>/.exec(ask)
    return { text: m ? `Lines ${m[1]} say: ${m[2].split('\n').map((l) => l.trim()).filter(Boolean).join(' / ')}` : 'No lines were attached.' }
  }
  if (ask.startsWith('explain')) return { text: ask.includes('<file path="notes.txt">') && ask.includes('keep me') ? 'The attached notes say: keep me.' : 'No file was attached.' }
  if (ask.startsWith('look at calc.go')) {
    if (results.length === 0) return { tools: [{ name: 'read_file', input: { path: 'calc.go' } }] }
    return { text: 'I read calc.go.' }
  }
  if (ask.startsWith('now rename Add')) {
    if (results.length === 0) return { tools: [{ name: 'patch_file', input: { path: 'calc.go', search: 'func Add', replace: 'func Sum' } }] }
    return { text: `The patch came back: ${results[0].content}` }
  }
  return { text: `Noted (${ask.length} characters).` }
}

describe('agent, a working day', { timeout: 600_000 }, () => {
  let page, fixture, llm

  before(async () => {
    ;({ page, fixture, llm } = await startAgentScenario({
      script,
      fixture: {
        name: 'day',
        files: {
          'AGENTS.md': '# House rules\n\nAlways run go vet before finishing.\n',
          'calc.go': 'package calc\n\nfunc Add(a, b int) int {\n\treturn a + b\n}\n',
          'notes.txt': 'keep me\n',
          'big.txt': big,
        },
      },
      provider: { id: 'day', name: 'Day' },
    }))
  })

  after(cleanupAll)

  const ask = (text) => askAgent(page, text)

  test('AGENTS.md goes into the system prompt and the panel says it was loaded; the plan updates live; Markdown renders as elements', async () => {
    await page.getByTestId('agent-instructions').filter({ hasText: 'AGENTS.md' }).waitFor()
    await ask('plan a small table')
    await page.locator('[data-testid="plan-step"][data-status="done"]', { hasText: 'Look around' }).waitFor()
    assert.equal(await page.locator('[data-testid="plan-step"][data-status="in_progress"]').innerText(), '▸ Write the table')
    // The answer streams in: its last words (the link, once whole) say all of it has arrived.
    const answer = page.getByTestId('msg-assistant').filter({ hasText: 'See the docs.' })
    await answer.waitFor()
    assert.ok(llm.requests[0].messages[0].text.includes('Always run go vet before finishing.'), 'AGENTS.md is in the system prompt')
    assert.equal(await answer.locator('table th').first().innerText(), 'file')
    assert.equal(await answer.locator('table td').first().innerText(), 'calc.go')
    assert.equal(await answer.locator('li').count(), 2)
    assert.equal(await answer.locator('h2').innerText(), 'Results')
    const code = answer.getByTestId('code-block')
    assert.equal(await code.getAttribute('data-lang'), 'go')
    await code.locator('.tok-keyword').first().waitFor() // highlighted by the Go grammar
    assert.ok(await code.getByTestId('code-copy').isVisible())
    // A link does not navigate the app's own web view.
    const before = page.url()
    await answer.getByTestId('md-link').click()
    assert.equal(page.url(), before)
    // The plan's tool calls are not cards in the log: the plan above shows them.
    assert.equal(await page.locator('[data-testid="tool-card"][data-tool="update_plan"]').count(), 0)
    await screenshot(page, 'e2e-agent-day-markdown.png')
  })

  test('a huge tool result goes to the model capped, with a note, while the card shows all of it', async () => {
    await ask('read the big file')
    await page.getByTestId('msg-assistant').filter({ hasText: 'I got' }).waitFor()
    const sent = toolResults(llm.requests.at(-1)).at(-1).content
    assert.ok(sent.length < 31_000, `the model got ${sent.length} characters`)
    assert.match(sent, /BIG-HEAD/)
    assert.match(sent, /BIG-TAIL/)
    assert.match(sent, /were left out\. To see them, read a line range with offset and limit/)
    const card = page.locator('[data-testid="tool-card"][data-tool="read_file"]').last()
    await card.getByTestId('tool-result-toggle').click()
    const shown = await card.getByTestId('tool-result').textContent()
    assert.ok(shown.startsWith('BIG-HEAD') && shown.includes('BIG-TAIL') && shown.length >= big.length - 1, `the card shows ${shown.length} of ${big.length} characters`)
  })

  test('typing @ completes project paths, and the mentioned file goes with the request', async () => {
    await page.getByTestId('agent-send').waitFor()
    const input = page.getByTestId('agent-input')
    await input.fill('')
    await input.pressSequentially('explain @note')
    await page.getByTestId('mention-option').filter({ hasText: 'notes.txt' }).waitFor()
    await input.press('Enter') // picks the completion
    assert.equal(await input.inputValue(), 'explain @notes.txt ')
    await input.press('Enter') // sends
    await page.getByTestId('msg-assistant').filter({ hasText: 'The attached notes say: keep me.' }).waitFor()
    assert.match(await page.getByTestId('msg-attached').last().innerText(), /notes\.txt/)
  })

  test("the user's own edit is saved with a snapshot, and the agent's edit from its older read is refused as stale", async () => {
    await ask('look at calc.go')
    await page.getByTestId('msg-assistant').filter({ hasText: 'I read calc.go.' }).waitFor()
    // The user edits the file in the pane and saves with Ctrl+S.
    await page.locator('[data-testid="tree-node"][data-path="calc.go"]').click()
    await page.getByTestId('file-name').filter({ hasText: 'calc.go' }).waitFor()
    assert.equal(await page.getByTestId('code-viewer').getAttribute('data-editable'), 'true')
    await page.locator('.cm-content').click()
    await page.keyboard.press('Control+End')
    await page.keyboard.type('\n// edited by the user\n')
    await page.getByTestId('file-dirty').waitFor()
    await page.keyboard.press('Control+s')
    await page.getByTestId('file-saved').filter({ hasText: 'snapshot' }).waitFor()
    assert.match(readFileSync(path.join(fixture, 'calc.go'), 'utf8'), /edited by the user/)
    // The backup log names the user's edit, and the snapshot it points at holds calc.go as it was before it.
    const log = JSON.parse(await page.evaluate(async () => window.go.app.Tools.Call((await window.go.app.Projects.Current()).id, 'list_snapshots', '{"log":true}'))).log
    const entry = log.find((e) => e.reason.includes('Backup before your edit: calc.go'))
    assert.ok(entry, `no backup of the user's edit in the log (${log.length} entries)`)
    const diff = JSON.parse(await page.evaluate(async (id) => window.go.app.Tools.Call((await window.go.app.Projects.Current()).id, 'diff_snapshot', JSON.stringify({ id, path: 'calc.go' })), entry.id)).diff
    assert.match(diff, /\+\/\/ edited by the user/)
    // The agent patches from its read before the user's edit: refused as stale, and the user's edit stays.
    await ask('now rename Add to Sum')
    // Its dry run is refused already, so the user is not asked to approve a change that cannot land.
    const patch = page.locator('[data-testid="tool-card"][data-tool="patch_file"]').last()
    await patch.locator('[data-testid="tool-error"][data-code="stale_file"]').waitFor()
    assert.equal(await patch.getByTestId('approve-once').count(), 0)
    await page.getByTestId('msg-assistant').filter({ hasText: 'stale_file' }).waitFor()
    const now = readFileSync(path.join(fixture, 'calc.go'), 'utf8')
    assert.match(now, /edited by the user/)
    assert.match(now, /func Add/)
  })

  test('lines selected in the file pane go with the next request', async () => {
    // calc.go is open from the test before: select lines 3 and 4.
    await page.locator('.cm-line').nth(2).click()
    await page.keyboard.press('Home')
    await page.keyboard.press('Shift+ArrowDown')
    await page.getByTestId('file-mention').filter({ hasText: 'Ask about lines 3–4' }).click()
    const input = page.getByTestId('agent-input')
    await until(() => input.inputValue(), (v) => assert.equal(v, '@calc.go:3-4 ')) // the box takes it in an effect
    await input.fill(`what do these lines do? ${await input.inputValue()}`)
    await page.getByTestId('agent-send').click()
    await page.getByTestId('msg-assistant').filter({ hasText: 'Lines calc.go:3-4 say: func Add(a, b int) int { / return a + b' }).waitFor()
  })

  test('a conversation pushed past a 4k-token window is compacted by the model and carries on', async () => {
    await page.evaluate(() => window.go.app.Agent.SetActive('day', 'tiny'))
    await page.reload()
    await page.getByTestId('agent-model').filter({ hasText: 'Day · tiny' }).waitFor()
    await page.getByTestId('new-conversation').click()
    const summaries = () => llm.requests.filter((r) => lastUser(r).includes(summaryAsk)).length
    const before = summaries()
    let n = 0
    while (summaries() === before && n < 12) {
      n++
      await ask(`topic ${n}: ${'a long remark about the weather and the code. '.repeat(60)}`)
      await page.getByTestId('msg-assistant').filter({ hasText: 'Noted' }).nth(n - 1).waitFor()
    }
    assert.ok(summaries() > before, `no summary was asked for in ${n} requests`)
    await page.getByTestId('msg-compaction').waitFor()
    assert.match(await page.getByTestId('msg-compaction').innerText(), /Conversation compacted/)
    // The request after the summary starts from it and is within the window.
    const after = llm.requests.findLast((r) => r.stream && r.messages.some((m) => m.text?.includes('SUMMARY: the user is chatting')))
    assert.ok(after, 'a request carried the summary')
    assert.ok(after.tokens < 4096, `the request after compaction is ${after.tokens} tokens`)
    assert.ok(!after.messages.some((m) => m.text?.startsWith('topic 1:')), 'the first topic was summarised away')
    // The panel shows how full the context is.
    assert.match(await page.getByTestId('agent-context').innerText(), /context [\d.]+k? \/ 4\.1k/)
    // And the conversation goes on.
    await ask('one more short thing')
    await page.getByTestId('msg-assistant').filter({ hasText: 'Noted (20 characters)' }).waitFor()
    await screenshot(page, 'e2e-agent-day-compacted.png')
  })
})
