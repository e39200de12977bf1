// Where the page's main thread goes while the agent works, measured in the browser against the stand-in model: a
// sampling CPU profile (Chromium's Profiler domain) over two loads, summed by function (self time) and by the
// package the function comes from (the node_modules folder, or src/ for the app's own code):
//   - one long answer streaming (the answer bench/window-latency.mjs streams), typing meanwhile;
//   - four conversations at once, each making tool calls (as bench/parallel-conversations.mjs), typing meanwhile.
// The page is the development build `wails dev` serves, or with --built this tree's frontend through `vite build`
// left unminified, so that the profile names the app's functions while React and the rest run their production code.
// Usage (from the repository, the e2e lock held as the e2e tests hold it):
//   flock /tmp/rooted-e2e.lock node bench/profile-window.mjs [--built] [top]
import { rmSync } from 'node:fs'
import { setTimeout as sleep } from 'node:timers/promises'
import { askInView, buildFrontend, cleanupAll, paneInView, startBeside } from '../frontend/e2e/harness.mjs'
import { startAgentScenario } from '../frontend/e2e/agent-scenario.mjs'

const args = process.argv.slice(2)
const production = args.includes('--built')
const top = Number(args.find((a) => /^\d+$/.test(a)) ?? 25)
const calls = 30
const four = ['work 1', 'work 2', 'work 3', 'work 4']
const para = 'The parser reads each line, keeps the indentation, and hands the tokens to the next stage without copying them. '
const longAnswer = Array.from({ length: 40 }, (_, i) => `### Part ${i + 1}\n\n${para.repeat(4)}\n\n\`\`\`go\nfunc part${i}() int { return ${i} }\n\`\`\`\n`).join('\n')

let finished = 0
let allDone
const done = new Promise((r) => (allDone = r))
function script(req) {
  const name = req.messages.find((m) => m.role === 'user')?.text ?? ''
  if (name.startsWith('explain')) return { text: longAnswer }
  if (!name.startsWith('work')) return { text: 'ok' }
  const results = req.messages.filter((m) => m.role === 'tool').length
  if (results < calls) return { tools: [{ name: 'read_file', input: { path: `src/f${results % 20}.go` } }] }
  if (++finished === four.length) allDone()
  return { text: `Done: ${name}.` }
}

const files = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`src/f${i}.go`, `package src\n\n${'// a line of the file\n'.repeat(40)}func F${i}() int { return ${i} }\n`]))

// summary sums a profile's samples: self time by function and by where it comes from.
function summary(profile) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]))
  const self = new Map()
  const dt = profile.timeDeltas
  profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (dt[i + 1] ?? 0) / 1000))
  const fns = new Map()
  const pkgs = new Map()
  let total = 0
  for (const [id, ms] of self) {
    const { functionName, url, lineNumber } = byId.get(id).callFrame
    const pkg = /node_modules\/(?:\.vite\/deps\/)?((?:@[^/]+\/)?[^/?]+)/.exec(url)?.[1] ?? (url.includes('/src/') ? `src/${url.split('/src/')[1].split('?')[0]}` : url ? 'other' : `(${functionName || 'program'})`)
    if (pkg === '((idle))' || pkg === '(idle)') continue
    total += ms
    const fn = `${functionName || '(anonymous)'} ${pkg}:${lineNumber + 1}`
    fns.set(fn, (fns.get(fn) ?? 0) + ms)
    pkgs.set(pkg, (pkgs.get(pkg) ?? 0) + ms)
  }
  // Each sample's time goes to the nearest of the app's own functions it was called from (src/), or to the package.
  const parent = new Map()
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id)
  const owner = new Map()
  const ownerOf = (id) => {
    if (owner.has(id)) return owner.get(id)
    const { functionName, url, lineNumber } = byId.get(id).callFrame
    let o
    if (url.includes('/src/')) o = `${functionName || '(anonymous)'} src/${url.split('/src/')[1].split('?')[0]}:${lineNumber + 1}`
    else if (parent.has(id)) o = ownerOf(parent.get(id))
    else o = '(not from the app)'
    owner.set(id, o)
    return o
  }
  const apps = new Map()
  for (const [id, ms] of self) {
    const { functionName } = byId.get(id).callFrame
    if (functionName === '(idle)') continue
    const o = ownerOf(id)
    apps.set(o, (apps.get(o) ?? 0) + ms)
  }
  const list = (m) => [...m].sort((a, b) => b[1] - a[1]).slice(0, top).map(([k, v]) => `  ${v.toFixed(0).padStart(6)} ms ${((100 * v) / total).toFixed(1).padStart(5)}%  ${k}`).join('\n')
  return `busy ${total.toFixed(0)} ms\nby source:\n${list(pkgs)}\nby function (self):\n${list(fns)}\nby the app's function it runs for:\n${list(apps)}`
}

const built = production ? buildFrontend(undefined, { minify: false }) : undefined
// timeline sums the renderer's main-thread trace events by name, each event's own time (its time less that of the
// events nested in it): what the page's tasks spent on script, style, layout, paint and the rest.
function timeline(events) {
  // The page's main thread: of the renderers' main threads (there may be more than one), the busiest.
  const mains = new Set(events.filter((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain').map((e) => `${e.pid}:${e.tid}`))
  const busyness = new Map()
  for (const e of events) if (e.ph === 'X' && mains.has(`${e.pid}:${e.tid}`)) busyness.set(`${e.pid}:${e.tid}`, (busyness.get(`${e.pid}:${e.tid}`) ?? 0) + (e.dur ?? 0))
  const main = [...busyness].sort((a, b) => b[1] - a[1])[0]?.[0]
  const mine = events.filter((e) => `${e.pid}:${e.tid}` === main && e.ph === 'X' && e.dur !== undefined).sort((a, b) => a.ts - b.ts || b.dur - a.dur)
  const self = new Map()
  const stack = []
  for (const e of mine) {
    while (stack.length && stack.at(-1).ts + stack.at(-1).dur <= e.ts) stack.pop()
    const parent = stack.at(-1)
    if (parent) self.set(parent.name, (self.get(parent.name) ?? 0) - e.dur)
    self.set(e.name, (self.get(e.name) ?? 0) + e.dur)
    stack.push(e)
  }
  const total = [...self.values()].reduce((a, b) => a + b, 0)
  const rows = [...self].sort((a, b) => b[1] - a[1]).slice(0, top)
  return `main thread by trace event (own time, ${(total / 1000).toFixed(0)} ms in all):\n${rows.map(([k, v]) => `  ${(v / 1000).toFixed(0).padStart(6)} ms ${((100 * v) / total).toFixed(1).padStart(5)}%  ${k}`).join('\n')}`
}

try {
  const { page } = await startAgentScenario({ script, fixture: { name: 'bench-profile', files }, provider: { id: 'scripted', name: 'Scripted' }, built })
  await page.setViewportSize({ width: 1400, height: 900 })
  const pane = () => paneInView(page)
  const ask = (text) => askInView(page, text)
  const cdp = await page.context().newCDPSession(page)
  await cdp.send('Profiler.enable')
  await cdp.send('Profiler.setSamplingInterval', { interval: 250 })
  const typing = async (ms) => {
    await pane().getByTestId('agent-input').focus()
    const end = Date.now() + ms
    while (Date.now() < end) {
      await page.keyboard.type('x')
      await sleep(40)
    }
  }

  await ask('explain the parser')
  await pane().getByTestId('msg-assistant').first().waitFor()
  await cdp.send('Profiler.start')
  await typing(8000)
  const one = await cdp.send('Profiler.stop')
  console.log(`== one long answer streaming, 8 s, typing ==\n${summary(one.profile)}`)
  await pane().getByTestId('agent-stop').click().catch(() => undefined)
  await pane().getByTestId('agent-send').waitFor()
  await pane().getByTestId('agent-input').fill('')

  for (const name of four) {
    await startBeside(page)
    await ask(name)
  }
  // The browser's own account of the main thread too (Chromium's timeline trace): script, style, layout, paint.
  const events = []
  cdp.on('Tracing.dataCollected', ({ value }) => events.push(...value))
  const traced = new Promise((r) => cdp.once('Tracing.tracingComplete', r))
  await cdp.send('Tracing.start', { categories: 'toplevel,devtools.timeline,v8.execute', transferMode: 'ReportEvents' })
  await cdp.send('Profiler.start')
  let over = false
  void done.then(() => (over = true))
  await pane().getByTestId('agent-input').focus()
  while (!over) {
    await page.keyboard.type('x')
    await sleep(40)
  }
  const many = await cdp.send('Profiler.stop')
  await cdp.send('Tracing.end')
  await traced
  console.log(`== four conversations, ${calls} tool calls each, typing ==\n${summary(many.profile)}\n${timeline(events)}`)
} finally {
  await cleanupAll()
  if (built) rmSync(built, { recursive: true, force: true })
}
