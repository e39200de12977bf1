import { useCallback, useRef, type RefObject } from 'react'
import { toBackendError, type ProjectSettings, type ToolSpec } from '../bridge'
import { useBridge } from '../stores/project-scope'
import { denial, needsApproval, noGrants, sessionGrant, type Grants } from '../agent/approvals'
import { askUserInput, askUserName } from '../agent/ask-user'
import type { Conversation, HostAskItem } from '../agent/conversation'
import { editedPaths, withDiagnostics } from '../agent/diagnostics'
import { imageRefused } from '../agent/images'
import { upsertTool, withRequestSnapshot, type ToolPatch } from '../agent/turn-state'

// An allowed call may carry the user's edit of it (the proposed text changed before allowing).
// A question (ask_user) is settled by the user's reply.
export type Approval = { kind: 'once'; input?: Record<string, unknown> } | { kind: 'session'; input?: Record<string, unknown> } | { kind: 'deny'; reason: string } | { kind: 'reply'; text: string }

const edits = new Set(['write_file', 'patch_file'])

export interface ToolCallDeps {
  specs: ToolSpec[]
  settings: ProjectSettings | null
  convRef: RefObject<Conversation>
  update: (f: (c: Conversation) => Conversation, when?: 'now' | 'frame') => void
  // onCheck hears when the post-edit check starts (the files) and ends (null), for the status row.
  onCheck?: (paths: string[] | null) => void
  // onBackup hears of each snapshot a call took before its change, to name it after the request.
  onBackup?: (id: string) => void
  // textOnly says the model takes no images (Settings): an image a tool returns is unsupported_media for it.
  textOnly?: boolean
}

// failure is the result a model gets for a call that threw: the backend's code, message and path.
function failure(e: unknown) {
  const err = toBackendError(e)
  return { error: { code: err.code, message: err.message, ...(err.path ? { path: err.path } : {}) } }
}

// useToolCalls runs the model's tool calls: the backend's check first, plan mode, the user's approval (with an
// edit's dry-run diff to look at, and grants for the session), the call itself with a command's live output, and
// after an edit its diff and the project's diagnostics. Every step shows on the call's card.
export function useToolCalls({ specs, settings, convRef, update, onCheck, onBackup, textOnly }: ToolCallDeps) {
  const { callTool, checkCall, diagnose, runTool } = useBridge()
  const grants = useRef<Grants>(noGrants())
  const waiting = useRef(new Map<string, (a: Approval) => void>())
  const running = useRef(new Map<string, () => void>())

  const card = useCallback((id: string, patch: ToolPatch, when?: 'now' | 'frame') => update((c) => upsertTool(c, id, patch), when), [update])

  const execute = useCallback(
    // known: the tool list the turn was sent with, when it is newer than the one this hook was last given.
    async (call: { id: string; name: string; input: Record<string, unknown> }, signal: AbortSignal | undefined, known?: ToolSpec[]): Promise<unknown> => {
      const spec = (known ?? specs).find((s) => s.name === call.name)
      if (!spec) return { error: { code: 'unknown_tool', message: `no tool named ${call.name}` } }
      // The window answers ask_user itself: the question waits in the conversation for the user's reply.
      if (call.name === askUserName) {
        const question = askUserInput(call.input)
        if ('error' in question) {
          card(call.id, { name: call.name, input: call.input, state: 'failed', output: question, error: question.error })
          return question
        }
        card(call.id, { name: call.name, input: call.input, state: 'waiting' })
        const reply = await new Promise<Approval>((resolve) => {
          waiting.current.set(call.id, resolve)
          signal?.addEventListener('abort', () => resolve({ kind: 'deny', reason: 'the user stopped the agent' }), { once: true })
        })
        waiting.current.delete(call.id)
        const out = reply.kind === 'reply' ? { answer: reply.text } : { error: { code: 'no_answer', message: `the user did not answer: ${reply.kind === 'deny' ? reply.reason : 'dismissed'}` } }
        card(call.id, 'error' in out ? { state: 'failed', output: out, error: out.error } : { state: 'done', output: out })
        return out
      }
      // The backend checks the call first (schema, shell syntax, allowlist, deny rules, paths): one that cannot run
      // is answered at once with its error and never shown for approval.
      const check = await checkCall(call.name, call.input).catch(() => null)
      if (check?.error) {
        card(call.id, { name: call.name, input: call.input, state: 'failed', output: check.error, error: check.error.error })
        return check.error
      }
      // Plan mode: only reading and planning. The model gets a clear error it can act on (propose, not do).
      if (convRef.current.planMode && !spec.read_only) {
        const out = { error: { code: 'plan_mode', message: `plan mode is on: ${call.name} changes the project and is not allowed until the user starts the work; finish exploring and present your plan` } }
        card(call.id, { name: call.name, input: call.input, state: 'failed', output: out, error: out.error })
        return out
      }
      let input = call.input
      let edited = false
      if (needsApproval(spec, call.input, grants.current, settings?.auto_approve_edits ?? false, check)) {
        card(call.id, { name: call.name, input: call.input, state: 'waiting' })
        if (edits.has(call.name)) {
          // The card shows the change in its context: the diff a dry run of the same call would make. A dry run
          // refused (no_match, not_read, ...) is the answer the model gets without asking the user.
          try {
            const dry = await callTool(call.name as 'write_file', { ...call.input, dry_run: true } as never, convRef.current.id)
            card(call.id, { preview: (dry as { diff?: string }).diff ?? '' })
          } catch (e) {
            const out = failure(e)
            card(call.id, { state: 'failed', output: out, error: out.error })
            return out
          }
        }
        const answer = await new Promise<Approval>((resolve) => {
          waiting.current.set(call.id, resolve)
          signal?.addEventListener('abort', () => resolve({ kind: 'deny', reason: 'the user stopped the agent' }), { once: true })
        })
        waiting.current.delete(call.id)
        if (answer.kind === 'deny' || answer.kind === 'reply') {
          const out = denial(call.name, answer.kind === 'deny' ? answer.reason : answer.text)
          card(call.id, { state: 'denied', output: out, error: out.error })
          return out
        }
        if (answer.kind === 'session') grants.current = sessionGrant(call.name, call.input, check?.grant)?.grant(grants.current) ?? grants.current
        if (answer.input && JSON.stringify(answer.input) !== JSON.stringify(call.input)) {
          input = answer.input
          edited = true
        }
      }
      card(call.id, { name: call.name, input, state: 'running', ...(edited ? { edited: true } : {}) })
      try {
        let output: unknown
        if (call.name === 'exec_shell') {
          let live = ''
          let asks: HostAskItem[] = []
          const run = runTool(
            'exec_shell',
            call.input,
            (o) => {
              if (o.stream === 'host') {
                asks = [...asks, { call: o.id, host: o.data, port: o.port, ask: o.ask, wait_ms: o.wait_ms }]
                card(call.id, { asks })
                return
              }
              if (o.stream === 'host_ended') {
                asks = asks.map((a) => (a.ask === o.ask ? { ...a, ended: o.ended ?? 'ended' } : a))
                card(call.id, { asks })
                return
              }
              live += o.data
              card(call.id, { live }, 'frame') // a command's output comes in many pieces a frame
            },
            convRef.current.id,
          )
          const stop = () => void run.cancel()
          running.current.set(call.id, stop)
          signal?.addEventListener('abort', stop, { once: true })
          try {
            output = await run.result
          } finally {
            signal?.removeEventListener('abort', stop)
            running.current.delete(call.id)
          }
        } else {
          output = await callTool(call.name, input, convRef.current.id)
        }
        const refused = textOnly ? imageRefused(output) : null
        if (refused) {
          card(call.id, { state: 'failed', output: refused, error: refused.error })
          return refused
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
        if (changed.length > 0) {
          onCheck?.(changed)
          try {
            output = withDiagnostics(output, await diagnose(changed).catch(() => null))
          } finally {
            onCheck?.(null)
          }
        }
        card(call.id, { state: 'done', output, diff })
        // The first change of a request records its snapshot on the request, for Rewind code.
        if (backup) {
          update((c) => withRequestSnapshot(c, backup))
          onBackup?.(backup)
        }
        if (edited) {
          // As Cline does: the model learns that what landed is the user's version, and sees it in the diff.
          return { ...(output as object), user_edited: `The user edited your proposed ${call.name} before allowing it; what was applied is the user's version (the diff shows it), not yours. Build on it.` }
        }
        return output
      } catch (e) {
        const out = failure(e)
        card(call.id, { state: 'failed', output: out, error: out.error })
        return out
      }
    },
    [specs, checkCall, convRef, settings?.auto_approve_edits, card, callTool, textOnly, runTool, onCheck, diagnose, update, onBackup],
  )

  // answer settles the approval the call id waits for.
  const answer = useCallback((id: string, a: Approval) => waiting.current.get(id)?.(a), [])
  // cancelRunning stops the commands still running.
  const cancelRunning = useCallback(() => {
    for (const cancel of running.current.values()) cancel()
  }, [])
  // forgetGrants drops what the user allowed for the session (another conversation starts with none).
  const forgetGrants = useCallback(() => {
    grants.current = noGrants()
  }, [])

  return { execute, answer, cancelRunning, forgetGrants }
}
