import { useState } from 'react'
import { toBackendError, type BackendError } from '../bridge'
import { useBridge } from '../stores/project-scope'
import { ErrorNotice } from './error-notice'

type Answer = 'conversation' | 'always' | 'deny'

// HostCards ask about the hosts the proxy refused a command in allow-list mode, one card each: allow them for
// this conversation's later commands (kept in memory while the window runs), always for this project (a network
// rule in the user's settings), or deny (a network rule that keeps the host out even if a list names it). The
// command itself has ended; the model, told the host in its hint, runs it again once allowed.
export function HostCards({ hosts, conversation }: { hosts: string[]; conversation?: string }) {
  return (
    <div className="host-cards">
      {hosts.map((h) => (
        <HostCard key={h} host={h} conversation={conversation} />
      ))}
    </div>
  )
}

function HostCard({ host, conversation }: { host: string; conversation?: string }) {
  const { addPermissionRule, allowHost } = useBridge()
  const [answered, setAnswered] = useState<Answer | null>(null)
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<BackendError | null>(null)
  const answer = (a: Answer) => {
    setBusy(true)
    const done =
      a === 'conversation'
        ? allowHost(conversation ?? '', host)
        : addPermissionRule({ action: a === 'always' ? 'allow' : 'deny', tool: 'network', command: '', domain: host })
    Promise.resolve(done)
      .then(() => setAnswered(a))
      .catch((e: unknown) => setError(toBackendError(e)))
      .finally(() => setBusy(false))
  }
  const said = { conversation: 'allowed for this conversation', always: 'always allowed in this project', deny: 'denied in this project' }
  return (
    <div className="approval host-card" data-testid="host-card" data-host={host}>
      <div>
        The command tried to reach <code>{host}</code>, which this project&apos;s commands may not reach (allow-list network).
      </div>
      {answered ? (
        <div className="muted" data-testid="host-answered">
          {host}: {said[answered]}
          {answered === 'deny' ? '' : '; ask the agent to run the command again'}
        </div>
      ) : (
        <div className="approval-buttons">
          <button disabled={busy} onClick={() => answer('conversation')} data-testid="host-allow-conversation" title="Later commands of this conversation may reach it, while the window runs">
            Allow for this conversation
          </button>
          <button disabled={busy} onClick={() => answer('always')} data-testid="host-allow-always" title="Adds a network rule for this project (Settings lists and edits the rules)">
            Always for {host}
          </button>
          <button disabled={busy} onClick={() => answer('deny')} data-testid="host-deny" title="Adds a network rule that keeps the host out of this project's commands">
            Deny
          </button>
        </div>
      )}
      {error ? <ErrorNotice error={error} /> : null}
    </div>
  )
}

type LiveAnswer = 'once' | 'always' | 'deny'

// HostAsks ask, while a command runs in allow-list mode, about the hosts it waits to reach (its connections are
// held until the answer): allow once (for the rest of this command), always (a network rule, then allowed), or
// deny (refused, naming the host). A question the command ended before answering becomes a refused host's card.
export function HostAsks({ asks, running, conversation }: { asks: { call: string; host: string }[]; running: boolean; conversation?: string }) {
  return (
    <div className="host-cards">
      {asks.map((a) => (
        <HostAsk key={a.host} call={a.call} host={a.host} running={running} conversation={conversation} />
      ))}
    </div>
  )
}

function HostAsk({ call, host, running, conversation }: { call: string; host: string; running: boolean; conversation?: string }) {
  const { addPermissionRule, answerHost } = useBridge()
  const [answered, setAnswered] = useState<LiveAnswer | null>(null)
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<BackendError | null>(null)
  if (!running && !answered) return <HostCard host={host} conversation={conversation} />
  const answer = (a: LiveAnswer) => {
    setBusy(true)
    const rule = a === 'always' ? addPermissionRule({ action: 'allow', tool: 'network', command: '', domain: host }) : Promise.resolve()
    Promise.resolve(rule)
      .then(() => answerHost(call, host, a !== 'deny'))
      .then(() => setAnswered(a))
      .catch((e: unknown) => setError(toBackendError(e)))
      .finally(() => setBusy(false))
  }
  const said = { once: 'allowed for this command', always: 'always allowed in this project', deny: 'refused to this command' }
  return (
    <div className="approval host-card" data-testid="host-ask" data-host={host}>
      <div>
        The command is waiting to reach <code>{host}</code>, which is not on this project&apos;s list of hosts (allow-list network).
      </div>
      {answered ? (
        <div className="muted" data-testid="host-answered">
          {host}: {said[answered]}
        </div>
      ) : (
        <div className="approval-buttons">
          <button disabled={busy} onClick={() => answer('once')} data-testid="host-allow-once" title="This command may reach it until it ends">
            Allow once
          </button>
          <button disabled={busy} onClick={() => answer('always')} data-testid="host-allow-always" title="Adds a network rule for this project (Settings lists and edits the rules)">
            Always for {host}
          </button>
          <button disabled={busy} onClick={() => answer('deny')} data-testid="host-deny" title="Refuses it to this command, which is told the host">
            Deny
          </button>
        </div>
      )}
      {error ? <ErrorNotice error={error} /> : null}
    </div>
  )
}
