import { useCallback, useEffect, useState } from 'react'
import { mcpSecretNames, mcpSecretStorage, setMCPSecret, toBackendError, type BackendError, type MCPRefusedHost, type MCPServerStatus } from '../bridge'
import { useBridge } from '../stores/project-scope'
import { ErrorNotice } from './error-notice'
import { KeyStorageNote } from './key-storage'

// stateWords says a server's state as the list shows it.
export function stateWords(s: MCPServerStatus): string {
  switch (s.state) {
    case 'connected':
      return `connected, ${s.tools?.length ?? 0} tool${s.tools?.length === 1 ? '' : 's'}${s.protocol ? ` (${s.protocol})` : ''}`
    case 'failed':
      return 'failed'
    case 'starting':
      return 'starting…'
    case 'disabled':
      return 'disabled'
    default:
      return 'not started (starts at its first call)'
  }
}

// MCPServers shows the open project's MCP servers, the ones the user's settings name (mcp_servers in the
// project's entry): each one's state, its tools, why it failed with the end of its error output, and the sandbox
// it runs in. It follows their changes as the backend reports them.
export function MCPServers() {
  const { mcpServers, mcpServersConfig, onMCPServersChanged, restartMCPServers, saveMCPServersConfig, signInMCPServer, signOutMCPServer } = useBridge()
  const [signingIn, setSigningIn] = useState('')
  const [servers, setServers] = useState<MCPServerStatus[] | null>(null)
  const [error, setError] = useState<BackendError | null>(null)
  const [config, setConfig] = useState('')
  const [saved, setSaved] = useState('')
  useEffect(() => {
    mcpServersConfig()
      .then(setConfig)
      .catch(() => undefined)
  }, [mcpServersConfig])
  const reload = useCallback(
    () =>
      mcpServers()
        .then(setServers)
        .catch((e: unknown) => setError(toBackendError(e))),
    [mcpServers],
  )
  useEffect(() => {
    void reload()
    return onMCPServersChanged(() => void reload())
  }, [reload, onMCPServersChanged])
  if (!servers) return error ? <ErrorNotice error={error} /> : null
  return (
    <section className="mcp-servers" data-testid="mcp-servers">
      <h3 id="settings-mcp-servers">MCP servers the agent uses</h3>
      <p className="muted">
        Named in the <code>mcp_servers</code> entry of this project in Rooted's settings file, never in the project. Each program runs in Rooted's sandbox: it reads the project and the
        toolchains, writes only a folder of its own, and has the network only if commands have it or its entry says <code>"network": true</code> (<code>"write_project": true</code> lets it change
        the project, <code>"readable"</code> names more folders it may read). Every call of its tools asks first, unless a permission rule allows it (<code>mcp__server__*</code> covers a whole server).
      </p>
      {error ? <ErrorNotice error={error} /> : null}
      {servers.length === 0 ? <p className="tree-empty">no MCP servers in this project's settings</p> : null}
      <ul className="rule-list">
        {servers.map((s) => (
          <li key={s.name} data-testid={`mcp-server-${s.name}`}>
            <strong>{s.name}</strong> <span className="muted">{s.transport}</span> · <span data-testid="mcp-server-state">{stateWords(s)}</span>
            {s.state === 'failed' && s.error ? <pre className="mcp-server-error">{s.error}</pre> : null}
            {s.transport === 'http' && (s.auth === 'sign_in' || s.auth === 'signed_in') ? (
              <button
                type="button"
                disabled={signingIn === s.name}
                data-testid="mcp-server-sign-in"
                title={s.auth === 'sign_in' ? 'Opens your browser to sign in to this server; Rooted keeps the sign-in outside the project' : 'Forget the sign-in stored for this server'}
                onClick={() => {
                  const act = s.auth === 'sign_in' ? signInMCPServer : signOutMCPServer
                  setSigningIn(s.name)
                  act(s.name)
                    .then((st) => {
                      setServers(st)
                      setError(null)
                    })
                    .catch((e: unknown) => setError(toBackendError(e)))
                    .finally(() => setSigningIn(''))
                }}
              >
                {signingIn === s.name ? 'Waiting for the browser…' : s.auth === 'sign_in' ? 'Sign in' : 'Sign out'}
              </button>
            ) : null}
            {s.tools?.length ? <div className="muted">{s.tools.join(', ')}</div> : null}
            <ServerHosts server={s.name} refused={s.refused_hosts ?? []} allowed={s.allowed_hosts ?? []} onChanged={setServers} onError={setError} />
            {s.stderr ? (
              <details>
                <summary>Its error output (the last of it)</summary>
                <pre>{s.stderr}</pre>
              </details>
            ) : null}
            {s.sandbox ? (
              <details>
                <summary>Its sandbox</summary>
                {s.sandbox.active ? (
                  <>
                    <p>Write (and read): {(s.sandbox.writable ?? []).join(', ')}</p>
                    <p>Read only: {(s.sandbox.readable ?? []).join(', ')}</p>
                    <p>Network: {s.sandbox.network ? 'yes' : 'no'}</p>
                  </>
                ) : (
                  <p>{s.sandbox.reason}</p>
                )}
              </details>
            ) : null}
          </li>
        ))}
      </ul>
      <details>
        <summary>Edit the servers (JSON, as other clients write them)</summary>
        <p className="muted">
          <code>{'{"name": {"command": "npx", "args": ["-y", "some-server"], "env_vars": ["GITHUB_TOKEN"], "env": {"KEY": "${keyring:my-key}"}}}'}</code> or{' '}
          <code>{'{"name": {"url": "https://…", "headers": {"Authorization": "Bearer ${keyring:docs-token}"}}}'}</code>. <code>env_vars</code> and <code>{'${NAME}'}</code> pass your
          environment's variables by name; <code>{'${keyring:NAME}'}</code> is a secret stored below, so none need be written here in clear. A server that asks for OAuth shows Sign in.
        </p>
        <textarea value={config} onChange={(e) => setConfig(e.target.value)} rows={8} spellCheck={false} data-testid="mcp-servers-config" />
        <button
          type="button"
          onClick={() =>
            saveMCPServersConfig(config)
              .then((st) => {
                setServers(st)
                setError(null)
                setSaved('applied: saved, and the servers start again with it')
              })
              .catch((e: unknown) => setError(toBackendError(e)))
          }
          data-testid="mcp-servers-save"
          title="Servers are programs Rooted starts: the edit takes effect when you apply it, not as you type"
        >
          Apply and restart the servers
        </button>
        {saved ? <div className="settings-saved">{saved}</div> : null}
      </details>
      <MCPSecrets onError={setError} />
      {servers.length > 0 ? (
        <button
          type="button"
          onClick={() =>
            restartMCPServers()
              .then(setServers)
              .catch((e: unknown) => setError(toBackendError(e)))
          }
          data-testid="mcp-servers-restart"
        >
          Restart the servers (after editing their settings)
        </button>
      ) : null}
    </section>
  )
}

// ServerHosts are, under a server, the hosts its proxy refused in allow-list mode, each with how often and when
// last, and the hosts allowed for it alone. A refused host a grant can change has Allow HOST for SERVER: the host is
// kept in the user's settings for this server only, which its proxy reads at its next connection (no restart); the
// project's commands and its other servers are still refused it. A host denied by a rule, or resolving to a
// private address, says why instead. Each allowed host has Remove.
function ServerHosts({
  server,
  refused,
  allowed,
  onChanged,
  onError,
}: {
  server: string
  refused: MCPRefusedHost[]
  allowed: string[]
  onChanged: (st: MCPServerStatus[]) => void
  onError: (e: BackendError | null) => void
}) {
  const { allowMCPServerHost, removeMCPServerHost } = useBridge()
  const [busy, setBusy] = useState('')
  const [justAllowed, setJustAllowed] = useState('')
  const change = (host: string, act: typeof allowMCPServerHost, done: () => void) => {
    setBusy(host)
    act(server, host)
      .then((st) => {
        done()
        onChanged(st)
        onError(null)
      })
      .catch((e: unknown) => onError(toBackendError(e)))
      .finally(() => setBusy(''))
  }
  if (refused.length === 0 && allowed.length === 0) return null
  return (
    <div className="mcp-refused" data-testid="mcp-server-refused">
      {refused.length ? <div className="muted">Refused by Rooted&apos;s network proxy (this project&apos;s programs reach only listed hosts):</div> : null}
      <ul className="rule-list">
        {refused.map((h) => (
          <li key={h.host} data-testid="mcp-refused-host" data-host={h.host}>
            <code>{h.host}</code>{' '}
            <span className="muted" title={h.reason}>
              {h.count === 1 ? 'once' : `${h.count} times`}, last at {new Date(h.last).toLocaleTimeString()}
            </span>{' '}
            {h.allowable ? (
              <button
                type="button"
                disabled={busy === h.host}
                onClick={() => change(h.host, allowMCPServerHost, () => setJustAllowed(h.host))}
                data-testid="mcp-allow-host"
                title={`Lets ${server} alone reach the host, from its next connection (no restart); this project's commands and its other servers are still refused it. Kept in your settings, never in the project. To open it to the project's commands too, add it to the project's network hosts.`}
              >
                Allow {h.host} for {server}
              </button>
            ) : (
              <span className="muted" data-testid="mcp-refused-why">
                {h.reason}
              </span>
            )}
          </li>
        ))}
      </ul>
      {justAllowed && allowed.includes(justAllowed) ? (
        <div className="settings-saved" data-testid="mcp-host-allowed">
          {justAllowed} is allowed for {server} alone: it reaches it at its next connection
        </div>
      ) : null}
      {allowed.length ? (
        <>
          <div className="muted">Hosts {server} may reach besides the project&apos;s (this project&apos;s commands may not):</div>
          <ul className="rule-list">
            {allowed.map((h) => (
              <li key={h} data-testid="mcp-allowed-host" data-host={h}>
                <code>{h}</code>{' '}
                <button type="button" disabled={busy === h} onClick={() => change(h, removeMCPServerHost, () => setJustAllowed(''))} data-testid="mcp-remove-host" title={`${server} is refused the host again from its next connection`}>
                  Remove
                </button>
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </div>
  )
}

// MCPSecrets stores the secrets servers' entries name as ${keyring:NAME}: the names are listed, the values never
// come back to the window.
function MCPSecrets({ onError }: { onError: (e: BackendError | null) => void }) {
  const [names, setNames] = useState<string[]>([])
  const [name, setName] = useState('')
  const [value, setValue] = useState('')
  useEffect(() => {
    mcpSecretNames()
      .then(setNames)
      .catch(() => undefined)
  }, [])
  const store = (n: string, v: string) =>
    setMCPSecret(n, v)
      .then((ns) => {
        setNames(ns)
        setName('')
        setValue('')
        onError(null)
      })
      .catch((e: unknown) => onError(toBackendError(e)))
  return (
    <details data-testid="mcp-secrets">
      <summary>Secrets for the servers ({names.length})</summary>
      <p className="muted">Kept for you, never in a project or the settings file; a server reads them when it starts. Sign-ins are kept in the same place.</p>
      <KeyStorageNote label="Secrets and sign-ins" noun="secrets or sign-ins" load={mcpSecretStorage} testid="mcp-secret-storage" />
      <ul className="rule-list">
        {names.map((n) => (
          <li key={n}>
            <code>{`\${keyring:${n}}`}</code>{' '}
            <button type="button" onClick={() => void store(n, '')}>
              Remove
            </button>
          </li>
        ))}
      </ul>
      <input aria-label="Secret name" placeholder="name" value={name} onChange={(e) => setName(e.target.value)} data-testid="mcp-secret-name" />
      <input aria-label="Secret value" placeholder="value" type="password" value={value} onChange={(e) => setValue(e.target.value)} data-testid="mcp-secret-value" />
      <button type="button" disabled={!name || !value} onClick={() => void store(name, value)} data-testid="mcp-secret-save">
        Store
      </button>
    </details>
  )
}
