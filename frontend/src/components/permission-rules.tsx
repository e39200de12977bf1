import { useEffect, useState } from 'react'
import { toBackendError, type BackendError, type Rule, type RuleAction } from '../bridge'
import { useBridge } from '../stores/project-scope'
import { ruleActions, ruleTools, ruleWords } from '../lib/rule-words'
import { useQueue } from '../lib/use-queue'
import { ErrorNotice } from './error-notice'
import { FieldNote, parseAny, useAutoField, type Parsed } from './auto-field'

// parseSeconds reads when a command moves to the background: empty for the default, "never", or whole seconds.
function parseSeconds(t: string): Parsed<number> {
  const v = t.trim()
  if (v === '') return { ok: true, value: 0 }
  if (v === 'never') return { ok: true, value: -1 }
  const n = Number(v)
  return Number.isInteger(n) && n > 0 ? { ok: true, value: n } : { ok: false, error: 'whole seconds, “never”, or empty for 60' }
}

const blank: Rule = { action: 'allow', tool: 'exec_shell', command: '' }

// PermissionRules lists and edits the open project's permission rules (allow, ask or deny a command prefix or a
// whole tool; deny wins) and when a long command moves to the background. Rules are kept in the user's settings,
// never in the project.
export function PermissionRules() {
  const { addPermissionRule, backgroundAfter, diagnosticsMode, permissionRules, removePermissionRule, setBackgroundAfter, setDiagnosticsMode } = useBridge()
  const [rules, setRules] = useState<Rule[] | null>(null)
  const [draft, setDraft] = useState<Rule>(blank)
  const [error, setError] = useState<BackendError | null>(null)
  const [saved, setSaved] = useState('')
  // The two settings below the rules save as they change (useAutoField), each saying Saved or its error.
  const after = useAutoField(parseSeconds, (sec) =>
    setBackgroundAfter(sec).then((s) => setSaved(s < 0 ? 'commands never move to the background by themselves' : `commands still running after ${s || 60} s move to the background`)),
  )
  const check = useAutoField(parseAny, (m) =>
    setDiagnosticsMode(m.trim()).then((v) => setSaved(v === 'off' ? 'no check after edits' : v ? `${v} runs after the agent's edits` : 'the check after edits is found per file (go vet, tsc, cargo check)')),
  )
  const { load: loadAfter } = after
  const { load: loadCheck } = check
  useEffect(() => {
    permissionRules()
      .then(setRules)
      .catch((e: unknown) => setError(toBackendError(e)))
    backgroundAfter()
      .then((s) => loadAfter(s < 0 ? 'never' : s === 0 ? '' : String(s)))
      .catch(() => undefined)
    diagnosticsMode()
      .then(loadCheck)
      .catch(() => undefined)
  }, [backgroundAfter, diagnosticsMode, loadAfter, loadCheck, permissionRules])
  // A change adds or removes one rule, named by what it says, never a whole list written back: a rule added meanwhile
  // (an approval card's Always) stays. Changes go one after the other, so their answers, each the whole list as it
  // then is, come in the order they were made.
  const queue = useQueue()
  const save = (change: () => Promise<Rule[]>, what: string) =>
    queue(change)
      .then((r) => {
        setRules(r)
        setError(null)
        setSaved(what)
      })
      .catch((e: unknown) => setError(toBackendError(e)))
  if (!rules) return error ? <ErrorNotice error={error} /> : null
  return (
    <section className="permission-rules" data-testid="permission-rules">
      <h3 id="settings-permissions">Permissions in this project</h3>
      <p className="muted">
        Commands match by their words (<code>go test</code> covers <code>go test ./...</code>); deny wins over allow. Reading git commands (status, diff, log) run without asking; those that destroy or
        publish (push, reset --hard, clean, rebase, branch -D, rm -r) ask even when their program is allowed, unless a rule names them.
      </p>
      {error ? <ErrorNotice error={error} /> : null}
      {saved ? <div className="settings-saved" data-testid="rules-saved">{saved}</div> : null}
      <ul className="rule-list">
        {rules.length === 0 ? <li className="tree-empty">no rules: every command asks, except reading git commands</li> : null}
        {rules.map((r) => (
          <li key={`${r.action}-${r.tool}-${r.command}-${r.domain ?? ''}`} data-testid="rule" data-action={r.action} data-command={r.command} data-domain={r.domain}>
            <span className={`rule-action ${r.action}`}>{ruleWords(r).action}</span> <span className="rule-kind">{ruleWords(r).kind}</span>
            {ruleWords(r).what ? <code title={r.tool}>{ruleWords(r).what}</code> : null}
            <button className="link-button" data-testid="rule-remove" onClick={() => void save(() => removePermissionRule(r), `removed: ${ruleWords(r).action} · ${ruleWords(r).kind}${ruleWords(r).what ? ` · ${ruleWords(r).what}` : ''}`)}>
              Remove
            </button>
          </li>
        ))}
      </ul>
      <form
        className="rule-form"
        onSubmit={(ev) => {
          ev.preventDefault()
          void save(() => addPermissionRule(draft), `added: ${ruleWords(draft).action} · ${ruleWords(draft).kind}${ruleWords(draft).what ? ` · ${ruleWords(draft).what}` : ''}`).then(() => setDraft(blank))
        }}
      >
        <select value={draft.action} onChange={(e) => setDraft({ ...draft, action: e.target.value as RuleAction })} aria-label="Action" data-testid="rule-action">
          <option value="allow">{ruleActions.allow}</option>
          <option value="ask">{ruleActions.ask}</option>
          <option value="deny">{ruleActions.deny}</option>
        </select>
        <select value={draft.tool} onChange={(e) => setDraft({ ...draft, tool: e.target.value, command: e.target.value === 'exec_shell' ? draft.command : '' })} aria-label="Tool" data-testid="rule-tool">
          {['exec_shell', 'write_file', 'patch_file', 'restore_snapshot', 'job_kill', 'web_search'].map((t) => (
            <option key={t} value={t}>
              {ruleTools[t]}
            </option>
          ))}
        </select>
        {draft.tool === 'exec_shell' ? (
          <input value={draft.command} onChange={(e) => setDraft({ ...draft, command: e.target.value })} placeholder="npm run build" aria-label="Command prefix" data-testid="rule-command" spellCheck={false} />
        ) : null}
        <button type="submit" data-testid="rule-add">Add rule</button>
      </form>
      <div className="settings-fields">
        <label>
          Move a command still running to the background after (seconds; empty: 60; “never”){' '}
          <input value={after.text} onChange={(e) => after.change(e.target.value)} placeholder="60" size={6} aria-invalid={!!after.error} data-testid="background-after" />
          <FieldNote field={after} id="background-after" />
        </label>
        <label>
          Check after the agent&apos;s edits (empty: go vet, tsc or cargo check for the files changed; “off”; or a command){' '}
          <input value={check.text} onChange={(e) => check.change(e.target.value)} placeholder="automatic" size={24} aria-invalid={!!check.error} data-testid="diagnostics-mode" spellCheck={false} />
          <FieldNote field={check} id="diagnostics-mode" />
        </label>
      </div>
    </section>
  )
}
