// The window's responsiveness while the agent works, measured in the browser against the stand-in model:
//   - input latency: keydown to the next painted frame, for keys typed into the request box while a long answer
//     streams into the log (the goal is under 50 ms);
//   - tool call to card: from the stand-in sending a tool call to its card being painted in the log.
// Usage (from the repository, the e2e lock held as the e2e tests hold it):
//   flock /tmp/rooted-e2e.lock node bench/window-latency.mjs
import { setTimeout as sleep } from 'node:timers/promises'
import { cleanupAll } from '../frontend/e2e/harness.mjs'
import { askAgent, startAgentScenario } from '../frontend/e2e/agent-scenario.mjs'

const calls = 12 // tool calls in the second scenario
const sent = [] // when the stand-in sent each tool call (ms since the epoch; the page's clock is the same machine's)

// A long answer in markdown, paragraphs and code, about 24,000 characters (the stand-in streams 6 at a time).
const para = 'The parser reads each line, keeps the indentation, and hands the tokens to the next stage without copying them. '
const longAnswer = Array.from({ length: 40 }, (_, i) => `### Part ${i + 1}\n\n${para.repeat(4)}\n\n\`\`\`go\nfunc part${i}() int { return ${i} }\n\`\`\`\n`).join('\n')

function script(req) {
  const user = req.messages.filter((m) => m.role === 'user').at(-1)?.text ?? ''
  const results = req.messages.slice(req.messages.findLastIndex((m) => m.role === 'user') + 1).filter((m) => m.role === 'tool')
  if (user.startsWith('explain')) return { text: longAnswer }
  if (user.startsWith('read')) {
    if (results.length < calls) {
      sent.push(Date.now())
      return { tools: [{ name: 'read_file', input: { path: 'main.go' } }] }
    }
    return { text: 'Read.' }
  }
  return { text: 'ok' }
}

const stats = (xs) => {
  const s = [...xs].sort((a, b) => a - b)
  const q = (p) => s[Math.min(s.length - 1, Math.floor(p * s.length))]
  return `n=${s.length} median ${q(0.5).toFixed(1)} ms, p95 ${q(0.95).toFixed(1)} ms, max ${s.at(-1).toFixed(1)} ms`
}

try {
  const { page } = await startAgentScenario({
    script,
    fixture: { name: 'bench', files: { 'main.go': 'package main\n\nfunc main() {}\n' } },
    provider: { id: 'scripted', name: 'Scripted' },
  })
  await page.setViewportSize({ width: 1400, height: 900 })

  // Keydown to the frame after it: the key's time stamp, then a frame, then a task after that frame's paint.
  await page.evaluate(() => {
    window.__keyLatency = []
    document.addEventListener(
      'keydown',
      (e) => {
        const t0 = e.timeStamp
        requestAnimationFrame(() => setTimeout(() => window.__keyLatency.push(performance.now() - t0), 0))
      },
      true,
    )
  })
  await askAgent(page, 'explain the parser')
  await page.getByTestId('msg-assistant').first().waitFor()
  await page.getByTestId('agent-input').focus()
  const streamingAt = await page.getByTestId('msg-assistant').first().evaluate((el) => el.textContent.length)
  for (let i = 0; i < 80; i++) {
    await page.keyboard.type('x')
    await sleep(40)
  }
  const stillStreaming = await page.getByTestId('agent-stop').isVisible()
  const charsAfter = await page.getByTestId('msg-assistant').first().evaluate((el) => el.textContent.length)
  const keys = await page.evaluate(() => window.__keyLatency)
  console.log(`input latency while streaming (${streamingAt} → ${charsAfter} characters streamed meanwhile, still streaming at the end: ${stillStreaming}): ${stats(keys)}`)
  await page.getByTestId('agent-stop').click().catch(() => undefined)
  await page.getByTestId('agent-send').waitFor()
  await page.getByTestId('agent-input').fill('')

  // Tool call to card: each new card noticed as it is added, its time taken after the frame that paints it.
  await page.getByTestId('new-conversation').click()
  await page.evaluate(() => {
    window.__cards = []
    const seen = new Set()
    new MutationObserver(() => {
      for (const el of document.querySelectorAll('[data-testid="tool-card"][data-tool="read_file"]')) {
        const id = el.closest('[data-index]')?.getAttribute('data-index') ?? String(seen.size)
        if (seen.has(id)) continue
        seen.add(id)
        requestAnimationFrame(() => setTimeout(() => window.__cards.push({ id: Number(id), at: Date.now() }), 0))
      }
    }).observe(document.body, { childList: true, subtree: true })
  })
  await askAgent(page, 'read main.go again and again')
  await page.getByTestId('msg-assistant').filter({ hasText: 'Read.' }).waitFor()
  const cards = (await page.evaluate(() => window.__cards)).sort((a, b) => a.id - b.id)
  const deltas = cards.slice(0, sent.length).map((c, i) => c.at - sent[i])
  console.log(`tool call sent to its card painted: ${stats(deltas)}`)
} finally {
  await cleanupAll()
}
