import { useEffect, useState } from 'react'
import { keyStorage, type KeyStorage } from '../bridge'

// keyStorageText says where API keys are kept, as Settings shows it.
export function keyStorageText(k: KeyStorage): string {
  if (k.keyring) return `Stored in ${k.name}`
  return `Stored in ${k.name} (readable only by you) — no system keyring found: ${k.reason ?? 'none answered'}`
}

// KeyStorageNote is the line under Providers that says where the keys are, and which could not be moved there.
export function KeyStorageNote() {
  const [k, setK] = useState<KeyStorage | null>(null)
  useEffect(() => {
    let live = true
    keyStorage()
      .then((v) => live && setK(v))
      .catch(() => undefined)
    return () => {
      live = false
    }
  }, [])
  if (!k) return null
  return (
    <p className="muted key-storage" data-testid="key-storage">
      API keys: {keyStorageText(k)}
      {k.problem ? (
        <span className="field-error" data-testid="key-storage-problem">
          {' '}
          Some keys stayed where they were: {k.problem}
        </span>
      ) : null}
    </p>
  )
}
