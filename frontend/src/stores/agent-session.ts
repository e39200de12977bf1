import { useCallback, useEffect, useMemo, useRef, useState } from 'react'
import { describeImage, userContent, type PastedImage } from '../lib/paste-image'
import { toBackendError, type Project } from '../bridge'
import { useBridge } from '../stores/project-scope'
import { expandCommand } from '../agent/commands'
import { cutBefore, snapshotBefore, titleFrom, type Item, type ToolItem } from '../agent/conversation'
import { compactedMessages, splitForCompaction } from '../agent/context'
import { attachMentions } from '../agent/mentions'
import { planTool, planToolName } from '../agent/plan'
import { runTurn, summarise, type Execute, type TurnEvent } from '../agent/run-turn'
import { forModel, hydrate } from '../agent/stored'
import { spawnAgentName, spawnAgentTool } from '../agent/subagent'
import { instructions } from '../agent/system-prompt'
import { applyTurnEvent, endTurn, newStream, timeId, withNotice } from '../agent/turn-state'
import { contextWindow, createModel } from '../llm/providers'
import { relayFetch } from '../llm/relay-fetch'
import { nameSnapshot, webStorage } from '../lib/snapshot-names'
import { watchRetries } from '../llm/retry-watch'
import type { TurnActivity } from '../agent/progress'
import type { LanguageModel } from 'ai'
import { useAgentConfig } from './agent-config'
import { useConversationStore } from './conversation-store'
import { useStable } from '../lib/use-stable'
import { stepLimit } from './step-limit'
import { useToolCalls } from './tool-calls'

export type { Approval } from './tool-calls'

// Pending is a message the user sent while the agent worked: given to the model at its next step ('step'), or
// sent as the next request when the turn ends ('next').
export interface Pending {
  id: string
  text: string
  mode: 'step' | 'next'
}

// ModelFactory makes the model for a provider; tests and the window use the real one.
export type ModelFactory = typeof createModel

// useAgentSession runs the agent for the open project. The parts live in their own hooks: what the agent works
// with (useAgentConfig), the conversation and its saving (useConversationStore), the tool calls and their
// approvals (useToolCalls); how each event changes the conversation is agent/turn-state. Here they meet: a
// request's turn, compaction, rewind, undo and switching conversations.
export function useAgentSession(project: Project, makeModel: ModelFactory = createModel) {
  const { callTool, command, repoInfo, workspace } = useBridge()
  const cfg = useAgentConfig(project.root)
  const store = useConversationStore(project.root)
  const { convRef, update, flush } = store
  // What the status row says besides the log's own cards: a provider retry's countdown, the post-edit check.
  const [retry, setRetry] = useState<TurnActivity['retry']>()
  const [checking, setChecking] = useState<string[] | undefined>()
  const onCheck = useCallback((paths: string[] | null) => setChecking(paths ?? undefined), [])
  // Each snapshot a change took is named after the request that made it, for History.
  const name = useCallback(
    (id: string | undefined, text: string) => {
      const st = webStorage()
      if (st && id) nameSnapshot(st, project.root, id, text)
    },
    [project.root],
  )
  const onBackup = useCallback(
    (id: string) => {
      const req = convRef.current.items.findLast((x) => x.kind === 'user')
      if (req?.kind === 'user') name(id, `Before: ${titleFrom(req.text)}`)
    },
    [convRef, name],
  )
  const tools = useToolCalls({ specs: cfg.specs, settings: cfg.settings, convRef, update, onCheck, onBackup, textOnly: cfg.provider?.text_only })
  const [running, setRunning] = useState(false)
  const [compacting, setCompacting] = useState(false)
  const abort = useRef<AbortController | null>(null)
  // The messages sent while the agent works, in order; the ref is what a running turn reads.
  const [queue, setQueueState] = useState<Pending[]>([])
  const queueRef = useRef<Pending[]>([])
  const setQueue = useCallback((f: (q: Pending[]) => Pending[]) => {
    queueRef.current = f(queueRef.current)
    setQueueState(queueRef.current)
  }, [])
  // filesSeq counts the changes made to the files from outside a turn (a review's revert, Undo all), for the
  // turns' bars to count their files again.
  const [filesSeq, setFilesSeq] = useState(0)

  // afterTurn is set when a turn ended on its own: what is still queued then is sent as the next request.
  const afterTurn = useRef(false)
  const notice = useCallback((tone: 'error' | 'info', text: string) => update((c) => withNotice(c, tone, text)), [update])

  const { provider, settings, specs, settledSpecs, ready, reloadInstructions } = cfg
  const { execute } = tools

  const send = useCallback(
    async (text: string, opts: { resume?: boolean; images?: PastedImage[] } = {}) => {
      if (!provider || running || !ready) return
      if (!provider.model) {
        notice('error', `Choose a model for ${provider.name} in Settings first.`)
        return
      }
      let model: LanguageModel
      try {
        // The SDK retries a busy provider by itself; the fetch it uses tells the status row how long it waits.
        const onRetry = (r: { attempt: number; status?: number; waitMs: number }) => setRetry({ until: Date.now() + r.waitMs, attempt: r.attempt, status: r.status })
        model = makeModel(provider, provider.model, watchRetries(relayFetch(provider.id), onRetry))
      } catch (e) {
        notice('error', String(e))
        return
      }
      // /name args runs a command: the model gets its body, the conversation shows what was typed.
      const expanded = await expandCommand(text, (name) => command(name)).catch((e: unknown) => {
        notice('error', `${text.trim().split(/\s/)[0]}: ${toBackendError(e).message}`)
        return null
      })
      if (!expanded) return
      const request = expanded.content
      setRunning(true)
      const ctl = new AbortController()
      abort.current = ctl
      try {
        const notes = convRef.current.notes ?? []
        // Comments the user left on lines of a review go with the request, one `path:line: text` a line.
        const comments = convRef.current.comments ?? []
        // Files mentioned with @path (or @path:10-20) go with the request: this conversation's model reads them, so
        // the read is recorded as this conversation's (it may then edit them; another conversation may not).
        const { attachments, attached } = await attachMentions(text, (path, offset, limit) => callTool('read_file', { path, offset, limit }, convRef.current.id))
        const commented = comments.length ? `Comments on your changes:\n${comments.join('\n')}` : ''
        const content = [notes.join('\n'), request, commented, attachments].filter(Boolean).join('\n\n')
        const images = opts.images ?? []
        if (opts.resume) {
          // Continue: the model picks up after its last tool results, with no new request from the user.
          const told = [notes.join('\n'), commented].filter(Boolean).join('\n\n')
          update((c) => ({ ...c, halt: undefined, comments: [], ...(told ? { notes: [], messages: [...c.messages, { role: 'user' as const, content: told }] } : {}) }))
        } else {
          update((c) => ({
            ...c,
            title: c.title || titleFrom(text),
            notes: [],
            comments: [],
            halt: undefined,
            items: [
              ...c.items,
              {
                kind: 'user',
                id: `u${Date.now()}`,
                text,
                at: c.messages.length,
                ...(attached.length || images.length || comments.length ? { attached: [...attached, ...images.map(describeImage), ...comments.map((k) => `comment ${k.split(': ')[0]}`)] } : {}) },
            ],
            // Pasted images go as file parts; the conversation store keeps each base64 once, by hash, beside the log.
            messages: [...c.messages, { role: 'user' as const, content: userContent(content, images) }],
          }))
        }
        const window = await contextWindow(provider, provider.model)
        const loaded = await reloadInstructions()
        let stream = newStream()
        const onEvent = (e: TurnEvent) => {
          setRetry(undefined) // the provider answered
          const r = applyTurnEvent(convRef.current, stream, e, window, timeId)
          stream = r.stream
          if (r.compacting !== undefined) setCompacting(r.compacting)
          // An answer (or a model's reasoning) streams in many pieces a frame: the window draws them once a frame.
          update(() => r.conv, e.type === 'text' || e.type === 'reasoning' ? 'frame' : 'now')
        }
        const cwd = await callTool('get_working_directory', {}).catch(() => null)
        const repo = await repoInfo().catch(() => null)
        const limit = await stepLimit()
        // The project's MCP servers still starting are waited for, so the model gets their tools; the calls are
        // checked against the same list. Stop ends the wait.
        const stopped = new Promise<null>((resolve) => ctl.signal.addEventListener('abort', () => resolve(null), { once: true }))
        const turnSpecs = (await Promise.race([settledSpecs(), stopped])) ?? specs
        if (ctl.signal.aborted) return
        const turnExecute: Execute = (call, sig) => execute(call, sig, turnSpecs)
        const system = instructions({ root: project.root, cwd: cwd?.cwd ?? project.cwd, os: navigator.platform || 'unknown', allowlist: settings?.allowlist ?? [], extra: loaded ?? undefined, repo, plan: convRef.current.planMode, window })
        const res = await runTurn({
          model,
          instructions: system,
          maxSteps: limit,
          messages: await forModel(workspace, convRef.current.id, convRef.current.messages),
          specs: turnSpecs,
          execute: turnExecute,
          onEvent,
          signal: ctl.signal,
          window,
          calibration: convRef.current.context?.calibration,
          price: provider.price,
          reasoning: provider.effort || undefined,
          steer: () => {
            const now = queueRef.current.filter((p) => p.mode === 'step')
            if (now.length === 0) return []
            setQueue((q) => q.filter((p) => p.mode !== 'step'))
            update((c) => ({ ...c, items: [...c.items, ...now.map((p): Item => ({ kind: 'steer', id: timeId('q'), text: p.text }))] }))
            return now.map((p) => `Sent while you worked: ${p.text}`)
          },
          local: {
            [planToolName]: planTool((plan) => update((c) => ({ ...c, plan }))),
            [spawnAgentName]: spawnAgentTool({ model, specs: turnSpecs, execute: turnExecute, instructions: system, onEvent, window, price: provider.price, reasoning: provider.effort || undefined }),
          },
        })
        update((c) => endTurn(c, res, limit))
      } catch (e) {
        // runTurn reports the model's failures as events; what lands here is Rooted's own (a bridge call that
        // threw): the panel says so and the next request can run.
        notice('error', `The request failed: ${String(e)}`)
      } finally {
        afterTurn.current = !ctl.signal.aborted
        setCompacting(false)
        setRetry(undefined)
        setChecking(undefined)
        abort.current = null
        setRunning(false)
        await flush()
      }
    },
    [provider, running, ready, notice, makeModel, command, convRef, reloadInstructions, callTool, repoInfo, project.root, project.cwd, settings?.allowlist, workspace, specs, settledSpecs, execute, update, setQueue, flush],
  )

  // compactNow summarises the older part of the conversation on the user's request.
  const compactNow = useCallback(async () => {
    if (!provider?.model || running) return
    const { older, recent } = splitForCompaction(await forModel(workspace, convRef.current.id, convRef.current.messages))
    if (older.length === 0) {
      notice('info', 'Nothing to compact yet: the conversation is one turn.')
      return
    }
    setRunning(true)
    setCompacting(true)
    try {
      const summary = await summarise(makeModel(provider, provider.model), older)
      update((c) => ({
        ...c,
        messages: compactedMessages(summary, recent),
        items: [...c.items, { kind: 'compaction', id: timeId('k'), summary, before: 0, after: 0, summarised: older.length }],
      }))
    } catch (e) {
      notice('error', `Compacting failed: ${String(e)}`)
    } finally {
      setCompacting(false)
      setRunning(false)
      await flush()
    }
  }, [provider, running, workspace, convRef, notice, makeModel, update, flush])

  // rewind takes the conversation back to just before the request at index i: its code (the snapshot before that
  // request's first change, restored through restore_snapshot, which backs up first so a rewind can be undone),
  // its conversation (cut there; what is cut is kept in rewound), or both. It returns the request's text.
  const rewind = useCallback(
    async (i: number, what: { code: boolean; conversation: boolean }): Promise<string | undefined> => {
      if (running) return undefined
      const c = convRef.current
      const it = await hydrate(workspace, c.id, c.items[i]) // a long request was stored apart from the log
      if (it?.kind !== 'user') return undefined
      const notes: string[] = []
      const shown: Item[] = [] // notices go in after the cut, or the cut would take them away
      if (what.code) {
        const snap = snapshotBefore(c.items, i)
        if (snap) {
          try {
            const res = await callTool('restore_snapshot', { id: snap })
            notes.push(`(Rooted: the user rewound the project's files to before the request "${titleFrom(it.text)}"; earlier reads may be out of date.)`)
            const backup = (res as { backup?: string }).backup
            name(backup, `Before restoring to before “${titleFrom(it.text)}”`)
            shown.push({ kind: 'notice', id: timeId('n'), tone: 'info', text: `Files rewound to before “${titleFrom(it.text)}”.`, ...(backup ? { undo: backup } : {}) })
          } catch (e) {
            const err = toBackendError(e)
            notice('error', `Rewinding the files failed: ${err.code}: ${err.message}`)
            return undefined
          }
        }
      }
      if (what.conversation) {
        const cut = cutBefore(convRef.current, i)
        if (!cut) {
          notice('error', 'The conversation cannot be cut there: it was compacted since.')
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
    [running, convRef, workspace, update, flush, callTool, name, notice],
  )

  // undoRestore puts the files back as they were before a restore: the snapshot the restore took first.
  const undoRestore = useCallback(
    async (noticeId: string) => {
      if (running) return
      const n = convRef.current.items.find((x) => x.id === noticeId)
      if (n?.kind !== 'notice' || !n.undo || n.undone) return
      try {
        const res = await callTool('restore_snapshot', { id: n.undo })
        name((res as { backup?: string }).backup, `Before undo: ${n.text.charAt(0).toLowerCase()}${n.text.slice(1).replace(/\.$/, '')}`)
      } catch (e) {
        const err = toBackendError(e)
        notice('error', `Undoing the restore failed: ${err.code}: ${err.message}`)
        return
      }
      update((c) => ({
        ...c,
        notes: [...(c.notes ?? []), '(Rooted: the user undid the rewind of the files; they are back as they were before it.)'],
        items: c.items.map((x) => (x.id === noticeId && x.kind === 'notice' ? { ...x, undone: true } : x)),
      }))
      setFilesSeq((n) => n + 1)
      await flush()
    },
    [running, convRef, update, flush, callTool, name, notice],
  )

  // restoreFiles puts paths back as they were in snapshot from (a turn's Undo all): restore_snapshot takes a
  // snapshot of them first, which the notice's Undo puts back; the model is told.
  const restoreFiles = useCallback(
    async (from: string, paths: string[], title: string) => {
      if (running) return
      try {
        const res = await callTool('restore_snapshot', { id: from, paths })
        name(res.backup, `Before undoing “${title}”`)
        update((c) => ({
          ...c,
          notes: [...(c.notes ?? []), `(Rooted: the user undid the changes of the request "${title}" to ${paths.join(', ')}; those files are back as they were before it. Earlier reads of them are out of date.)`],
          items: [...c.items, { kind: 'notice', id: timeId('n'), tone: 'info', text: `Undid “${title}”: ${paths.length === 1 ? '1 file' : `${paths.length} files`} back as before it.`, ...(res.backup ? { undo: res.backup } : {}) }],
        }))
      } catch (e) {
        const err = toBackendError(e)
        notice('error', `Undoing the turn failed: ${err.code}: ${err.message}`)
      } finally {
        setFilesSeq((n) => n + 1)
        await flush()
      }
    },
    [running, callTool, name, update, notice, flush],
  )

  // tell adds a note the model reads with the next request (the user reverted a hunk), and names its snapshot.
  const tell = useCallback(
    (note: string, backup?: string, snapshotName?: string) => {
      if (backup && snapshotName) name(backup, snapshotName)
      update((c) => ({ ...c, notes: [...(c.notes ?? []), note] }))
      setFilesSeq((n) => n + 1)
    },
    [name, update],
  )

  // Comments on a review's lines wait here, shown above the request box, until the next request takes them.
  const addComment = useCallback((text: string) => update((c) => ({ ...c, comments: [...(c.comments ?? []), text] })), [update])
  const removeComment = useCallback((k: number) => update((c) => ({ ...c, comments: (c.comments ?? []).filter((_, j) => j !== k) })), [update])

  const setPlanMode = useCallback((on: boolean) => update((c) => ({ ...c, planMode: on })), [update])

  // What is still queued when a turn ends on its own goes as the next request, in one.
  useEffect(() => {
    if (running || !afterTurn.current || queue.length === 0) return
    afterTurn.current = false
    const next = queue.map((p) => p.text).join('\n\n')
    setQueue(() => [])
    void send(next)
  }, [running, queue, send, setQueue])

  const enqueue = useCallback((text: string, mode: Pending['mode'] = 'step') => setQueue((q) => [...q, { id: timeId('p'), text, mode }]), [setQueue])
  const editQueued = useCallback((id: string, change: Partial<Omit<Pending, 'id'>>) => setQueue((q) => q.map((p) => (p.id === id ? { ...p, ...change } : p))), [setQueue])
  const removeQueued = useCallback((id: string) => setQueue((q) => q.filter((p) => p.id !== id)), [setQueue])
  // takeQueue empties the queue and returns its texts (Stop puts them back in the request box).
  const takeQueue = useCallback(() => {
    const texts = queueRef.current.map((p) => p.text)
    setQueue(() => [])
    return texts
  }, [setQueue])

  const { cancelRunning, forgetGrants } = tools
  const stop = useCallback(() => {
    afterTurn.current = false
    abort.current?.abort()
    cancelRunning()
  }, [cancelRunning])
  // The session unmounts when its project closes (or, idle, when another conversation is shown): a turn still
  // running stops with it, so no call of a conversation nobody can see or stop goes out.
  // (stop is stable: cancelRunning never changes, so this runs on unmount only.)
  useEffect(() => stop, [stop])

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
    [callTool, update, flush],
  )

  // Another conversation starts with no grants: what the user allowed was allowed for that one.
  const { open: openStored, startNew: startStored } = store
  const open = useCallback(
    async (id: string, title?: string) => {
      if (running) return false
      const ok = await openStored(id, title)
      if (ok) forgetGrants()
      return ok
    },
    [running, forgetGrants, openStored],
  )
  const startNew = useCallback(async () => {
    if (running) return false
    const ok = await startStored()
    if (ok) forgetGrants()
    return ok
  }, [running, forgetGrants, startStored])

  const providerName = provider?.name ?? 'the model'
  const activity = useMemo(() => ({ provider: providerName, retry, checking, compacting }) satisfies TurnActivity, [providerName, retry, checking, compacting])
  // The session is one object for as long as nothing in it changes, so what takes it whole (the log, its cards) is
  // not rendered again when the pane renders for something else (Send turning on as the first key is typed).
  return useStable({
    rewind,
    undoRestore,
    restoreFiles,
    tell,
    queue,
    enqueue,
    editQueued,
    removeQueued,
    takeQueue,
    addComment,
    removeComment,
    filesSeq,
    setPlanMode,
    conv: store.conv,
    list: store.list,
    saveError: store.saveError,
    flush: store.flush,
    running,
    ready,
    providers: cfg.providers,
    settings,
    extra: cfg.extra,
    compacting,
    activity,
    send,
    stop,
    answer: tools.answer,
    undo,
    open,
    startNew,
    rename: store.rename,
    remove: store.remove,
    compactNow,
    refreshProviders: cfg.refreshProviders,
    refreshSettings: cfg.refreshSettings,
    setSettings: cfg.setSettings,
  })
}
