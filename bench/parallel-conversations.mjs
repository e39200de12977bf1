// Four conversations working at once in one project, the stand-in model answering at once, measured in the browser:
//   - input latency: keydown to the next painted frame, for keys typed into the request box of the conversation in
//     view while all four work (the goal is under 50 ms), and the same while one works alone;
//   - tool-call time: for each conversation, from the stand-in sending a tool call to the model being asked again
//     with its result (the card, the backend's call, the result sent back), four at once against one alone (the
//     goal is no more than 1.5x);
//   - the page's main-thread time (Chromium's TaskDuration and ScriptDuration) per tool call, which a loaded
//     machine stretches less than it stretches wall-clock times;
//   - the CPU every process of the run takes per tool call (the browser's, the backend's, the stand-in's and this
//     script's), and from it the floor the machine's cores put under four at once: four calls need four calls' CPU,
//     so on N cores a round of them takes at least 4 x CPU / N, whatever the window does;
//   - the renders React commits, by component: per key typed while nothing works, and per tool call alone and four
//     at once (names are readable on the development build only).
// Each frontend named runs in turn, the turns alternating, each on a new app and browser:
//   dev            the sources as `wails dev` serves them (React's development build)
//   built          this tree's frontend through `vite build`, as users run it
//   built:FOLDER   another copy of the frontend (an older commit's, with node_modules beside it) through `vite build`
// Usage (from the repository, the e2e lock held as the e2e tests hold it):
//   flock /tmp/rooted-e2e.lock node bench/parallel-conversations.mjs [--rounds N] [--no-keys] [frontend...]
//   (default: 2 rounds, dev and built)
import { readdirSync, readFileSync, rmSync } from 'node:fs'
import { availableParallelism, loadavg } from 'node:os'
import { setTimeout as sleep } from 'node:timers/promises'
import { askInView, buildFrontend, cleanupAll, countRenders, paneInView, startBeside, takeKeyTimes, takeRenders, watchKeys } from '../frontend/e2e/harness.mjs'
import { startAgentScenario } from '../frontend/e2e/agent-scenario.mjs'

const calls = 60 // tool calls each conversation makes
const four = ['work 1', 'work 2', 'work 3', 'work 4']
const args = process.argv.slice(2)
const roundsAt = args.indexOf('--rounds')
const rounds = roundsAt >= 0 ? Number(args.splice(roundsAt, 2)[1]) : 2
// --no-keys: nothing is typed while the conversations work, so their CPU and times are theirs alone (no input
// latency is measured then).
const keysAt = args.indexOf('--no-keys')
const typing = keysAt < 0
if (!typing) args.splice(keysAt, 1)
const frontends = args.length ? args : ['dev', 'built']

const files = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`src/f${i}.go`, `package src\n\n${'// a line of the file\n'.repeat(40)}func F${i}() int { return ${i} }\n`]))

const stats = (xs) => {
  const s = [...xs].sort((a, b) => a - b)
  const q = (p) => s[Math.min(s.length - 1, Math.floor(p * s.length))]
  return { n: s.length, median: q(0.5), p95: q(0.95), max: s.at(-1) }
}
const say = (x) => `n=${x.n} median ${x.median.toFixed(1)} ms, p95 ${x.p95.toFixed(1)} ms, max ${x.max.toFixed(1)} ms`

// scripted is the stand-in's script for one round: per conversation (named by its request), when its last tool call
// was sent, the times it took to come back, and a promise settled when it is done. The four hold their first
// answer until all four have asked, so they work at once from the first call.
function scripted() {
  const runs = new Map()
  const run = (name) => {
    if (!runs.has(name)) {
      let done
      const finished = new Promise((r) => (done = r))
      runs.set(name, { sent: 0, times: [], finished, done })
    }
    return runs.get(name)
  }
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
  return { script, run }
}

// round runs one alone and four at once on a new app serving the frontend given (built: a build's folder).
async function round(built) {
  const { script, run } = scripted()
  const { page } = await startAgentScenario({ script, fixture: { name: 'bench-parallel', files }, provider: { id: 'scripted', name: 'Scripted' }, built })
  await page.setViewportSize({ width: 1400, height: 900 })
  await countRenders(page)
  await page.reload()
  await page.getByTestId('agent-model').filter({ hasText: 'Scripted' }).waitFor()
  await watchKeys(page)
  const input = () => paneInView(page).getByTestId('agent-input')
  // typeWhile types into the request box in view, a key every 40 ms, until done settles (or n keys); the latencies.
  const typeWhile = async (done, n = 200) => {
    if (!typing) return [0] // the callers wait for done themselves
    let over = false
    void done.then(() => (over = true))
    await takeKeyTimes(page)
    await input().focus()
    for (let i = 0; i < n && !over; i++) {
      await page.keyboard.type('x')
      await sleep(40)
    }
    await input().fill('')
    return takeKeyTimes(page)
  }
  // The renderer's main-thread time so far (seconds of task and of script), from Chromium's own counters.
  const cdp = await page.context().newCDPSession(page)
  await cdp.send('Performance.enable')
  const busy = async () => {
    const { metrics } = await cdp.send('Performance.getMetrics')
    const m = Object.fromEntries(metrics.map((x) => [x.name, x.value]))
    return { task: m.TaskDuration, script: m.ScriptDuration }
  }

  // Keys while nothing works: what one key renders.
  await input().focus()
  await sleep(300)
  await takeRenders(page)
  const idleKeys = 40
  await typeWhile(new Promise(() => {}), idleKeys)
  await sleep(300)
  const keyRenders = await takeRenders(page)

  // One alone.
  const busy0 = await busy()
  const cpu0 = treeCPU()
  const t0 = Date.now()
  await askInView(page, 'work 0')
  const keysAlone = await typeWhile(run('work 0').finished)
  await run('work 0').finished
  const aloneWall = Date.now() - t0
  const busy1 = await busy()
  const cpu1 = treeCPU()
  await paneInView(page).getByTestId('msg-assistant').filter({ hasText: 'Done: work 0.' }).waitFor()
  const aloneRenders = await takeRenders(page)

  // Four at once: each in a new conversation, the earlier ones going on out of sight.
  const busy2 = await busy()
  const cpu2 = treeCPU()
  const t1 = Date.now()
  for (const name of four) {
    await startBeside(page)
    await askInView(page, name)
  }
  const keysFour = await typeWhile(Promise.all(four.map((n) => run(n).finished)))
  await Promise.all(four.map((n) => run(n).finished))
  const fourWall = Date.now() - t1
  const busy3 = await busy()
  const cpu3 = treeCPU()
  await page.getByTestId('live-conversation').first().waitFor()
  const fourRenders = await takeRenders(page)
  await cleanupAll()
  const load = loadavg()[0]

  const alone = stats(run('work 0').times)
  const each = four.map((n) => stats(run(n).times))
  const perCall = (a, b, n) => ({ task: ((b.task - a.task) * 1000) / n, script: ((b.script - a.script) * 1000) / n, share: ((b.task - a.task) * 100000) / (n === calls ? aloneWall : fourWall) })
  return {
    load,
    alone,
    each,
    all: stats(four.flatMap((n) => run(n).times)),
    worst: Math.max(...each.map((x) => x.median / alone.median)),
    aloneWall,
    fourWall,
    mainAlone: perCall(busy0, busy1, calls),
    mainFour: perCall(busy2, busy3, calls * four.length),
    cpuAlone: cpuPer(cpu0, cpu1, calls),
    cpuFour: cpuPer(cpu2, cpu3, calls * four.length),
    keysAlone: stats(keysAlone),
    keysFour: stats(keysFour),
    renders: { key: per(keyRenders, idleKeys), alone: per(aloneRenders, calls), four: per(fourRenders, calls * four.length) },
  }
}

// treeCPU is the CPU time in ms, user and system, of this process and every process below it (the app, its
// browser, wails dev and vite), by program (the stand-in model runs in this script's process, node), read from
// /proc; a process that ended between two reads is not counted.
function treeCPU() {
  const procs = []
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue
    try {
      // The program's name is between the parentheses; after them, state is the first field, ppid the second,
      // utime the 12th and stime the 13th.
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8')
      const f = stat.slice(stat.lastIndexOf(') ') + 2).split(' ')
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(') '))
      procs.push({ pid: Number(name), ppid: Number(f[1]), comm, ms: (Number(f[11]) + Number(f[12])) * 10 }) // USER_HZ is 100
    } catch {
      // ended meanwhile
    }
  }
  const inTree = new Set([process.pid])
  for (let grew = true; grew; ) {
    grew = false
    for (const p of procs) if (!inTree.has(p.pid) && inTree.has(p.ppid)) (inTree.add(p.pid), (grew = true))
  }
  const by = { all: 0 }
  for (const p of procs.filter((p) => inTree.has(p.pid))) {
    by[p.comm] = (by[p.comm] ?? 0) + p.ms
    by.all += p.ms
  }
  return by
}

// cpuPer is the CPU a tool call took between two treeCPU readings, by program.
const cpuPer = (a, b, n) => Object.fromEntries(Object.keys(b).map((k) => [k, (b[k] - (a[k] ?? 0)) / n]))

const per = (counts, n) => Object.fromEntries(Object.entries(counts).map(([k, v]) => [k, v / n]))

function report(name, r) {
  console.log(`-- ${name} (load average ${r.load.toFixed(1)})`)
  console.log(`tool-call time, one conversation alone (${calls} calls, ${(r.aloneWall / 1000).toFixed(1)} s): ${say(r.alone)}`)
  r.each.forEach((x, i) => console.log(`tool-call time, ${four[i]} of four at once: ${say(x)} (${(x.median / r.alone.median).toFixed(2)}x alone's median)`))
  console.log(`tool-call time, all four at once (${(r.fourWall / 1000).toFixed(1)} s for all): ${say(r.all)}; worst conversation's median ${r.worst.toFixed(2)}x alone`)
  const main = (m) => `${m.task.toFixed(1)} ms of tasks, ${m.script.toFixed(1)} ms of script, ${Math.round(m.share)}% of the time busy`
  console.log(`main thread per tool call (typing included), one alone: ${main(r.mainAlone)}; four at once: ${main(r.mainFour)}`)
  const cores = availableParallelism()
  const floor = (four.length * r.cpuFour.all) / cores
  console.log(
    `CPU per tool call, every process of the run (typing included): one alone ${r.cpuAlone.all.toFixed(1)} ms, four at once ${r.cpuFour.all.toFixed(1)} ms; on ${cores} cores four at once cannot take less than ${floor.toFixed(1)} ms a call, ${(floor / r.alone.median).toFixed(2)}x alone's median`,
  )
  const byProgram = (m) =>
    Object.entries(m)
      .filter(([k, v]) => k !== 'all' && v >= 0.05)
      .sort((a, b) => b[1] - a[1])
      .map(([k, v]) => `${k} ${v.toFixed(1)}`)
      .join(', ')
  console.log(`CPU per tool call by program (ms), one alone: ${byProgram(r.cpuAlone)}; four at once: ${byProgram(r.cpuFour)}`)
  console.log(`input latency, one conversation working: ${say(r.keysAlone)}`)
  console.log(`input latency, four conversations working: ${say(r.keysFour)}`)
  const top = (m) =>
    Object.entries(m)
      .sort((a, b) => b[1] - a[1])
      .slice(0, 14)
      .map(([k, v]) => `${k} ${v < 10 ? v.toFixed(2) : v.toFixed(0)}`)
      .join(', ')
  console.log(`renders per key, nothing working: ${top(r.renders.key)}`)
  console.log(`renders per tool call, one alone: ${top(r.renders.alone)}`)
  console.log(`renders per tool call, four at once: ${top(r.renders.four)}`)
}

const builds = new Map()
try {
  for (const f of frontends) {
    if (f === 'built') builds.set(f, buildFrontend())
    else if (f.startsWith('built:')) builds.set(f, buildFrontend(f.slice('built:'.length)))
    else if (f !== 'dev') throw new Error(`unknown frontend ${f}: dev, built or built:FOLDER`)
  }
  const results = new Map(frontends.map((f) => [f, []]))
  for (let i = 0; i < rounds; i++) {
    for (const f of frontends) {
      const r = await round(builds.get(f))
      results.get(f).push(r)
      report(`${f}, round ${i + 1}`, r)
    }
  }
  console.log('\n== summary (one line a round) ==')
  for (const [f, rs] of results) {
    for (const r of rs) {
      console.log(
        `${f.padEnd(12)} load ${r.load.toFixed(1).padStart(4)} · key (four) median ${r.keysFour.median.toFixed(0)} p95 ${r.keysFour.p95.toFixed(0)} ms · key (one) median ${r.keysAlone.median.toFixed(0)} p95 ${r.keysAlone.p95.toFixed(0)} ms · call alone ${r.alone.median} ms, four ${r.all.median} ms, worst ${r.worst.toFixed(2)}x, cores' floor ${((four.length * r.cpuFour.all) / availableParallelism() / r.alone.median).toFixed(2)}x · main thread a call ${r.mainAlone.task.toFixed(1)} / ${r.mainFour.task.toFixed(1)} ms`,
      )
    }
  }
} finally {
  await cleanupAll()
  for (const dir of builds.values()) rmSync(dir, { recursive: true, force: true })
}
