import { useState } from 'react'
import { toBackendError, type BackendError, type CallCheck } from '../bridge'
import { useBridge } from '../stores/project-scope'
import { alwaysRule } from '../agent/approvals'
import type { ToolItem } from '../agent/conversation'
import { ErrorNotice } from './error-notice'

// AlwaysAllow is the approval card's "Always allow `go test …` in this project": it adds the rule (kept in the
// user's settings, for every later conversation) and allows this call. For a command that destroys or publishes,
// or hands an interpreter code (node -e), it says why the card asks even though its program may be allowed.
export function AlwaysAllow({ item, check, onAllow }: { item: ToolItem; check: CallCheck | null; onAllow: () => void }) {
  const { addPermissionRule } = useBridge()
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<BackendError | null>(null)
  const always = check && !check.error ? alwaysRule(item.name, check.suggest) : null
  return (
    <>
      {always ? (
        <button
          disabled={busy}
          data-testid="approve-always"
          title="Adds an allow rule for this project (Settings lists and edits the rules)"
          onClick={() => {
            setBusy(true)
            addPermissionRule(always.rule)
              .then(onAllow)
              .catch((e: unknown) => setError(toBackendError(e)))
              .finally(() => setBusy(false))
          }}
        >
          {always.label}
        </button>
      ) : null}
      {check?.sensitive ? <span className="approval-why" data-testid="approval-why">asks every time: {check.why}</span> : null}
      {error ? <ErrorNotice error={error} /> : null}
    </>
  )
}
