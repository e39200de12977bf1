// @vitest-environment jsdom
import { act } from 'react'
import { createRoot } from 'react-dom/client'
import { describe, expect, it, vi } from 'vitest'
import type { KeyStorage } from '../bridge'
import { KeyStorageNote, keyStorageText } from './key-storage'

;(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true

const backend = vi.hoisted(() => ({ answer: null as KeyStorage | null }))
vi.mock('../bridge', () => ({ keyStorage: () => Promise.resolve(backend.answer) }))

// render shows the Providers section's note as the backend describes the key storage.
async function render(k: KeyStorage): Promise<string> {
  backend.answer = k
  const div = document.createElement('div')
  const root = createRoot(div)
  await act(async () => root.render(<KeyStorageNote />))
  const text = div.querySelector('[data-testid="key-storage"]')?.textContent ?? ''
  act(() => root.unmount())
  return text
}

describe('where Settings says the API keys are', () => {
  it('names the keyring when one holds them', async () => {
    expect(await render({ keyring: true, name: 'GNOME Keyring (Secret Service)' })).toBe('API keys: Stored in GNOME Keyring (Secret Service)')
  })

  it('names the file, who can read it, and why there is no keyring', async () => {
    const text = await render({ keyring: false, name: '~/.config/rooted/keys.json', reason: 'no session bus: DBUS_SESSION_BUS_ADDRESS is not set' })
    expect(text).toBe('API keys: Stored in ~/.config/rooted/keys.json (readable only by you) — no system keyring found: no session bus: DBUS_SESSION_BUS_ADDRESS is not set')
  })

  it('says which keys could not be moved into the keyring', async () => {
    const text = await render({ keyring: true, name: 'KWallet (Secret Service)', problem: 'provider "claude": its key stays in providers.json: the keyring is locked' })
    expect(text).toContain('Stored in KWallet (Secret Service)')
    expect(text).toContain('Some keys stayed where they were: provider "claude": its key stays in providers.json: the keyring is locked')
  })

  it('says the same for the MCP servers\' secrets, with what could stay behind', async () => {
    backend.answer = null
    const load = () => Promise.resolve({ keyring: true, name: 'GNOME Keyring (Secret Service)', problem: 'secrets: gh: the keyring is locked' })
    const div = document.createElement('div')
    const root = createRoot(div)
    await act(async () => root.render(<KeyStorageNote label="Secrets and sign-ins" noun="secrets or sign-ins" load={load} testid="mcp-secret-storage" />))
    expect(div.querySelector('[data-testid="mcp-secret-storage"]')?.textContent).toBe(
      'Secrets and sign-ins: Stored in GNOME Keyring (Secret Service) Some secrets or sign-ins stayed where they were: secrets: gh: the keyring is locked',
    )
    act(() => root.unmount())
  })

  it('words the file case even without a reason', () => {
    expect(keyStorageText({ keyring: false, name: '/x/keys.json' })).toBe('Stored in /x/keys.json (readable only by you) — no system keyring found: none answered')
  })
})
