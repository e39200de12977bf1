// @vitest-environment jsdom
import { act } from 'react'
import { createRoot, type Root } from 'react-dom/client'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { ProbeResult, ProjectBridge, ProjectSettings, ProjectSettingsInput, ProviderView } from '../bridge'
import { ProjectScopeContext } from '../stores/project-scope'

// The bridge is the Wails boundary: three saved providers, a connection test and a provider made active that answer when
// the test says.
function three(): ProviderView[] {
  return [provider('a', 'http://127.0.0.1:1/v1'), provider('b', 'http://127.0.0.1:2/v1'), provider('c', 'http://127.0.0.1:3/v1')]
}
function provider(id: string, url: string): ProviderView {
  return { id, name: id.toUpperCase(), kind: 'openai-compatible', base_url: url, model: `${id}-model`, has_key: false, context_window: 0 }
}
const probes = vi.hoisted(() => ({ held: [] as { url: string; answer: (r: ProbeResult) => void }[] }))
// Each provider made active answers, when the test says, with the list as it is after it.
const picks = vi.hoisted(() => ({ held: [] as { id: string; answer: () => void }[] }))
vi.mock('../bridge', () => ({
  providers: () => Promise.resolve({ providers: three(), active: 'a' }),
  testProvider: (p: { base_url: string }) => new Promise((resolve) => probes.held.push({ url: p.base_url, answer: resolve })),
  saveProvider: () => new Promise(() => undefined),
  setActiveProvider: (id: string) => new Promise((resolve) => picks.held.push({ id, answer: () => resolve({ providers: three(), active: id }) })),
  deleteProvider: () => new Promise(() => undefined),
  loadSearchEndpoint: () => Promise.resolve(''),
  saveSearchEndpoint: () => Promise.resolve(''),
  loadStepLimit: () => Promise.resolve(50),
  saveStepLimit: (n: number) => Promise.resolve(n),
  efforts: ['', 'low', 'high'],
  toBackendError: (e: unknown) => ({ code: 'internal', message: String(e) }),
}))
// The project's sections are not what this test is about.
vi.mock('../components/permission-rules', () => ({ PermissionRules: () => null }))
vi.mock('../components/mcp-servers', () => ({ MCPServers: () => null }))
vi.mock('../components/key-storage', () => ({ KeyStorageNote: () => null }))

;(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true

const { SettingsScreen } = await import('./settings-screen')
const bridge = {
  workspace: 'w',
  instructions: () => Promise.resolve({ user: '' }),
  saveUserInstructions: () => Promise.resolve(),
  projectSettings: () => new Promise(() => undefined),
  saveProjectSettings: () => new Promise(() => undefined),
} as unknown as ProjectBridge

let root: Root | null = null
afterEach(() => {
  act(() => root?.unmount())
  root = null
  probes.held = []
  picks.held = []
})

const settle = () => act(async () => {
  for (let i = 0; i < 5; i++) await Promise.resolve()
})

// mountSettings shows the settings screen for the project the bridge stands for, once its first reads have answered.
async function mountSettings(bridge: ProjectBridge): Promise<HTMLElement> {
  const host = document.createElement('div')
  root = createRoot(host)
  act(() =>
    root!.render(
      <ProjectScopeContext.Provider value={{ bridge, shown: true, report: () => undefined, unsaved: () => undefined }}>
        <SettingsScreen onClose={() => undefined} />
      </ProjectScopeContext.Provider>,
    ),
  )
  await settle()
  return host
}

// editor opens a saved provider's form, as its Edit button does.
const editor = (host: HTMLElement) => (id: string) =>
  act(() => host.querySelector(`[data-testid="provider"][data-id="${id}"] button`)!.dispatchEvent(new MouseEvent('click', { bubbles: true })))

describe('Settings, a provider', () => {
  it("does not show a provider's connection test in the form of the provider opened since", async () => {
    const host = await mountSettings(bridge)
    const edit = editor(host)
    edit('a')
    act(() => host.querySelector<HTMLButtonElement>('[data-testid="provider-list-models"]')!.click())
    expect(probes.held.map((p) => p.url)).toEqual(['http://127.0.0.1:1/v1'])
    // The user opens B's form while A's test is on its way; then A answers.
    edit('b')
    expect(host.querySelector<HTMLInputElement>('[data-testid="provider-url"]')!.value).toBe('http://127.0.0.1:2/v1')
    await act(async () => probes.held[0].answer({ ok: true, models: ['a-large', 'a-small'] }))
    expect(host.querySelector('[data-testid="provider-probe"]')).toBeNull()
    expect(host.querySelector('[data-testid="provider-models"]')).toBeNull()
    expect([...host.querySelectorAll('#provider-models option')].map((o) => o.getAttribute('value'))).toEqual([])
    // B's own test is shown.
    act(() => host.querySelector<HTMLButtonElement>('[data-testid="provider-list-models"]')!.click())
    await act(async () => probes.held[1].answer({ ok: false, models: null, problem: 'nothing listens at 127.0.0.1:2' }))
    expect(host.querySelector('[data-testid="provider-probe"]')?.textContent).toBe('nothing listens at 127.0.0.1:2')
  })

  it("clears the test shown for a provider when another's form is opened", async () => {
    const host = await mountSettings(bridge)
    const edit = editor(host)
    edit('a')
    act(() => host.querySelector<HTMLButtonElement>('[data-testid="provider-list-models"]')!.click())
    await act(async () => probes.held[0].answer({ ok: true, models: ['a-large'] }))
    expect(host.querySelector('[data-testid="provider-probe"]')?.textContent).toBe('connected: 1 models')
    edit('b')
    expect(host.querySelector('[data-testid="provider-probe"]')).toBeNull()
  })

  it('keeps the provider made active last: the second change is asked only once the first has answered', async () => {
    const host = await mountSettings(bridge)
    const radio = (id: string) => host.querySelector<HTMLInputElement>(`[data-testid="provider"][data-id="${id}"] input[type="radio"]`)!
    act(() => radio('b').click())
    act(() => radio('c').click())
    await settle()
    // One after the other: the backend may run calls in any order, and each answers the whole list as it then is.
    expect(picks.held.map((p) => p.id)).toEqual(['b'])
    await act(async () => picks.held[0].answer())
    await settle()
    expect(picks.held.map((p) => p.id)).toEqual(['b', 'c'])
    await act(async () => picks.held[1].answer())
    await settle()
    expect(radio('c').checked).toBe(true)
    expect(radio('b').checked).toBe(false)
  })
})

// projectBackend keeps the project's settings whole, as the backend does: each save replaces every field it is sent,
// and answers, when the test says, with the settings as saved.
function projectBackend() {
  const store: { settings: ProjectSettings } = {
    settings: {
      root: '/src/app', allowlist: ['go'], default_allowlist: ['go'], network: false, network_mode: 'off', network_hosts: [], default_hosts: [], writable: [], readable: [], unix_sockets: [], env_allow: [],
      auto_approve_edits: false, snapshot_keep: 50, snapshot_max_age_days: 30, file: '/config/settings.json', search_memory_mib: 0,
      sandbox: { active: false, kind: '', level: 0, network: false, reason: 'no sandbox here', readable: [], writable: [] },
      search: { budget_mib: 256, cached_mib: 0, index_ready: false, index_files: 0, index_disk_mib: 0, changed: 0 },
    },
  }
  const held: { sent: ProjectSettingsInput; answer: () => void }[] = []
  const bridge = {
    workspace: 'w',
    instructions: () => Promise.resolve({ user: '' }),
    saveUserInstructions: () => Promise.resolve(),
    projectSettings: () => Promise.resolve(store.settings),
    saveProjectSettings: (sent: ProjectSettingsInput) =>
      new Promise<ProjectSettings>((resolve) =>
        held.push({
          sent,
          answer: () => {
            store.settings = { ...store.settings, ...sent, network_mode: sent.network_mode ?? (sent.network ? 'on' : 'off') }
            resolve(store.settings)
          },
        }),
      ),
  } as unknown as ProjectBridge
  // answerAll answers the saves as they reach the backend, each only once every change was made.
  const answerAll = async () => {
    for (;;) {
      await settle() // a save waiting on the one before reaches the backend
      const next = held.shift()
      if (!next) return
      await act(async () => next.answer())
    }
  }
  return { store, held, bridge, answerAll }
}

describe('Settings, the project', () => {
  it('keeps both of two switches flipped quickly, the first save answering after the second was made', async () => {
    const { store, held, bridge, answerAll } = projectBackend()
    const host = await mountSettings(bridge)
    const box = (id: string) => host.querySelector<HTMLInputElement>(`[data-testid="${id}"]`)!
    act(() => box('settings-network').click())
    await settle()
    expect(held).toHaveLength(1) // the network's save, on its way
    act(() => box('settings-auto-edits').click()) // before the network's save has answered
    await answerAll()
    expect(store.settings.network).toBe(true)
    expect(store.settings.auto_approve_edits).toBe(true)
    expect(box('settings-network').checked).toBe(true)
    expect(box('settings-auto-edits').checked).toBe(true)
  })

  it('keeps a field typed and a switch flipped while its save is on its way', async () => {
    vi.useFakeTimers()
    try {
      const { store, held, bridge, answerAll } = projectBackend()
      const host = await mountSettings(bridge)
      const allowlist = host.querySelector<HTMLTextAreaElement>('[data-testid="settings-allowlist"]')!
      act(() => {
        Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value')!.set!.call(allowlist, 'go npm')
        allowlist.dispatchEvent(new Event('input', { bubbles: true }))
      })
      act(() => vi.advanceTimersByTime(500)) // typing stopped: the field saves
      await settle()
      expect(held).toHaveLength(1) // the allowlist's save, on its way
      act(() => host.querySelector<HTMLInputElement>('[data-testid="settings-network"]')!.click())
      await answerAll()
      expect(store.settings.allowlist).toEqual(['go', 'npm'])
      expect(store.settings.network).toBe(true)
      expect(host.querySelector<HTMLInputElement>('[data-testid="settings-network"]')!.checked).toBe(true)
      expect(allowlist.value).toBe('go npm')
      expect(host.querySelector('[data-testid="settings-allowlist-saved"]')).not.toBeNull()
    } finally {
      vi.useRealTimers()
    }
  })
})
