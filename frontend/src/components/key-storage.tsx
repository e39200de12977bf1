import { useEffect, useState } from 'react'
import { keyStorage, type KeyStorage } from '../bridge'

// keyStorageText says where API keys (or the MCP servers' secrets) are kept, as Settings shows it.
export function keyStorageText(k: KeyStorage): string {
  if (k.keyring) return `Stored in ${k.name}`
  return `Stored in ${k.name} (readable only by you) — no system keyring found: ${k.reason ?? 'none answered'}`
}

interface NoteProps {
  label?: string // what is kept: "API keys"
  noun?: string // what could stay behind: "keys"
  load?: () => Promise<KeyStorage> // asks the backend where they are
  testid?: string
}

// KeyStorageNote is the line that says where secrets are kept, and which could not be moved there: under Providers
// for the API keys (the defaults), and in the MCP servers' secrets.
export function KeyStorageNote({ label = 'API keys', noun = 'keys', load = keyStorage, testid = 'key-storage' }: NoteProps) {
  const [k, setK] = useState<KeyStorage | null>(null)
  useEffect(() => {
    let live = true
    load()
      .then((v) => live && setK(v))
      .catch(() => undefined)
    return () => {
      live = false
    }
  }, [load])
  if (!k) return null
  return (
    <p className="muted key-storage" data-testid={testid}>
      {label}: {keyStorageText(k)}
      {k.problem ? (
        <span className="field-error" data-testid={`${testid}-problem`}>
          {' '}
          Some {noun} stayed where they were: {k.problem}
        </span>
      ) : null}
    </p>
  )
}
