import { useCallback, useEffect, useRef, useState } from 'react'
import {
  callTool,
  checkCall,
  diagnose,
  instructions as loadInstructions,
  conversations as listConversations,
  deleteConversation,
  loadConversation,
  projectSettings,
  providers as loadProviders,
  repoInfo,
  renameConversation,
  runTool,
  saveConversation,
  toBackendError,
  toolSpecs,
  type ConversationMeta,
  type Instructions,
  type Project,
  type ProjectSettings,
  type ProvidersView,
  type ToolSpec,
} from '../bridge'
import { denial, needsApproval, noGrants, sessionGrant, type Grants } from '../agent/approvals'
import { cutBefore, errorOf, newConversation, restore, snapshotBefore, titleFrom, type Conversation, type Item, type ToolItem } from '../agent/conversation'
import { compactedMessages, splitForCompaction } from '../agent/context'
import { editedPaths, withDiagnostics } from '../agent/diagnostics'
import { attachMentions } from '../agent/mentions'
import { planTool, planToolName } from '../agent/plan'
import { defaultMaxSteps, runTurn, summarise, type TurnEvent } from '../agent/run-turn'
import { instructions } from '../agent/system-prompt'
import { contextWindow, createModel } from '../llm/providers'
import type { LanguageModel } from 'ai'

// An allowed call may carry the user's edit of it (the proposed text changed before allowing).
export type Approval = { kind: 'once'; input?: Record<string, unknown> } | { kind: 'session'; input?: Record<string, unknown> } | { kind: 'deny'; reason: string }

const edits = new Set(['write_file', 'patch_file'])

// The step limit is a setting of this window (kept in its local storage), the same for every project.
const stepLimitKey = 'rooted.agent.stepLimit'
export function stepLimit(): number {
  const n = Number(globalThis.localStorage?.getItem(stepLimitKey))
  return Number.isInteger(n) && n > 0 ? n : defaultMaxSteps
}
export function setStepLimit(n: number): void {
  if (Number.isInteger(n) && n > 0) globalThis.localStorage?.setItem(stepLimitKey, String(n))
}

// ModelFactory makes the model for a provider; tests and the window use the real one.
export type ModelFactory = typeof createModel

const saveDelay = 250

// useAgentSession runs the agent for the open project: the conversation and its list, the turn in progress,
// approvals, and saving every change as it happens.
export function useAgentSession(project: Project, makeModel: ModelFactory = createModel) {
  const [conv, setConv] = useState<Conversation>(newConversation)
  const [list, setList] = useState<ConversationMeta[]>([])
  const [running, setRunning] = useState(false)
  const [provs, setProvs] = useState<ProvidersView | null>(null)
  const [settings, setSettings] = useState<ProjectSettings | null>(null)
  const [specs, setSpecs] = useState<ToolSpec[]>([])
  const [extra, setExtra] = useState<Instructions | null>(null) // the instruction files of the last request
  const [compacting, setCompacting] = useState(false)
  const grants = useRef<Grants>(noGrants())
  const waiting = useRef(new Map<string, (a: Approval) => void>())
  const abort = useRef<AbortController | null>(null)
  const runningCalls = useRef(new Map<string, () => void>())
  const convRef = useRef(conv)

  const refreshList = useCallback(() => {
    listConversations()
      .then(setList)
      .catch(() => undefined)
  }, [])
  const refreshProviders = useCallback(() => {
    loadProviders()
      .then(setProvs)
      .catch(() => undefined)
  }, [])
  const refreshSettings = useCallback(() => {
    projectSettings()
      .then(setSettings)
      .catch(() => undefined)
  }, [])
  useEffect(() => {
    refreshList()
    refreshProviders()
    refreshSettings()
    loadInstructions()
      .then(setExtra)
      .catch(() => undefined)
    toolSpecs()
      .then(setSpecs)
      .catch(() => undefined)
  }, [project.root, refreshList, refreshProviders, refreshSettings])

  // Ready once the tools, the project's rules and the providers are known: a request sent before would run
  // without tools or approvals.
  const ready = specs.length > 0 && settings !== null && provs !== null

  // Saved shortly after every change, and at once when a turn ends (flush).
  const dirty = useRef(false)
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null)
  const flush = useCallback(async () => {
    if (timer.current) clearTimeout(timer.current)
    timer.current = null
    const c = convRef.current
    if (!dirty.current || c.items.length === 0) return
    dirty.current = false
    try {
      await saveConversation(c.id, c.title, { items: c.items, messages: c.messages, usage: c.usage, notes: c.notes ?? [], plan: c.plan ?? [], context: c.context, halt: c.halt, planMode: c.planMode, rewound: c.rewound })
      refreshList()
    } catch {
      dirty.current = true
    }
  }, [refreshList])
  const update = useCallback(
    (f: (c: Conversation) => Conversation) => {
      // convRef is the truth (updates from tool calls and the stream interleave); React state follows it.
      const n = f(convRef.current)
      convRef.current = n
      setConv(n)
      dirty.current = true
      if (!timer.current) timer.current = setTimeout(() => void flush(), saveDelay)
    },
    [flush],
  )

  const upsertTool = useCallback(
    (id: string, patch: Partial<ToolItem> & { name?: string; input?: Record<string, unknown> }) =>
      update((c) => {
        const i = c.items.findIndex((it) => it.kind === 'tool' && it.id === id)
        if (i < 0) return { ...c, items: [...c.items, { kind: 'tool', id, name: patch.name ?? '', input: patch.input ?? {}, state: 'running', ...patch } as ToolItem] }
        const items = c.items.slice()
        items[i] = { ...(items[i] as ToolItem), ...patch }
        return { ...c, items }
      }),
    [update],
  )

  const execute = useCallback(
    async (call: { id: string; name: string; input: Record<string, unknown> }, signal: AbortSignal | undefined): Promise<unknown> => {
      const spec = specs.find((s) => s.name === call.name)
      if (!spec) return { error: { code: 'unknown_tool', message: `no tool named ${call.name}` } }
      // The backend checks the call first (schema, shell syntax, allowlist, deny rules, paths): one that cannot run
      // is answered at once with its error and never shown for approval.
      const check = await checkCall(call.name, call.input).catch(() => null)
      if (check?.error) {
        upsertTool(call.id, { name: call.name, input: call.input, state: 'failed', output: check.error, error: check.error.error })
        return check.error
      }
      // Plan mode: only reading and planning. The model gets a clear error it can act on (propose, not do).
      if (convRef.current.planMode && !spec.read_only) {
        const out = { error: { code: 'plan_mode', message: `plan mode is on: ${call.name} changes the project and is not allowed until the user starts the work; finish exploring and present your plan` } }
        upsertTool(call.id, { name: call.name, input: call.input, state: 'failed', output: out, error: out.error })
        return out
      }
      let input = call.input
      let edited = false
      if (needsApproval(spec, call.input, grants.current, settings?.auto_approve_edits ?? false, check)) {
        upsertTool(call.id, { name: call.name, input: call.input, state: 'waiting' })
        if (edits.has(call.name)) {
          // The card shows the change in its context: the diff a dry run of the same call would make. A dry run
          // refused (no_match, not_read, ...) is the answer the model gets without asking the user.
          try {
            const dry = await callTool(call.name as 'write_file', { ...call.input, dry_run: true } as never)
            upsertTool(call.id, { preview: (dry as { diff?: string }).diff ?? '' })
          } catch (e) {
            const err = toBackendError(e)
            const out = { error: { code: err.code, message: err.message, ...(err.path ? { path: err.path } : {}) } }
            upsertTool(call.id, { state: 'failed', output: out, error: out.error })
            return out
          }
        }
        const answer = await new Promise<Approval>((resolve) => {
          waiting.current.set(call.id, resolve)
          signal?.addEventListener('abort', () => resolve({ kind: 'deny', reason: 'the user stopped the agent' }), { once: true })
        })
        waiting.current.delete(call.id)
        if (answer.kind === 'deny') {
          const out = denial(call.name, answer.reason)
          upsertTool(call.id, { state: 'denied', output: out, error: out.error })
          return out
        }
        if (answer.kind === 'session') grants.current = sessionGrant(call.name, call.input).grant(grants.current)
        if (answer.input && JSON.stringify(answer.input) !== JSON.stringify(call.input)) {
          input = answer.input
          edited = true
        }
      }
      upsertTool(call.id, { name: call.name, input, state: 'running', ...(edited ? { edited: true } : {}) })
      try {
        let output: unknown
        if (call.name === 'exec_shell') {
          let live = ''
          const run = runTool('exec_shell', call.input, (o) => {
            live += o.data
            upsertTool(call.id, { live })
          })
          runningCalls.current.set(call.id, () => void run.cancel())
          const stop = () => void run.cancel()
          signal?.addEventListener('abort', stop, { once: true })
          try {
            output = await run.result
          } finally {
            signal?.removeEventListener('abort', stop)
            runningCalls.current.delete(call.id)
          }
        } else {
          output = await callTool(call.name, input)
        }
        const backup = (output as { backup?: string }).backup
        let diff = edits.has(call.name) ? (output as { diff?: string }).diff || undefined : undefined
        if (!diff && backup && edits.has(call.name)) {
          diff = await callTool('diff_snapshot', { id: backup, path: (output as { path: string }).path })
            .then((d) => d.diff)
            .catch(() => undefined)
        }
        // After an edit the project's check runs in the sandbox; what it finds goes to the model with the result.
        const changed = editedPaths(call.name, output)
        if (changed.length > 0) output = withDiagnostics(output, await diagnose(changed).catch(() => null))
        upsertTool(call.id, { state: 'done', output, diff })
        if (backup) {
          // The first change of a request records its snapshot on the request, for Rewind code.
          update((c) => {
            let i = c.items.length - 1
            while (i >= 0 && c.items[i].kind !== 'user') i--
            const u = c.items[i]
            if (u?.kind !== 'user' || u.snapshot) return c
            const items = c.items.slice()
            items[i] = { ...u, snapshot: backup }
            return { ...c, items }
          })
        }
        if (edited) {
          // As Cline does: the model learns that what landed is the user's version, and sees it in the diff.
          return { ...(output as object), user_edited: `The user edited your proposed ${call.name} before allowing it; what was applied is the user's version (the diff shows it), not yours. Build on it.` }
        }
        return output
      } catch (e) {
        const err = toBackendError(e)
        const out = { error: { code: err.code, message: err.message, ...(err.path ? { path: err.path } : {}) } }
        upsertTool(call.id, { state: 'failed', output: out, error: out.error })
        return out
      }
    },
    [specs, settings, upsertTool, update],
  )

  const send = useCallback(
    async (text: string, opts: { resume?: boolean } = {}) => {
      const provider = provs?.providers.find((p) => p.id === provs.active)
      if (!provider || running || !ready) return
      if (!provider.model) {
        update((c) => ({ ...c, items: [...c.items, { kind: 'notice', id: `n${Date.now()}`, tone: 'error', text: `Choose a model for ${provider.name} in Settings first.` }] }))
        return
      }
      let model: LanguageModel
      try {
        model = makeModel(provider, provider.model)
      } catch (e) {
        update((c) => ({ ...c, items: [...c.items, { kind: 'notice', id: `n${Date.now()}`, tone: 'error', text: String(e) }] }))
        return
      }
      setRunning(true)
      const notes = convRef.current.notes ?? []
      // Files mentioned with @path (or @path:10-20) go with the request.
      const { attachments, attached } = await attachMentions(text, (path, offset, limit) => callTool('read_file', { path, offset, limit }))
      const content = [notes.join('\n'), text, attachments].filter(Boolean).join('\n\n')
      const userMsg = { role: 'user' as const, content }
      if (opts.resume) {
        // Continue: the model picks up after its last tool results, with no new request from the user.
        update((c) => ({ ...c, halt: undefined, ...(notes.length ? { notes: [], messages: [...c.messages, { role: 'user' as const, content: notes.join('\n') }] } : {}) }))
      } else {
        update((c) => ({
          ...c,
          title: c.title || titleFrom(text),
          notes: [],
          halt: undefined,
          items: [...c.items, { kind: 'user', id: `u${Date.now()}`, text, at: c.messages.length, ...(attached.length ? { attached } : {}) }],
          messages: [...c.messages, userMsg],
        }))
      }
      const ctl = new AbortController()
      abort.current = ctl
      const window = await contextWindow(provider, provider.model)
      const loaded = await loadInstructions().catch(() => null)
      setExtra(loaded)
      let textId = ''
      let thinkId = ''
      const onEvent = (e: TurnEvent) => {
        switch (e.type) {
          case 'text':
            thinkId = ''
            update((c) => {
              const last = c.items[c.items.length - 1]
              if (last?.kind === 'assistant' && last.id === textId) {
                return { ...c, items: [...c.items.slice(0, -1), { ...last, text: last.text + e.delta }] }
              }
              textId = `a${Date.now()}${Math.random().toString(36).slice(2, 5)}`
              return { ...c, items: [...c.items, { kind: 'assistant', id: textId, text: e.delta }] }
            })
            break
          case 'reasoning':
            update((c) => {
              const last = c.items[c.items.length - 1]
              if (last?.kind === 'reasoning' && last.id === thinkId) {
                return { ...c, items: [...c.items.slice(0, -1), { ...last, text: last.text + e.delta }] }
              }
              thinkId = `r${Date.now()}${Math.random().toString(36).slice(2, 5)}`
              textId = ''
              return { ...c, items: [...c.items, { kind: 'reasoning', id: thinkId, text: e.delta }] }
            })
            break
          case 'compacting':
            setCompacting(true)
            break
          case 'compacted':
            setCompacting(false)
            textId = ''
            update((c) => ({ ...c, items: [...c.items, { kind: 'compaction', id: `k${Date.now()}`, summary: e.summary, before: e.before, after: e.after, summarised: e.summarised }] }))
            break
          case 'tool-call':
            textId = ''
            update((c) => (c.items.some((it) => it.kind === 'tool' && it.id === e.id) ? c : { ...c, items: [...c.items, { kind: 'tool', id: e.id, name: e.name, input: e.input, state: 'running' }] }))
            break
          case 'tool-result': {
            const err = errorOf(e.output)
            update((c) => ({
              ...c,
              items: c.items.map((it): Item => (it.kind === 'tool' && it.id === e.id && it.state === 'running' ? { ...it, state: err ? 'failed' : 'done', output: e.output, error: err } : it)),
            }))
            break
          }
          case 'step':
            update((c) => ({
              ...c,
              usage: { input: c.usage.input + e.input, output: c.usage.output + e.output, cached: (c.usage.cached ?? 0) + e.cached, last: { input: e.input, output: e.output, cached: e.cached } },
              context: { ...c.context, used: e.input + e.output, window },
            }))
            break
          case 'error':
            update((c) => ({ ...c, items: [...c.items, { kind: 'notice', id: `n${Date.now()}`, tone: 'error', text: e.message }] }))
            break
        }
      }
      const cwd = await callTool('get_working_directory', {}).catch(() => null)
      const repo = await repoInfo().catch(() => null)
      const res = await runTurn({
        model,
        instructions: instructions({ root: project.root, cwd: cwd?.cwd ?? project.cwd, os: navigator.platform || 'unknown', allowlist: settings?.allowlist ?? [], extra: loaded ?? undefined, repo, plan: convRef.current.planMode }),
        maxSteps: stepLimit(),
        messages: [...convRef.current.messages],
        specs,
        execute,
        onEvent,
        signal: ctl.signal,
        window,
        calibration: convRef.current.context?.calibration,
        local: { [planToolName]: planTool((plan) => update((c) => ({ ...c, plan }))) },
      })
      setCompacting(false)
      update((c) => {
        const items = c.items.slice()
        if (res.finish === 'stopped') items.push({ kind: 'notice', id: `n${Date.now()}`, tone: 'info', text: 'Stopped.' })
        let halt: Conversation['halt']
        if (res.finish === 'step-limit') halt = { kind: 'step-limit', reason: `Stopped after ${stepLimit()} steps, the step limit. Continue to let the agent go on, or tell it what to do.` }
        if (res.finish === 'repeated') halt = { kind: 'repeated', reason: `Stopped: ${res.reason}. Tell the agent how to go on, or Continue.` }
        if (halt) items.push({ kind: 'notice', id: `n${Date.now()}`, tone: 'info', text: halt.reason })
        return { ...c, items, halt, messages: res.replaced ?? [...c.messages, ...res.messages], context: c.context ? { ...c.context, calibration: res.calibration } : c.context }
      })
      abort.current = null
      setRunning(false)
      await flush()
    },
    [provs, running, ready, makeModel, update, project, settings, specs, execute, flush],
  )

  // compactNow summarises the older part of the conversation on the user's request.
  const compactNow = useCallback(async () => {
    const provider = provs?.providers.find((p) => p.id === provs.active)
    if (!provider?.model || running) return
    const { older, recent } = splitForCompaction(convRef.current.messages)
    if (older.length === 0) {
      update((c) => ({ ...c, items: [...c.items, { kind: 'notice', id: `n${Date.now()}`, tone: 'info', text: 'Nothing to compact yet: the conversation is one turn.' }] }))
      return
    }
    setRunning(true)
    setCompacting(true)
    try {
      const summary = await summarise(makeModel(provider, provider.model), older)
      update((c) => ({
        ...c,
        messages: compactedMessages(summary, recent),
        items: [...c.items, { kind: 'compaction', id: `k${Date.now()}`, summary, before: 0, after: 0, summarised: older.length }],
      }))
    } catch (e) {
      update((c) => ({ ...c, items: [...c.items, { kind: 'notice', id: `n${Date.now()}`, tone: 'error', text: `Compacting failed: ${String(e)}` }] }))
    } finally {
      setCompacting(false)
      setRunning(false)
      await flush()
    }
  }, [provs, running, makeModel, update, flush])

  // rewind takes the conversation back to just before the request at index i: its code (the snapshot before that
  // request's first change, restored through restore_snapshot, which backs up first so a rewind can be undone),
  // its conversation (cut there; what is cut is kept in rewound), or both. It returns the request's text.
  const rewind = useCallback(
    async (i: number, what: { code: boolean; conversation: boolean }): Promise<string | undefined> => {
      if (running) return undefined
      const c = convRef.current
      const it = c.items[i]
      if (it?.kind !== 'user') return undefined
      const notes: string[] = []
      const shown: Item[] = [] // notices go in after the cut, or the cut would take them away
      if (what.code) {
        const snap = snapshotBefore(c.items, i)
        if (snap) {
          try {
            const res = await callTool('restore_snapshot', { id: snap })
            notes.push(`(Rooted: the user rewound the project's files to before the request "${titleFrom(it.text)}"; earlier reads may be out of date.)`)
            shown.push({ kind: 'notice', id: `n${Date.now()}`, tone: 'info', text: `Files rewound to before “${titleFrom(it.text)}” (undo: restore ${String((res as { backup?: string }).backup ?? '').slice(0, 12)} from History).` })
          } catch (e) {
            const err = toBackendError(e)
            update((x) => ({ ...x, items: [...x.items, { kind: 'notice', id: `n${Date.now()}`, tone: 'error', text: `Rewinding the files failed: ${err.code}: ${err.message}` }] }))
            return undefined
          }
        }
      }
      if (what.conversation) {
        const cut = cutBefore(convRef.current, i)
        if (!cut) {
          update((x) => ({ ...x, items: [...x.items, { kind: 'notice', id: `n${Date.now()}`, tone: 'error', text: 'The conversation cannot be cut there: it was compacted since.' }] }))
          return undefined
        }
        update(() => ({ ...cut.kept, notes: [...(cut.kept.notes ?? []), ...notes], rewound: [...(cut.kept.rewound ?? []), { at: new Date().toISOString(), ...cut.cut }] }))
      } else if (notes.length) {
        update((x) => ({ ...x, notes: [...(x.notes ?? []), ...notes] }))
      }
      if (shown.length) update((x) => ({ ...x, items: [...x.items, ...shown] }))
      await flush()
      return it.text
    },
    [running, update, flush],
  )

  const setPlanMode = useCallback((on: boolean) => update((c) => ({ ...c, planMode: on })), [update])

  const stop = useCallback(() => {
    abort.current?.abort()
    for (const cancel of runningCalls.current.values()) cancel()
  }, [])

  const answer = useCallback((id: string, a: Approval) => waiting.current.get(id)?.(a), [])

  const undo = useCallback(
    async (item: ToolItem) => {
      const out = item.output as { backup?: string; path?: string }
      if (!out.backup || !out.path) return
      await callTool('restore_snapshot', { id: out.backup, paths: [out.path] })
      update((c) => ({
        ...c,
        notes: [...(c.notes ?? []), `(Rooted: the user undid your ${item.name} of ${out.path}; it is back as it was before that edit.)`],
        items: c.items.map((it) => (it.kind === 'tool' && it.id === item.id ? { ...it, undone: true } : it)),
      }))
      await flush()
    },
    [update, flush],
  )

  const open = useCallback(
    async (id: string) => {
      if (running) return
      await flush()
      const meta = list.find((m) => m.id === id)
      const body = await loadConversation(id)
      grants.current = noGrants()
      const c = restore(id, meta?.title ?? '', body)
      convRef.current = c
      setConv(c)
    },
    [running, flush, list],
  )

  const startNew = useCallback(async () => {
    if (running) return
    await flush()
    grants.current = noGrants()
    const c = newConversation()
    convRef.current = c
    setConv(c)
  }, [running, flush])

  const rename = useCallback(
    async (id: string, title: string) => {
      await renameConversation(id, title)
      if (convRef.current.id === id) setConv((c) => ({ ...c, title }))
      refreshList()
    },
    [refreshList],
  )

  const remove = useCallback(
    async (id: string) => {
      await deleteConversation(id)
      if (convRef.current.id === id) {
        const c = newConversation()
        convRef.current = c
        setConv(c)
      }
      refreshList()
    },
    [refreshList],
  )

  return { rewind, setPlanMode, conv, list, running, ready, providers: provs, settings, extra, compacting, send, stop, answer, undo, open, startNew, rename, remove, compactNow, refreshProviders, refreshSettings, setSettings }
}
