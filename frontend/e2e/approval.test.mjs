// The approval card, end to end, as a person meets it: the real UI served by `wails dev`, a scripted model, every
// call through the real backend. The diff being approved is coloured, numbered and wrapped; a command is shown
// whole; the answers stay in view; Enter allows once and Esc denies; an interpreter (node -e) is never offered a
// grant for the whole program, while a script or an ordinary program is.
import { after, before, describe, test } from 'node:test'
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { cleanupAll, screenshot } from './harness.mjs'
import { askAgent, newConversation, startAgentScenario } from './agent-scenario.mjs'
import { answering, lastTurn } from './fake-llm.mjs'

const longLine = `const greeting = "${'hello, world; '.repeat(24)}"`
const page1 = ['// notes', ...Array.from({ length: 40 }, (_, n) => `line ${n + 2}`), longLine, 'export default greeting', ''].join('\n')
// A script written into the command: sixty statements, longer than the panel is tall.
const inline = `node -e "${Array.from({ length: 60 }, (_, n) => `console.log('step ${n + 1}')`).join('; ')}; require('fs').writeFileSync('gone.txt', 'x')"`

// script answers each request; a reply it cannot make is text saying why, never a request left hanging.
const script = answering(reply)

function reply(req) {
  const { user, results, last } = lastTurn(req)
  if (user.includes('shout the greeting')) {
    if (results.length === 0) return { tools: [{ name: 'read_file', input: { path: 'greet.js' } }] }
    if (results.length === 1) return { tools: [{ name: 'patch_file', input: { path: 'greet.js', search: longLine, replace: longLine.replace('hello', 'HELLO') } }] }
    return { text: `Patched: ${last.slice(0, 80)}` }
  }
  if (user.includes('run the inline script')) {
    if (results.length === 0) return { tools: [{ name: 'exec_shell', input: { command: inline } }] }
    return { text: `Inline: ${last.slice(0, 200)}` }
  }
  if (user.includes('run the generator')) {
    if (results.length === 0) return { tools: [{ name: 'exec_shell', input: { command: 'node gen.js' } }] }
    return { text: `Generator: ${last.slice(0, 200)}` }
  }
  if (user.includes('list the files')) {
    if (results.length === 0) return { tools: [{ name: 'exec_shell', input: { command: 'ls' } }] }
    return { text: `Listed: ${last.slice(0, 200)}` }
  }
  return { text: 'ok' }
}

describe('the approval card', { timeout: 600_000 }, () => {
  let page, fixture, llm

  before(async () => {
    ;({ page, fixture, llm } = await startAgentScenario({
      script,
      fixture: { name: 'greet', files: { 'greet.js': page1, 'gen.js': "console.log('generated')\n" } },
      provider: { id: 'scripted', name: 'Scripted' },
    }))
  })

  after(cleanupAll)

  const card = (tool, text) => page.locator(`[data-testid="tool-card"][data-tool="${tool}"]`, text ? { hasText: text } : {}).last()
  // inView says the element is wholly inside both the window and the agent's log as scrolled now.
  const inView = async (locator) => {
    const { ok, r, log } = await locator.evaluate((el) => {
      const r = el.getBoundingClientRect()
      const log = document.querySelector('[data-testid="agent-log"]').getBoundingClientRect()
      return { ok: r.top >= Math.max(0, log.top) - 1 && r.bottom <= Math.min(window.innerHeight, log.bottom) + 1 && r.height > 0, r: [r.top, r.bottom], log: [log.top, log.bottom] }
    })
    if (!ok) console.error(`not in view: element ${r}, log ${log}`)
    return ok
  }

  test('an edit shows a coloured diff with line numbers and wrapped lines; Enter allows it', async () => {
    await askAgent(page, 'shout the greeting')
    const patch = card('patch_file')
    const diff = patch.getByTestId('approval-diff')
    await diff.waitFor()
    const rows = await diff.locator('[data-testid="diff-row"]').evaluateAll((els) =>
      els.map((el) => ({
        kind: el.dataset.kind,
        nums: [...el.querySelectorAll('.diff-num')].map((n) => n.dataset.n),
        bg: getComputedStyle(el).backgroundColor,
        color: getComputedStyle(el.querySelector('.diff-text')).color,
        height: el.getBoundingClientRect().height,
        text: el.querySelector('.diff-text').textContent,
      })),
    )
    const del = rows.find((r) => r.kind === 'del')
    const add = rows.find((r) => r.kind === 'add')
    assert.ok(del && add, `a removed and an added line: ${JSON.stringify(rows)}`)
    // The line's number in the file, before and after.
    assert.deepEqual(del.nums, ['42', ''])
    assert.deepEqual(add.nums, ['', '42'])
    assert.deepEqual(rows.find((r) => r.kind === 'ctx').nums.length, 2)
    // Coloured: green for added, red for removed, on the row and the text.
    const rgb = (c) => c.match(/\d+(\.\d+)?/g).map(Number)
    const [ar, ag] = rgb(add.bg)
    const [dr, dg] = rgb(del.bg)
    assert.ok(ag > ar && dr > dg, `added row ${add.bg}, removed row ${del.bg}`)
    assert.ok(rgb(add.color)[1] > rgb(add.color)[0] && rgb(del.color)[0] > rgb(del.color)[1], `text ${add.color} / ${del.color}`)
    // Wrapped, not clipped: the whole line is in the card, on several lines, and nothing scrolls sideways.
    assert.ok(add.text.includes(longLine.replace('hello', 'HELLO').slice(-40)), 'the end of the long line is shown')
    const ctxHeight = rows.find((r) => r.kind === 'ctx').height
    assert.ok(add.height > 2 * ctxHeight, `the long line wraps (${add.height}px against ${ctxHeight}px)`)
    assert.ok(await diff.evaluate((el) => el.scrollWidth <= el.clientWidth), 'the diff scrolls sideways')
    assert.ok(await inView(patch.getByTestId('approve-once')), 'Allow once is in view')
    await screenshot(page, 'e2e-approval-diff.png')

    // Enter, with the focus where clicking Send left it, allows once (and does not stop the turn).
    assert.equal(readFileSync(path.join(fixture, 'greet.js'), 'utf8'), page1, 'nothing is written before approval')
    await page.keyboard.press('Enter')
    await page.getByTestId('msg-assistant').filter({ hasText: 'Patched:' }).waitFor()
    assert.match(readFileSync(path.join(fixture, 'greet.js'), 'utf8'), /const greeting = "HELLO, world/)
    // The applied diff looks as the approved one did.
    const applied = patch.getByTestId('tool-diff').locator('[data-testid="diff-row"][data-kind="add"]')
    assert.equal(await applied.evaluate((el) => getComputedStyle(el).backgroundColor), add.bg)
  })

  test('code written into a command is shown whole, offers no grant for node, keeps its answers in view, and Esc denies it', async () => {
    await newConversation(page)
    await askAgent(page, 'run the inline script')
    const exec = card('exec_shell')
    const command = exec.getByTestId('approval-command')
    await command.waitFor()
    // Every word of the command, nothing cut: wrapped, never scrolled sideways; a command this long scrolls
    // inside its own box, so the card fits the log.
    assert.equal(await command.innerText(), `$ ${inline}`)
    assert.ok(await command.evaluate((el) => el.scrollWidth <= el.clientWidth), 'the command runs off to the side')
    assert.ok(await exec.locator('.tool-summary').evaluate((el) => el.title.includes("require('fs').writeFileSync")), 'the one-line summary keeps the whole command in its title')
    // node -e: no "always allow node", no "allow node for this session"; the card says why it asks.
    await exec.getByTestId('approval-why').filter({ hasText: 'runs the code written into the command' }).waitFor()
    assert.equal(await exec.getByTestId('approve-always').count(), 0)
    assert.equal(await exec.getByTestId('approve-session').count(), 0)
    // Read from its top, the card's answers are in view.
    await exec.evaluate((el) => el.scrollIntoView({ block: 'start' }))
    assert.ok(await inView(exec.getByTestId('approve-once')), 'Allow once is in view with the card read from its top')
    assert.ok(await inView(exec.getByTestId('deny')), 'Deny is in view with the card read from its top')
    await screenshot(page, 'e2e-approval-command.png')

    // Esc denies, with the focus in the (empty) request box.
    await page.getByTestId('agent-input').focus()
    await page.keyboard.press('Escape')
    await page.getByTestId('msg-assistant').filter({ hasText: 'Inline:' }).waitFor()
    assert.equal(await exec.getAttribute('data-state'), 'denied')
    assert.match(lastTurn(llm.requests.at(-1)).last, /denied_by_user/)
  })

  test('a script may be always allowed by name, never node as a whole; an ordinary program keeps both grants', async () => {
    await newConversation(page)
    await askAgent(page, 'run the generator')
    const gen = card('exec_shell', 'node gen.js')
    await gen.getByTestId('approve-always').waitFor()
    assert.equal(await gen.getByTestId('approve-always').innerText(), 'Always allow `node gen.js …` in this project')
    assert.equal(await gen.getByTestId('approve-session').count(), 0)
    await page.getByTestId('agent-input').focus()
    await page.keyboard.press('Enter')
    await page.getByTestId('msg-assistant').filter({ hasText: 'Generator:' }).waitFor()
    assert.match(lastTurn(llm.requests.at(-1)).last, /generated/)

    await askAgent(page, 'list the files')
    const ls = card('exec_shell', '$ ls')
    await ls.getByTestId('approve-session').waitFor()
    assert.equal(await ls.getByTestId('approve-session').innerText(), 'Allow ls for this session')
    assert.equal(await ls.getByTestId('approve-always').innerText(), 'Always allow `ls …` in this project')
    // Typing a reason and Enter denies with it.
    await ls.getByTestId('deny-reason').fill('not now')
    await page.keyboard.press('Enter')
    await page.getByTestId('msg-assistant').filter({ hasText: 'Listed:' }).waitFor()
    assert.match(lastTurn(llm.requests.at(-1)).last, /denied_by_user.*not now/)
  })
})
