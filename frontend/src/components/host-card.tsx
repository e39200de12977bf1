import { useState } from 'react'
import { toBackendError, type BackendError } from '../bridge'
import { useBridge } from '../stores/project-scope'
import { ErrorNotice } from './error-notice'
import type { HostAskItem } from '../agent/conversation'

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

// Titles of the answers that cover a host at every port: network rules are by domain, and so is a conversation's
// grant (it is offered for refused hosts, which a command's result names without a port).
const alwaysTitle = (host: string) => `Adds a network rule for this project: its commands may reach ${host} at every port (Settings lists and edits the rules)`
const conversationTitle = (host: string) => `Later commands of this conversation may reach ${host}, at every port, while the window runs`

// target names what a question is about: host:port, the port always shown, as an answer covers that port alone
// (a card saying github.com would read as the whole host); an IPv6 address in brackets, as a URL writes it.
export function target(host: string, port?: number): string {
  if (!port) return host
  return host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`
}

// HostCard answers for one refused host. why, when set, is a question the command stopped waiting on (HostAsk):
// the card says what happened instead, and offers what still acts, for next time: the network rule (Always allow)
// and the conversation's grant, both for the host at every port; nothing it shows can answer the command that is
// gone. port is the question's, shown in data-port.
function HostCard({ host, port, conversation, why, ended }: { host: string; port?: number; conversation?: string; why?: string; ended?: string }) {
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
    <div className="approval host-card" data-testid={why ? 'host-ask-ended' : 'host-card'} data-host={host} data-port={port} data-ended={ended}>
      {why ? (
        <div data-testid="host-ask-why">{why}</div>
      ) : (
        <div>
          The command tried to reach <code>{host}</code>, which this project&apos;s commands may not reach (allow-list network).
        </div>
      )}
      {answered ? (
        <div className="muted" data-testid="host-answered">
          {host}: {said[answered]}
          {answered === 'deny' ? '' : '; ask the agent to run the command again'}
        </div>
      ) : why ? (
        <div className="approval-buttons">
          <span className="muted">For next time:</span>
          <button disabled={busy} onClick={() => answer('always')} data-testid="host-allow-always" title={alwaysTitle(host)}>
            Always allow {host}
          </button>
          {conversation ? (
            <button disabled={busy} onClick={() => answer('conversation')} data-testid="host-allow-conversation" title={conversationTitle(host)}>
              Allow for this conversation
            </button>
          ) : null}
        </div>
      ) : (
        <div className="approval-buttons">
          <button disabled={busy} onClick={() => answer('conversation')} data-testid="host-allow-conversation" title={conversationTitle(host)}>
            Allow for this conversation
          </button>
          <button disabled={busy} onClick={() => answer('always')} data-testid="host-allow-always" title={alwaysTitle(host)}>
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

// endedWords says why a question about host ended unanswered: the backend's reason ('timeout' with the wait it
// had), the command's end, or a click the backend found too late ('gone').
export function endedWords(host: string, ended: string, waitMs?: number): string {
  switch (ended) {
    case 'timeout':
      return `No answer within ${Math.max(1, Math.round((waitMs ?? 120_000) / 1000))} s: ${host} was refused to this command.`
    case 'left':
      return `The command stopped waiting for an answer (it was stopped, or moved to the background): ${host} was refused to it.`
    case 'gone':
      return `The command was no longer waiting when you answered: ${host} was refused to it, and nothing was allowed.`
    default:
      return `The command ended before an answer: ${host} was not reached.`
  }
}

// HostAsks ask, while a command runs in allow-list mode, about the hosts it waits to reach (its connections are
// held until the answer): allow once (for the rest of this command), always (a network rule, then allowed), or
// deny (refused, naming the host). A question that ended unanswered (the wait ran out, the command ended) says so
// and offers only what still acts.
// result is the command's, once it ended: what became of each host there (refused, declined, or neither: reached)
// tells a card shown again later (a reopened conversation) what was answered.
export function HostAsks({ asks, running, conversation, result }: { asks: HostAskItem[]; running: boolean; conversation?: string; result?: AskResult }) {
  return (
    <div className="host-cards">
      {asks.map((a) => (
        <HostAsk key={target(a.host, a.port)} item={a} running={running} conversation={conversation} result={result} />
      ))}
    </div>
  )
}

type AskResult = { network_refused?: string[]; network_declined?: string[] }

function HostAsk({ item, running, conversation, result }: { item: HostAskItem; running: boolean; conversation?: string; result?: AskResult }) {
  const { host, port } = item
  const at = target(host, port)
  const { addPermissionRule, answerHost } = useBridge()
  const [live, setAnswered] = useState<LiveAnswer | null>(null)
  const [gone, setGone] = useState(false)
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<BackendError | null>(null)
  // An answer given in this window; else, once the command ended, what its result says became of the host.
  let answered = live
  if (!answered && !running && !item.ended && result) {
    // host:port since answers went by port; a bare host in results saved before that.
    if (result.network_declined?.includes(at) || result.network_declined?.includes(host)) answered = 'deny'
    else if (!result.network_refused?.includes(host)) answered = 'once'
  }
  // The backend's word first: a question it ended says why; then a click it found too late; then the command's end.
  const ended = answered ? null : (item.ended ?? (gone ? 'gone' : !running || !item.ask ? 'ended' : null))
  if (ended) return <HostCard host={host} port={port} conversation={conversation} why={endedWords(at, ended, item.wait_ms)} ended={ended} />
  const answer = (a: LiveAnswer) => {
    setBusy(true)
    const rule = a === 'always' ? addPermissionRule({ action: 'allow', tool: 'network', command: '', domain: host }) : Promise.resolve()
    Promise.resolve(rule)
      .then(() => answerHost(item.ask ?? '', host, a !== 'deny'))
      .then(() => setAnswered(a))
      .catch((e: unknown) => {
        const err = toBackendError(e)
        if (err.code === 'not_found') {
          // The question ended as the click went: the card says so (an Always rule already written stays).
          setGone(true)
          return
        }
        setError(err)
      })
      .finally(() => setBusy(false))
  }
  const said = { once: 'allowed for this command', always: 'always allowed in this project', deny: 'refused to this command' }
  return (
    <div className="approval host-card" data-testid="host-ask" data-host={host} data-port={port}>
      <div>
        The command is waiting to reach <code>{at}</code>, which is not on this project&apos;s list of hosts (allow-list network)
        {item.wait_ms ? `, for up to ${Math.round(item.wait_ms / 1000)} s` : ''}.
      </div>
      {answered ? (
        <div className="muted" data-testid="host-answered">
          {at}: {said[answered]}
        </div>
      ) : (
        <div className="approval-buttons">
          <button disabled={busy} onClick={() => answer('once')} data-testid="host-allow-once" title={`This command may reach ${at} until it ends; ${host} at another port is asked about again`}>
            Allow once
          </button>
          <button disabled={busy} onClick={() => answer('always')} data-testid="host-allow-always" title={alwaysTitle(host)}>
            Always for {host}
          </button>
          <button disabled={busy} onClick={() => answer('deny')} data-testid="host-deny" title={`Refuses ${at} to this command, which is told the host`}>
            Deny
          </button>
        </div>
      )}
      {error ? <ErrorNotice error={error} /> : null}
    </div>
  )
}
