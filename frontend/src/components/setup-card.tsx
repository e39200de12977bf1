import { useCallback, useEffect, useState } from 'react'
import { saveProvider, setActiveProvider, testProvider, toBackendError, type BackendError, type ProbeResult, type ProviderView } from '../bridge'
import { presets, providerId, startingModel, type Preset } from '../llm/presets'
import { ErrorNotice } from './error-notice'

// ProviderCheck is what trying the active provider found: checking, usable, or the reason Send is off.
export interface ProviderCheck {
  checking: boolean
  // blocked says why no request can be sent ("Ollama isn't running at http://localhost:11434"); null when one can.
  blocked: string | null
  retry: () => void
}

const probeInput = (p: ProviderView) => ({ id: p.id, name: p.name, kind: p.kind, base_url: p.base_url, model: p.model, api_key: '', clear_key: false, context_window: 0, price: null })

// useProviderCheck tries the active provider when the panel opens and whenever it changes: a provider that does not
// answer, or refuses its key, blocks Send with the reason; one that answers but has no model chosen gets the first
// it lists (the footer's picker changes it). A provider answering in some other way (a server without a model
// list) is not blocked: the first request will say what is wrong.
export function useProviderCheck(active: ProviderView | undefined, providersLoaded: boolean, onChanged: () => void): ProviderCheck {
  const [result, setResult] = useState<{ key: string; blocked: string | null } | null>(null)
  const [attempt, setAttempt] = useState(0)
  const key = active ? `${active.id} ${active.kind} ${active.base_url} ${active.has_key} ${attempt}` : `none ${attempt}`
  useEffect(() => {
    if (!providersLoaded || !active) return
    let live = true
    testProvider(probeInput(active))
      .then((r: ProbeResult) => {
        if (!live) return
        const blocking = !r.ok && (!r.status || r.status === 401 || r.status === 403)
        setResult({ key, blocked: blocking ? (r.problem ?? 'The provider cannot be used') : null })
        const first = startingModel(presets.find((p) => p.kind === active.kind) ?? { prefer: [] }, r.models ?? [])
        if (r.ok && !active.model && first) void setActiveProvider(active.id, first).then(onChanged)
      })
      .catch((e: unknown) => live && setResult({ key, blocked: toBackendError(e).message }))
    return () => {
      live = false
    }
    // active is read through key: a new object for the same provider must not probe again.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, providersLoaded])
  const retry = useCallback(() => setAttempt((n) => n + 1), [])
  if (providersLoaded && !active) return { checking: false, blocked: 'No model provider is set up', retry }
  const current = result?.key === key ? result : null
  return { checking: current === null, blocked: current?.blocked ?? null, retry }
}

// SetupCard is the first run's card: what is wrong with the provider, in words, with Retry and Add a provider. Adding
// one is a preset (Anthropic, OpenAI, OpenRouter, Ollama, any OpenAI-compatible URL), its key where it needs one,
// and Test connection, which tries it before anything is saved; the first that passes is saved with a model and
// becomes the one conversations use.
export function SetupCard({ check, taken, onAdded }: { check: ProviderCheck; taken: ProviderView[]; onAdded: () => void }) {
  const [adding, setAdding] = useState(false)
  const [preset, setPreset] = useState<Preset | null>(null)
  const [url, setURL] = useState('')
  const [apiKey, setKey] = useState('')
  const [busy, setBusy] = useState(false)
  const [problem, setProblem] = useState<string | null>(null)
  const [error, setError] = useState<BackendError | null>(null)
  if (!check.blocked) return null
  const choose = (p: Preset) => {
    setPreset(p)
    setURL(p.baseURL)
    setKey('')
    setProblem(null)
    setError(null)
  }
  const test = async () => {
    if (!preset) return
    setBusy(true)
    setProblem(null)
    setError(null)
    try {
      const id = providerId(preset, url, taken)
      const input = { id, name: preset.id === 'custom' ? id : preset.name, kind: preset.kind, base_url: url, model: '', api_key: apiKey, clear_key: false, context_window: 0, price: null }
      const r = await testProvider(input)
      if (!r.ok) {
        setProblem(r.problem ?? 'The provider cannot be used')
        return
      }
      const model = startingModel(preset, r.models ?? [])
      await saveProvider({ ...input, model })
      await setActiveProvider(id, model)
      setAdding(false)
      setPreset(null)
      onAdded()
    } catch (e) {
      setError(toBackendError(e))
    } finally {
      setBusy(false)
    }
  }
  return (
    <div className="setup-card" role="region" aria-label="Set up a model provider" data-testid="setup-card">
      <div className="setup-problem" data-testid="setup-problem">{check.blocked}</div>
      <div className="setup-actions">
        <button onClick={check.retry} data-testid="setup-retry" disabled={check.checking}>
          {check.checking ? 'Checking…' : 'Retry'}
        </button>
        <button className="primary" onClick={() => setAdding((a) => !a)} data-testid="setup-add" aria-expanded={adding}>
          Add a provider
        </button>
      </div>
      {adding ? (
        <div className="setup-add">
          <div className="setup-presets" role="radiogroup" aria-label="Provider">
            {presets.map((p) => (
              <button key={p.id} role="radio" aria-checked={preset?.id === p.id} className={preset?.id === p.id ? 'selected' : ''} onClick={() => choose(p)} data-testid="setup-preset" data-preset={p.id}>
                {p.name}
              </button>
            ))}
          </div>
          {preset ? (
            <form
              className="setup-form"
              onSubmit={(e) => {
                e.preventDefault()
                void test()
              }}
            >
              <label>
                Address{' '}
                <input value={url} onChange={(e) => setURL(e.target.value)} placeholder="http://localhost:8080/v1" required readOnly={preset.id !== 'custom' && preset.id !== 'ollama'} data-testid="setup-url" />
              </label>
              {preset.key !== 'none' ? (
                <label>
                  API key{preset.keyHint ? <span className="muted"> ({preset.keyHint})</span> : null}{' '}
                  <input type="password" value={apiKey} onChange={(e) => setKey(e.target.value)} required={preset.key === 'required'} autoComplete="off" data-testid="setup-key" />
                </label>
              ) : null}
              <button type="submit" className="primary" disabled={busy} data-testid="setup-test">
                {busy ? 'Testing…' : 'Test connection'}
              </button>
              {problem ? <div className="probe-problem" data-testid="setup-test-problem">{problem}</div> : null}
              {error ? <ErrorNotice error={error} /> : null}
            </form>
          ) : null}
        </div>
      ) : null}
    </div>
  )
}
