import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react'
import { loadSearchEndpoint, saveSearchEndpoint, testProvider, type ProbeResult, deleteProvider, efforts, type Effort, providers as loadProviders, saveProvider, setActiveProvider, toBackendError, type BackendError, type ProjectSettings, type ProjectSettingsInput, type ProviderInput, type ProvidersView, type ProviderView } from '../bridge'
import { useBridge } from '../stores/project-scope'
import { ErrorNotice } from '../components/error-notice'
import { PermissionRules } from '../components/permission-rules'
import { MCPServers } from '../components/mcp-servers'
import { KeyStorageNote } from '../components/key-storage'
import type { Price } from '../llm/cost'
import { setStepLimit, stepLimit } from '../stores/step-limit'
import { useShortcut } from '../components/shortcuts'
import { useSequence } from '../lib/use-sequence'
import { useQueue } from '../lib/use-queue'
import { FieldNote, parseAbsoluteLines, parseAny, parseWhole, parseWords, useAutoField, type AutoField } from '../components/auto-field'

interface Props {
  onClose: (changed: boolean) => void
}

const blank: ProviderInput = { id: '', name: '', kind: 'openai-compatible', base_url: '', model: '', api_key: '', clear_key: false, context_window: 0, price: null }

// PriceText is a model's price as typed: US dollars per million tokens, '' for not given.
interface PriceText {
  input: string
  output: string
  cached: string
}

const priceText = (p: Price | null | undefined): PriceText => ({ input: p ? String(p.input) : '', output: p ? String(p.output) : '', cached: p?.cached_input !== undefined && p?.cached_input !== null ? String(p.cached_input) : '' })

// priceOf reads the typed price: null when nothing is typed (no price), else input and output (the form requires
// both once any is given) and the cached-input price when given.
function priceOf(t: PriceText): Price | null {
  if (!t.input.trim() && !t.output.trim() && !t.cached.trim()) return null
  return { input: Number(t.input), output: Number(t.output), ...(t.cached.trim() ? { cached_input: Number(t.cached) } : {}) }
}

// SettingsScreen edits the model providers (keys go to the backend and are never shown again) and the open
// project's rules: the command allowlist, network, edit approvals, snapshot retention, and the sandbox in force.
// sections are the parts of Settings, in the order they come; the project's need a project open.
const sections = [
  { id: 'settings-providers', label: 'Providers' },
  { id: 'settings-agent', label: 'Agent' },
  { id: 'settings-project', label: 'This project', project: true },
  { id: 'settings-permissions', label: 'Permissions', project: true },
  { id: 'settings-mcp-servers', label: 'MCP servers', project: true },
  { id: 'settings-advanced', label: 'Advanced', project: true },
]

export function SettingsScreen({ onClose }: Props) {
  const { instructions: loadInstructions, saveUserInstructions, projectSettings, saveProjectSettings } = useBridge()
  const [provs, setProvs] = useState<ProvidersView | null>(null)
  const [edit, setEdit] = useState<ProviderInput | null>(null)
  // editing is the id of the saved provider the form edits (null: a new one, added with its button); its changes
  // save as they are made, a moment after the last, when the form is complete.
  const [editing, setEditing] = useState<string | null>(null)
  const [providerNote, setProviderNote] = useState<{ saved: boolean; error?: string } | null>(null)
  const lastProvider = useRef('')
  const [models, setModels] = useState<string[]>([])
  const [price, setPrice] = useState<PriceText>(priceText(null))
  const [proj, setProj] = useState<ProjectSettings | null>(null)
  const [error, setError] = useState<BackendError | null>(null)
  const [saved, setSaved] = useState('')
  const [changed, setChanged] = useState(false)
  const providerProblem = edit ? formProblem(edit, price) : null
  const nextProvs = useSequence()
  const nextProbe = useSequence()
  const nextNote = useSequence()
  // Changes of the providers (saved, made active, removed) go one after the other: each answers with the whole list
  // as it then is, so the last one asked is the last to answer and its list has every change before it.
  // applyProviders runs one and shows the list it answers with, unless a change asked for later (or a read) has been
  // asked since: one answering after a later change's must not put the list back as it was before it.
  const queueProvs = useQueue()
  const applyProviders = useCallback(
    (change: () => Promise<ProvidersView>) => {
      const fresh = nextProvs()
      return queueProvs(change).then((v) => {
        if (fresh()) setProvs(v)
        return v
      })
    },
    [nextProvs, queueProvs],
  )
  useEffect(() => {
    if (!edit || !editing || providerProblem || formKey(edit, price) === lastProvider.current) return
    const key = formKey(edit, price)
    const t = setTimeout(() => {
      const form = nextNote()
      applyProviders(() => saveProvider({ ...edit, price: priceOf(price) }))
        .then(() => {
          if (form()) {
            lastProvider.current = key
            setProviderNote({ saved: true })
          }
          setError(null)
          setSaved(`saved ${edit.name || edit.id}`)
          setChanged(true)
        })
        .catch((e: unknown) => form() && setProviderNote({ saved: false, error: toBackendError(e).message }))
    }, 600)
    return () => clearTimeout(t)
  }, [edit, price, editing, providerProblem, nextNote, applyProviders])
  useShortcut('Esc', () => onClose(changed)) // Esc closes Settings, as Close does
  const fail = (e: unknown) => setError(toBackendError(e))
  const done = (what: string) => {
    setError(null)
    setSaved(what)
    setChanged(true)
  }
  // The backend takes the project's settings whole. Every field and switch saves as it changes, the settings as the
  // change before saved them with its one field changed: the changes run one after the other (useQueue), so two
  // made before the first answered both land rather than the second putting back what the first changed.
  const savedRef = useRef<ProjectSettings | null>(null)
  const queueProject = useQueue()
  const nextProject = useSequence()
  const saveProject = (patch: Partial<ProjectSettingsInput>): Promise<ProjectSettings> => {
    const last = nextProject()
    // Once the last change made has answered (saved or refused), the screen shows the settings as saved; an
    // earlier answer leaves alone what the changes after it show.
    const show = () => last() && savedRef.current && setProj(savedRef.current)
    return queueProject(async () => {
      const base = savedRef.current
      if (!base) throw new Error('the project settings are not read yet')
      const p = await saveProjectSettings({ ...inputOf(base), ...patch })
      savedRef.current = p
      return p
    }).then(
      (p) => {
        show()
        return p
      },
      (e: unknown) => {
        show()
        throw e
      },
    )
  }
  const saveField = (patch: Partial<ProjectSettingsInput>) => saveProject(patch).then(() => done('project settings saved'))
  const allow = useAutoField(parseWords, (v) => saveField({ allowlist: v }))
  const readable = useAutoField(parseAbsoluteLines, (v) => saveField({ readable: v }))
  const sockets = useAutoField(parseAbsoluteLines, (v) => saveField({ unix_sockets: v }))
  const envAllow = useAutoField(parseWords, (v) => saveField({ env_allow: v }))
  const hosts = useAutoField(parseWords, (v) => saveField({ network_hosts: v }))
  const keep = useAutoField(parseWhole(1), (v) => saveField({ snapshot_keep: v }))
  const maxAge = useAutoField(parseWhole(1), (v) => saveField({ snapshot_max_age_days: v }))
  const memory = useAutoField(parseWhole(0), (v) => saveField({ search_memory_mib: v }))
  const steps = useAutoField(parseWhole(1, 10000), (v) =>
    setStepLimit(v).then((n) => done(`the agent stops after ${n} steps of one request and offers Continue`)),
  )
  const userText = useAutoField(parseAny, (v) => saveUserInstructions(v).then(() => done('your instructions are used from the next request')), 800)
  const searchAt = useAutoField(parseAny, (v) => saveSearchEndpoint(v).then((e) => done(e ? `web_search asks ${e} from the next request` : 'web_search is off')), 800)

  useEffect(() => {
    const list = nextProvs()
    loadProviders()
      .then((v) => list() && setProvs(v))
      .catch((e: unknown) => setError(toBackendError(e)))
    loadInstructions()
      .then((v) => userText.load(v.user))
      .catch(() => undefined)
    stepLimit()
      .then((n) => steps.load(String(n)))
      .catch(() => undefined)
    loadSearchEndpoint()
      .then((e) => searchAt.load(e))
      .catch(() => undefined)
    projectSettings()
      .then((p) => {
        setProj(p)
        savedRef.current = p
        allow.load(p.allowlist.join(' '))
        readable.load(p.readable.join('\n'))
        sockets.load(p.unix_sockets.join('\n'))
        envAllow.load(p.env_allow.join(' '))
        hosts.load(p.network_hosts.join(' '))
        keep.load(String(p.snapshot_keep))
        maxAge.load(String(p.snapshot_max_age_days))
        memory.load(String(p.search_memory_mib))
      })
      .catch((e: unknown) => setError(toBackendError(e)))
    // Loaded once, when Settings opens; the fields' load functions are stable.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [])

  // toggle saves one switch of the project's settings as it changes, shown flipped at once.
  const toggle = (patch: Partial<ProjectSettingsInput>, what: string) => {
    if (!proj) return
    setProj((cur) => (cur ? { ...cur, ...patch } : cur))
    saveProject(patch)
      .then(() => done(what))
      .catch(fail)
  }
  const editProvider = (p: ProviderView | null) => {
    // What was asked about the provider edited before (its test, its save's note) answers for another form.
    nextProbe()
    nextNote()
    setProbe(null)
    setModels([])
    setPrice(priceText(p?.price))
    setEditing(p?.id ?? null)
    setProviderNote(null)
    lastProvider.current = p ? formKey(providerInput(p), priceText(p.price)) : ''
    setEdit(p ? providerInput(p) : { ...blank })
  }
  // fetchModels is Test connection: the provider as the form has it, saved or not, tried by the backend.
  const [probe, setProbe] = useState<ProbeResult | null>(null)
  const fetchModels = (p: ProviderInput) => {
    const fresh = nextProbe()
    setProbe(null)
    testProvider(p)
      .then((r) => {
        if (!fresh()) return
        setProbe(r)
        setModels(r.models ?? [])
        setError(null)
      })
      .catch((e: unknown) => fresh() && fail(e))
  }
  // changeProviders applies a change of the providers (made active, removed) and says it was made.
  const changeProviders = (change: () => Promise<ProvidersView>, what: string) => applyProviders(change).then(() => done(what))

  return (
    <div className="settings-overlay" role="dialog" aria-label="Settings" data-testid="settings">
      <div className="settings">
        <header className="settings-header">
          <h2>Settings</h2>
          <button className="link-button" onClick={() => onClose(changed)} data-testid="settings-close">Close</button>
        </header>
        <nav className="settings-nav" aria-label="Sections" data-testid="settings-nav">
          {sections.filter((x) => proj || !x.project).map((x) => (
            <button key={x.id} type="button" onClick={(e) => e.currentTarget.closest('.settings')?.querySelector(`#${x.id}`)?.scrollIntoView({ block: 'start' })} data-testid="settings-nav-item">
              {x.label}
            </button>
          ))}
        </nav>
        {error ? <ErrorNotice error={error} /> : null}
        {saved ? <div className="settings-saved" data-testid="settings-saved">{saved}</div> : null}

        <h3 id="settings-providers">Providers</h3>
        <KeyStorageNote />
        <ul className="provider-list">
          {provs?.providers.map((p) => (
            <li key={p.id} data-testid="provider" data-id={p.id}>
              <label>
                <input
                  type="radio"
                  name="active"
                  checked={provs.active === p.id}
                  onChange={() => changeProviders(() => setActiveProvider(p.id, ''), `${p.name} is used for new requests`).catch(fail)}
                />
                <strong>{p.name}</strong> <span className="muted">{p.kind} · {p.base_url} · {p.model || 'no model chosen'} · {p.has_key ? `key from ${p.key_source}` : 'no key'}</span>
              </label>
              <button className="link-button" onClick={() => editProvider(p)}>Edit</button>
              <button className="link-button" onClick={() => changeProviders(() => deleteProvider(p.id), `removed ${p.name}`).catch(fail)}>Remove</button>
            </li>
          ))}
        </ul>
        <button className="link-button" onClick={() => editProvider(null)} data-testid="provider-add">Add a provider…</button>
        {edit ? (
          <form
            className="provider-form"
            onSubmit={(ev) => {
              ev.preventDefault()
              if (editing || providerProblem) return
              const form = nextNote() // the form goes on editing what it saved, unless another was opened meanwhile
              applyProviders(() => saveProvider({ ...edit, price: priceOf(price) }))
                .then(() => {
                  if (form()) {
                    const next = { ...edit, api_key: '', clear_key: false }
                    setEdit(next)
                    setEditing(edit.id)
                    lastProvider.current = formKey(next, price)
                  }
                  done(`saved ${edit.name || edit.id}`)
                })
                .catch((e: unknown) => form() && fail(e))
            }}
          >
            <label>Id <input value={edit.id} onChange={(e) => setEdit({ ...edit, id: e.target.value })} required readOnly={!!editing} title={editing ? 'A saved provider keeps its id (add another for a new one)' : undefined} data-testid="provider-id" /></label>
            <label>Name <input value={edit.name} onChange={(e) => setEdit({ ...edit, name: e.target.value })} /></label>
            <label>
              Protocol{' '}
              <select value={edit.kind} onChange={(e) => setEdit({ ...edit, kind: e.target.value as ProviderInput['kind'] })} data-testid="provider-kind">
                <option value="openai-compatible">OpenAI-compatible (OpenAI, LM Studio, llama.cpp, vLLM, OpenRouter)</option>
                <option value="anthropic">Anthropic Messages</option>
                <option value="ollama">Ollama (its own API: the model's context window is read and sent with each request)</option>
              </select>
            </label>
            <label>Base URL <input value={edit.base_url} onChange={(e) => setEdit({ ...edit, base_url: e.target.value })} placeholder={edit.kind === 'ollama' ? 'http://localhost:11434' : edit.kind === 'anthropic' ? 'https://api.anthropic.com/v1' : 'https://api.openai.com/v1'} required data-testid="provider-url" /></label>
            <label>
              API key{' '}
              <input type="password" value={edit.api_key} onChange={(e) => setEdit({ ...edit, api_key: e.target.value })} placeholder="leave empty to keep the stored key (or use OPENAI_API_KEY / ANTHROPIC_API_KEY)" autoComplete="off" data-testid="provider-key" />
            </label>
            <label className="inline"><input type="checkbox" checked={edit.clear_key} onChange={(e) => setEdit({ ...edit, clear_key: e.target.checked })} /> remove the stored key</label>
            <label>
              Model <input value={edit.model} onChange={(e) => setEdit({ ...edit, model: e.target.value })} list="provider-models" data-testid="provider-model" />
              <datalist id="provider-models">{models.map((m) => <option key={m} value={m} />)}</datalist>
              <button type="button" className="link-button" onClick={() => fetchModels(edit)} data-testid="provider-list-models" title="Ask the provider for its models with this URL and key, before saving">
                Test connection
              </button>
              {probe ? (
                <span className={probe.ok ? 'settings-saved' : 'probe-problem'} data-testid="provider-probe" data-ok={probe.ok}>
                  {probe.ok ? `connected: ${probe.models?.length ?? 0} models` : probe.problem}
                </span>
              ) : null}
            </label>
            <label>
              Context window of this model (tokens; empty: from the provider: Ollama's /api/show, others' model list; else the model's usual size){' '}
              <input type="number" min={0} value={edit.context_window || ''} onChange={(e) => setEdit({ ...edit, context_window: Number(e.target.value) || 0 })} data-testid="provider-context-window" />
            </label>
            <label>
              Reasoning effort of this model (sent as each provider asks: Anthropic's thinking budget, OpenAI's reasoning effort, Ollama's think){' '}
              <select value={edit.effort ?? ''} onChange={(e) => setEdit({ ...edit, effort: e.target.value as Effort })} data-testid="provider-effort">
                {efforts.map((x) => (
                  <option key={x} value={x}>{x || "the provider's default"}</option>
                ))}
              </select>
            </label>
            <label>
              <input type="checkbox" checked={edit.text_only ?? false} onChange={(e) => setEdit({ ...edit, text_only: e.target.checked })} data-testid="provider-text-only" /> This model
              takes no images (read_file of an image answers unsupported_media; the request box takes no pasted image)
            </label>
            <fieldset className="provider-price">
              <legend>Price of this model, US$ per million tokens (empty: none; money is then shown only where the provider reports it, as OpenRouter does)</legend>
              {(
                [
                  ['input', 'input', 'provider-price-input'],
                  ['output', 'output', 'provider-price-output'],
                  ['cached', 'cached input (empty: the input price)', 'provider-price-cached'],
                ] as const
              ).map(([k, label, id]) => (
                <label key={k}>
                  {label}{' '}
                  <input
                    type="number"
                    min={0}
                    step="any"
                    value={price[k]}
                    required={k !== 'cached' && !!(price.input || price.output || price.cached)}
                    onChange={(e) => setPrice({ ...price, [k]: e.target.value })}
                    data-testid={id}
                    style={{ width: '7em' }}
                  />
                </label>
              ))}
            </fieldset>
            {models.length ? <div className="muted" data-testid="provider-models">{models.length} models: {models.slice(0, 8).join(', ')}{models.length > 8 ? ', …' : ''}</div> : null}
            {editing ? (
              <div className="provider-note" data-testid="provider-note">
                {providerProblem ? (
                  <span className="field-error" role="alert" data-testid="provider-form-error">{providerProblem}</span>
                ) : providerNote?.error ? (
                  <span className="field-error" role="alert" data-testid="provider-form-error">{providerNote.error}</span>
                ) : providerNote?.saved ? (
                  <span className="field-saved" role="status" data-testid="provider-form-saved">Saved</span>
                ) : (
                  <span className="muted">Changes save as you make them.</span>
                )}
              </div>
            ) : (
              <>
                {providerProblem && (edit.id || edit.base_url) ? <span className="field-error" data-testid="provider-form-error">{providerProblem}</span> : null}
                <button type="submit" disabled={!!providerProblem} data-testid="provider-save">Add provider</button>
              </>
            )}
          </form>
        ) : null}

        <h3 id="settings-agent">Agent</h3>
        <div className="settings-fields">
          <label>
            Step limit: the most model calls one request may take before the agent stops and offers Continue (every project; 100 by default){' '}
            <input type="number" min={1} max={10000} value={steps.text} onChange={(e) => steps.change(e.target.value)} aria-invalid={!!steps.error} data-testid="settings-step-limit" style={{ width: '6em' }} />
            <FieldNote field={steps} id="settings-step-limit" />
          </label>
          <label>
            Your instructions, added to every conversation in every project (the project's AGENTS.md is read too){' '}
            <textarea value={userText.text} onChange={(e) => userText.change(e.target.value)} rows={4} placeholder="Answer in British English. Run the tests before saying you are done." data-testid="user-instructions" />
            <FieldNote field={userText} id="user-instructions" />
          </label>
          <label>
            Web search endpoint: the search service the agent&apos;s web_search asks, for every project (a SearXNG instance with JSON output on, e.g. http://localhost:8888, or a URL with {'{query}'} answering the
            same JSON); empty: web_search is off and no model is offered it. The queries go there, so choose a service you trust.{' '}
            <input value={searchAt.text} onChange={(e) => searchAt.change(e.target.value)} placeholder="off" aria-invalid={!!searchAt.error} data-testid="settings-search-endpoint" spellCheck={false} />
            <FieldNote field={searchAt} id="settings-search-endpoint" />
          </label>
        </div>

        {proj ? (
          <div className="project-form settings-fields">
            <h3 id="settings-project">This project</h3>
            <p className="muted">Kept in {proj.file}, never in the project itself.</p>
            <label>
              Programs the agent may run{' '}
              <textarea value={allow.text} onChange={(e) => allow.change(e.target.value)} rows={2} aria-invalid={!!allow.error} data-testid="settings-allowlist" />
              <FieldNote field={allow} id="settings-allowlist" />
            </label>
            <button type="button" className="link-button" onClick={() => allow.change(proj.default_allowlist.join(' '))} data-testid="settings-allowlist-reset">Reset to the default list</button>
            <label className="inline">
              <input type="checkbox" checked={proj.network} onChange={(e) => toggle({ network: e.target.checked }, e.target.checked ? 'saved: commands may use the network' : 'saved: commands have no network')} data-testid="settings-network" /> Commands may use the network (off by default: <code>npm install</code> and the like need it)
            </label>
            <label className="inline">
              <input
                type="checkbox"
                checked={proj.network_mode === 'allowlist'}
                disabled={proj.network}
                onChange={(e) => toggle({ network_mode: e.target.checked ? 'allowlist' : 'off' }, e.target.checked ? 'saved: commands reach only the listed hosts, through Rooted\'s proxy' : 'saved: commands have no network')}
                data-testid="settings-network-allowlist"
              />{' '}
              … or only the package registries and the hosts below, through Rooted&apos;s proxy (a host a command is refused becomes a card to allow)
            </label>
            {proj.network_mode === 'allowlist' ? (
              <label>
                Hosts commands may reach besides {proj.default_hosts.join(', ')} (names, or <code>*.example.com</code> for its subdomains){' '}
                <textarea value={hosts.text} onChange={(e) => hosts.change(e.target.value)} rows={1} aria-invalid={!!hosts.error} data-testid="settings-network-hosts" />
                <FieldNote field={hosts} id="settings-network-hosts" />
              </label>
            ) : null}
            <label className="inline">
              <input type="checkbox" checked={proj.auto_approve_edits} onChange={(e) => toggle({ auto_approve_edits: e.target.checked }, e.target.checked ? 'saved: the agent\'s edits apply without asking' : 'saved: the agent\'s edits ask first')} data-testid="settings-auto-edits" /> Apply the agent's file edits without asking (each is still snapshotted and can be undone)
            </label>
            <SandboxStatus proj={proj} />
          </div>
        ) : null}
        {proj ? <PermissionRules /> : null}
        {proj ? <MCPServers /> : null}
        {proj ? (
          <details className="settings-advanced settings-fields" data-testid="settings-advanced">
            <summary>
              <h3 id="settings-advanced">Advanced</h3> <span className="muted">the sandbox's openings, snapshots and search memory</span>
            </summary>
            <AdvancedField field={readable} id="settings-readable" rows={2} label="More folders commands may read (one absolute path a line; your home folder's secrets stay closed otherwise)" />
            <AdvancedField field={sockets} id="settings-sockets" rows={1} label={<>Unix sockets outside the project commands may connect to (one absolute path a line, such as <code>/var/run/docker.sock</code>; none otherwise, network or not)</>} />
            <AdvancedField field={envAllow} id="settings-env-allow" rows={1} label={<>More environment variables commands get (names, or prefixes ending in <code>*</code>; a value that looks like a credential is still left out)</>} />
            <label>
              Snapshots kept <input type="number" min={1} value={keep.text} onChange={(e) => keep.change(e.target.value)} aria-invalid={!!keep.error} data-testid="settings-snapshot-keep" />
              <FieldNote field={keep} id="settings-snapshot-keep" />
            </label>
            <label>
              Snapshots expire after (days) <input type="number" min={1} value={maxAge.text} onChange={(e) => maxAge.change(e.target.value)} aria-invalid={!!maxAge.error} data-testid="settings-snapshot-age" />
              <FieldNote field={maxAge} id="settings-snapshot-age" />
            </label>
            <label>
              Search memory (MiB of file text kept in memory; 0: the default){' '}
              <input type="number" min={0} value={memory.text} onChange={(e) => memory.change(e.target.value)} aria-invalid={!!memory.error} data-testid="settings-search-memory" />
              <FieldNote field={memory} id="settings-search-memory" />
            </label>
            <p className="muted" data-testid="settings-search-status">
              Search holds {proj.search.cached_mib.toFixed(1)} of {proj.search.budget_mib} MiB;{' '}
              {proj.search.index_ready
                ? `its trigram index covers ${proj.search.index_files} files in ${proj.search.index_disk_mib.toFixed(1)} MiB on disk${proj.search.changed ? ` (${proj.search.changed} changed since, searched directly)` : ''}.`
                : 'its trigram index is built after the first search.'}
            </p>
          </details>
        ) : null}
      </div>
    </div>
  )
}

// inputOf is what saving the project's settings takes, from the settings as read.
function inputOf(p: ProjectSettings): ProjectSettingsInput {
  return {
    allowlist: p.allowlist,
    network: p.network,
    readable: p.readable,
    unix_sockets: p.unix_sockets,
    env_allow: p.env_allow,
    auto_approve_edits: p.auto_approve_edits,
    snapshot_keep: p.snapshot_keep,
    snapshot_max_age_days: p.snapshot_max_age_days,
    search_memory_mib: p.search_memory_mib,
  }
}

function AdvancedField({ field, id, rows, label }: { field: AutoField; id: string; rows: number; label: ReactNode }) {
  return (
    <label>
      {label}{' '}
      <textarea value={field.text} onChange={(e) => field.change(e.target.value)} rows={rows} aria-invalid={!!field.error} data-testid={id} />
      <FieldNote field={field} id={id} />
    </label>
  )
}

// SandboxStatus says what the sandbox in force lets commands do.
function SandboxStatus({ proj }: { proj: ProjectSettings }) {
  return (
    <div className="sandbox-status" data-testid="settings-sandbox">
      Sandbox: {proj.sandbox.active ? `${proj.sandbox.kind} ${proj.sandbox.level}: commands ${proj.sandbox.network ? 'may use the network' : proj.sandbox.proxy ? 'reach only the listed hosts, through Rooted\'s proxy' : 'have no network'}` : proj.sandbox.reason}
      {proj.sandbox.network_note ? <div className="muted" data-testid="settings-network-note">{proj.sandbox.network_note}</div> : null}
      {proj.sandbox.active ? (
        <details>
          <summary>What commands can read and write</summary>
          <p>Write (and read): {proj.sandbox.writable.join(', ')}</p>
          <p data-testid="settings-sandbox-readable">Read only: {proj.sandbox.readable.join(', ')}</p>
          <p className="muted">Nothing else: not the rest of your home folder (~/.ssh, ~/.aws, ~/.config, other projects), nor /tmp.</p>
        </details>
      ) : null}
    </div>
  )
}

// formKey is the provider form as it stands, to tell a change from what was last saved.
const formKey = (p: ProviderInput, price: PriceText) => JSON.stringify([p, price])

// providerInput is the form of a saved provider (its key is never shown: empty keeps it).
function providerInput(p: ProviderView): ProviderInput {
  return { id: p.id, name: p.name, kind: p.kind, base_url: p.base_url, model: p.model, api_key: '', clear_key: false, context_window: p.context_window, price: p.price ?? null, effort: p.effort ?? '', text_only: p.text_only ?? false }
}

// formProblem is why the provider form cannot be saved as it stands, or null.
function formProblem(p: ProviderInput, price: PriceText): string | null {
  if (!p.id.trim()) return 'an id is needed'
  if (!p.base_url.trim()) return 'a base URL is needed'
  const given = [price.input, price.output, price.cached].map((x) => x.trim())
  if (given.some(Boolean)) {
    if (!given[0] || !given[1]) return 'a price needs both input and output'
    if (given.some((x) => x !== '' && !(Number(x) >= 0))) return 'a price is a number of dollars, 0 or more'
  }
  return null
}
