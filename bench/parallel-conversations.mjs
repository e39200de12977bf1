// Four conversations working at once in one project, the stand-in model answering at once, measured in the browser:
//   - input latency: keydown to the next painted frame, for keys typed into the request box of the conversation in
//     view while all four work (the goal is under 50 ms), and the same while one works alone;
//   - tool-call time: for each conversation, from the stand-in sending a tool call to the model being asked again
//     with its result (the card, the backend's call, the result sent back), four at once against one alone (the
//     goal is no more than 1.5x);
//   - the page's main-thread time (Chromium's TaskDuration and ScriptDuration) per tool call, which a loaded
//     machine stretches less than it stretches wall-clock times.
// Usage (from the repository, the e2e lock held as the e2e tests hold it):
//   flock /tmp/rooted-e2e.lock node bench/parallel-conversations.mjs
import { setTimeout as sleep } from 'node:timers/promises'
import { cleanupAll } from '../frontend/e2e/harness.mjs'
import { startAgentScenario } from '../frontend/e2e/agent-scenario.mjs'

const calls = 60 // tool calls each conversation makes
const four = ['work 1', 'work 2', 'work 3', 'work 4']

// Per conversation (named by its request): when its last tool call was sent, the times it took to come back,
// and a promise settled when it is done.
const runs = new Map()
function run(name) {
  if (!runs.has(name)) {
    let done
    const finished = new Promise((r) => (done = r))
    runs.set(name, { sent: 0, times: [], finished, done })
  }
  return runs.get(name)
}

// The four hold their first answer until all four have asked, so they work at once from the first call.
let asked = 0
let release
const allAsked = new Promise((r) => (release = r))

async function script(req) {
  const name = req.messages.find((m) => m.role === 'user')?.text ?? ''
  if (!name.startsWith('work')) return { text: 'ok' }
  const r = run(name)
  const results = req.messages.filter((m) => m.role === 'tool').length
  if (results === 0 && four.includes(name)) {
    if (++asked === four.length) release()
    await allAsked
  }
  if (results > 0) r.times.push(Date.now() - r.sent)
  if (results < calls) {
    r.sent = Date.now()
    return { tools: [{ name: 'read_file', input: { path: `src/f${results % 20}.go` } }] }
  }
  r.done()
  return { text: `Done: ${name}.` }
}

const stats = (xs) => {
  const s = [...xs].sort((a, b) => a - b)
  const q = (p) => s[Math.min(s.length - 1, Math.floor(p * s.length))]
  return { n: s.length, median: q(0.5), p95: q(0.95), max: s.at(-1) }
}
const say = (x) => `n=${x.n} median ${x.median.toFixed(1)} ms, p95 ${x.p95.toFixed(1)} ms, max ${x.max.toFixed(1)} ms`

const files = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`src/f${i}.go`, `package src\n\n${'// a line of the file\n'.repeat(40)}func F${i}() int { return ${i} }\n`]))

try {
  const { page } = await startAgentScenario({ script, fixture: { name: 'bench-parallel', files }, provider: { id: 'scripted', name: 'Scripted' } })
  await page.setViewportSize({ width: 1400, height: 900 })
  const pane = () => page.locator('[data-testid="conversation-pane"]:not([hidden])')
  const ask = async (text) => {
    await pane().getByTestId('agent-send').waitFor()
    await pane().getByTestId('agent-input').fill(text)
    await pane().getByTestId('agent-send').click()
  }
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
  // typeWhile types into the request box in view, a key every 40 ms, until done settles; the latencies measured.
  const typeWhile = async (done) => {
    let over = false
    void done.then(() => (over = true))
    await page.evaluate(() => (window.__keyLatency = []))
    await pane().getByTestId('agent-input').focus()
    for (let i = 0; i < 200 && !over; i++) {
      await page.keyboard.type('x')
      await sleep(40)
    }
    await pane().getByTestId('agent-input').fill('')
    return page.evaluate(() => window.__keyLatency)
  }

  // The renderer's main-thread time so far (seconds of task and of script), from Chromium's own counters.
  const cdp = await page.context().newCDPSession(page)
  await cdp.send('Performance.enable')
  const busy = async () => {
    const { metrics } = await cdp.send('Performance.getMetrics')
    const m = Object.fromEntries(metrics.map((x) => [x.name, x.value]))
    return { task: m.TaskDuration, script: m.ScriptDuration }
  }
  const perCall = (a, b, n) => `${(((b.task - a.task) * 1000) / n).toFixed(1)} ms of tasks, ${(((b.script - a.script) * 1000) / n).toFixed(1)} ms of script`

  // One alone.
  const busy0 = await busy()
  const t0 = Date.now()
  await ask('work 0')
  const keysAlone = await typeWhile(run('work 0').finished)
  await run('work 0').finished
  const aloneWall = Date.now() - t0
  const busy1 = await busy()
  await pane().getByTestId('msg-assistant').filter({ hasText: 'Done: work 0.' }).waitFor()
  const alone = stats(run('work 0').times)

  // Four at once: each in a new conversation, the earlier ones going on out of sight.
  const busy2 = await busy()
  const t1 = Date.now()
  for (const name of four) {
    await pane().getByTestId('new-conversation').click()
    await pane().getByTestId('conversation-title').filter({ hasText: 'New conversation' }).waitFor()
    await ask(name)
  }
  const keysFour = await typeWhile(Promise.all(four.map((n) => run(n).finished)))
  await Promise.all(four.map((n) => run(n).finished))
  const fourWall = Date.now() - t1
  const busy3 = await busy()
  await page.getByTestId('live-conversation').first().waitFor()

  console.log(`tool-call time, one conversation alone (${calls} calls, ${(aloneWall / 1000).toFixed(1)} s): ${say(alone)}`)
  let worst = 0
  for (const n of four) {
    const x = stats(run(n).times)
    worst = Math.max(worst, x.median / alone.median)
    console.log(`tool-call time, ${n} of four at once: ${say(x)} (${(x.median / alone.median).toFixed(2)}x alone's median)`)
  }
  const all = stats(four.flatMap((n) => run(n).times))
  console.log(`tool-call time, all four at once (${(fourWall / 1000).toFixed(1)} s for all): ${say(all)}; worst conversation's median ${worst.toFixed(2)}x alone`)
  const share = (a, b, wall) => `${Math.round(((b.task - a.task) * 100000) / wall)}% of the time busy`
  console.log(`main thread per tool call (typing included), one alone: ${perCall(busy0, busy1, calls)}, ${share(busy0, busy1, aloneWall)}; four at once: ${perCall(busy2, busy3, calls * four.length)}, ${share(busy2, busy3, fourWall)}`)
  console.log(`input latency, one conversation working: ${say(stats(keysAlone))}`)
  console.log(`input latency, four conversations working: ${say(stats(keysFour))}`)
} finally {
  await cleanupAll()
}
