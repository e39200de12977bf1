// The layout holds at every width: the agent panel is resized by dragging its edge or by the arrow keys on it, and
// keeps its width after the window is reloaded; under 1100 px the project, the editor and the agent become tabs,
// each across the whole window. At 1400 and 900 px nothing runs off the window's right edge and the controls a
// person needs are wholly in view (checked on the page's boxes, with screenshots kept).
import { after, before, describe, test } from 'node:test'
import assert from 'node:assert/strict'
import { cleanupAll, screenshot } from './harness.mjs'
import { askAgent, startAgentScenario } from './agent-scenario.mjs'

const long = 'A long answer line that goes on and on without a break '.repeat(12)

function script(req) {
  const results = req.messages.slice(req.messages.findLastIndex((m) => m.role === 'user') + 1).filter((m) => m.role === 'tool')
  if (results.length === 0) return { tools: [{ name: 'read_file', input: { path: 'main.go' } }] }
  return { text: `${long}\n\n\`\`\`\n${'x'.repeat(400)}\n\`\`\`` }
}

// overflow lists the visible elements that reach past the window's right edge without an ancestor that clips
// them inside it (a scroller, or a box with overflow hidden), and the page's own horizontal scroll.
function overflow(page) {
  return page.evaluate(() => {
    const w = window.innerWidth
    const out = []
    if (document.scrollingElement.scrollWidth > w) out.push(`the page scrolls sideways: ${document.scrollingElement.scrollWidth} > ${w}`)
    for (const el of document.querySelectorAll('body *')) {
      const r = el.getBoundingClientRect()
      if (r.width === 0 || r.height === 0 || r.right <= w + 1) continue
      let clipped = false
      for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
        const s = getComputedStyle(a)
        if (s.overflowX !== 'visible' && a.getBoundingClientRect().right <= w + 1) {
          clipped = true
          break
        }
      }
      if (!clipped) out.push(`${el.tagName.toLowerCase()}.${el.className} [${el.dataset.testid ?? ''}] ends at ${Math.round(r.right)} > ${w}`)
    }
    return out
  })
}

// inView says whether each element named is wholly inside the window.
async function inView(page, ids) {
  const out = {}
  for (const id of ids) {
    out[id] = await page.getByTestId(id).evaluate((el) => {
      const r = el.getBoundingClientRect()
      return r.width > 0 && r.left >= 0 && r.top >= 0 && r.right <= window.innerWidth + 1 && r.bottom <= window.innerHeight + 1
    })
  }
  return out
}

const all = (ids) => Object.fromEntries(ids.map((id) => [id, true]))

describe('layout', { timeout: 600_000 }, () => {
  let page

  before(async () => {
    ;({ page } = await startAgentScenario({
      script,
      fixture: { name: 'layout', files: { 'main.go': 'package main\n\nfunc main() {}\n' } },
      provider: { id: 'scripted', name: 'Scripted' },
    }))
    await page.setViewportSize({ width: 1400, height: 900 })
    await askAgent(page, 'read main.go')
    await page.getByTestId('msg-assistant').filter({ hasText: 'A long answer line' }).waitFor()
  })

  after(cleanupAll)

  const slotWidth = () => page.getByTestId('agent-slot').evaluate((el) => Math.round(el.getBoundingClientRect().width))

  test('at 1400 px the panel is resized by dragging and by keys, and keeps its width after a reload', async () => {
    assert.equal(await slotWidth(), 440)
    const edge = await page.getByTestId('agent-splitter').boundingBox()
    const y = edge.y + edge.height / 2
    const x = edge.x + edge.width / 2
    await page.mouse.move(x, y)
    await page.mouse.down()
    await page.mouse.move(x - 100, y, { steps: 5 })
    await page.mouse.move(x - 200, y, { steps: 5 })
    await page.mouse.up()
    assert.equal(await slotWidth(), 640)
    // By keys: Right narrows by 16 px, Shift+Left widens by 64.
    await page.getByTestId('agent-splitter').focus()
    await page.keyboard.press('ArrowRight')
    assert.equal(await slotWidth(), 624)
    await page.keyboard.press('Shift+ArrowLeft')
    assert.equal(await slotWidth(), 688)
    assert.equal(await page.getByTestId('agent-splitter').getAttribute('aria-valuenow'), '688')
    // It cannot squeeze the centre pane away.
    await page.keyboard.press('Home')
    const widest = await slotWidth()
    const centre = await page.locator('.centre-slot').evaluate((el) => el.getBoundingClientRect().width)
    assert.ok(centre >= 355, `the centre pane keeps room: ${centre}`)
    assert.ok(widest < 1400 - 280 - 300, `the panel stops short: ${widest}`)
    await page.keyboard.press('End')
    assert.equal(await slotWidth(), 320)
    await page.keyboard.press('Shift+ArrowLeft')
    assert.equal(await slotWidth(), 384)

    await page.reload()
    await page.getByTestId('agent-slot').waitFor()
    assert.equal(await slotWidth(), 384, 'the width is kept')
    await page.getByTestId('agent-send').waitFor()
    assert.deepEqual(await overflow(page), [])
    const ids = ['agent-input', 'agent-send', 'agent-model', 'tab-files', 'tab-history', 'agent-splitter']
    assert.deepEqual(await inView(page, ids), all(ids))
    await screenshot(page, 'e2e-layout-1400.png')
  })

  test('at 900 px the areas are tabs, each across the window, with nothing cut off', async () => {
    await page.setViewportSize({ width: 900, height: 700 })
    await page.getByTestId('area-tabs').waitFor()
    const visible = async () => ({
      side: await page.locator('.sidebar').isVisible(),
      main: await page.locator('.centre-slot').isVisible(),
      agent: await page.getByTestId('agent-slot').isVisible(),
    })
    assert.deepEqual(await visible(), { side: false, main: true, agent: false })

    await page.getByTestId('area-agent').click()
    assert.deepEqual(await visible(), { side: false, main: false, agent: true })
    const rail = await page.getByTestId('project-strip').evaluate((el) => el.getBoundingClientRect().width)
    assert.ok(rail <= 56, `the open projects' rail stays narrow: ${rail}`)
    assert.ok((await slotWidth()) >= 895 - rail, 'the agent has the whole width beside the rail')
    assert.deepEqual(await overflow(page), [])
    const agentIds = ['agent-input', 'agent-send', 'agent-model', 'area-side', 'area-main', 'area-agent']
    assert.deepEqual(await inView(page, agentIds), all(agentIds))
    await screenshot(page, 'e2e-layout-900-agent.png')

    // Opening a file from the project's tab shows it in the editor's.
    await page.getByTestId('area-side').click()
    assert.deepEqual(await visible(), { side: true, main: false, agent: false })
    assert.deepEqual(await overflow(page), [])
    await screenshot(page, 'e2e-layout-900-project.png')
    await page.locator('[data-testid="tree-node"][data-path="main.go"]').click()
    await page.getByTestId('area-main').and(page.locator('[aria-selected="true"]')).waitFor()
    assert.deepEqual(await visible(), { side: false, main: true, agent: false })
    assert.deepEqual(await overflow(page), [])
    await screenshot(page, 'e2e-layout-900-editor.png')

    // Wide again: the three side by side, the panel at the width chosen.
    await page.setViewportSize({ width: 1400, height: 900 })
    await page.getByTestId('area-tabs').waitFor({ state: 'detached' })
    assert.deepEqual(await visible(), { side: true, main: true, agent: true })
    assert.equal(await slotWidth(), 384)
  })
})
