// The window's responsiveness while the agent works, measured in the browser against the stand-in model:
//   - input latency: keydown to the next painted frame, for keys typed into the request box for as long as a long
//     answer (24,000 characters in about 4,000 pieces) streams into the log, by how long the answer was at the key
//     (the goal is under 50 ms);
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

  // Keydown to the frame after it: the key's time stamp, then a frame, then a task after that frame's paint; with
  // it, how long the answer was when the key was typed.
  await page.evaluate(() => {
    window.__keyLatency = []
    document.addEventListener(
      'keydown',
      (e) => {
        const t0 = e.timeStamp
        const chars = document.querySelector('[data-testid="msg-assistant"]')?.textContent.length ?? 0
        requestAnimationFrame(() => setTimeout(() => window.__keyLatency.push({ ms: performance.now() - t0, chars }), 0))
      },
      true,
    )
  })
  await askAgent(page, 'explain the parser')
  await page.getByTestId('msg-assistant').first().waitFor()
  await page.getByTestId('agent-input').focus()
  // A key every 40 ms for as long as the answer streams (about 4,000 pieces of 6 characters).
  const t0 = Date.now()
  while (await page.getByTestId('agent-stop').isVisible()) {
    await page.keyboard.type('x')
    await sleep(40)
  }
  const streamed = ((Date.now() - t0) / 1000).toFixed(1)
  const keys = await page.evaluate(() => window.__keyLatency)
  const thirds = [0, 8000, 16000, Infinity]
  console.log(`input latency while a ${longAnswer.length}-character answer streams (${streamed} s of typing): ${stats(keys.map((k) => k.ms))}`)
  for (let i = 0; i < 3; i++) {
    const part = keys.filter((k) => k.chars >= thirds[i] && k.chars < thirds[i + 1]).map((k) => k.ms)
    if (part.length) console.log(`  the answer at ${thirds[i]} to ${thirds[i + 1] === Infinity ? 'its end' : thirds[i + 1]} characters: ${stats(part)}`)
  }
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
