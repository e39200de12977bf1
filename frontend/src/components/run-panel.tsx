import { useRef, useState } from 'react'
import { toBackendError, type BackendError, type ExecResult, type RunningCall } from '../bridge'
import { useBridge } from '../stores/project-scope'
import { sandboxLabel } from '../lib/sandbox-label'
import { ErrorNotice } from './error-notice'
import { JobList } from './job-list'

interface Run {
  key: number
  command: string
  output: { stream: string; data: string }[]
  result?: ExecResult
  error?: BackendError
  call?: RunningCall<ExecResult>
}

// RunPanel runs a program through exec_shell, as the agent does, streaming its output as it comes; Stop ends
// the program and everything it started. Above them, the background jobs the agent started.
// onSettings opens Settings: a command refused for a program not on the project's list offers it.
export function RunPanel({ onSettings }: { onSettings?: () => void }) {
  const { runTool } = useBridge()
  const [command, setCommand] = useState('')
  const [runs, setRuns] = useState<Run[]>([])
  const seq = useRef(0)

  const update = (key: number, f: (r: Run) => Run) => setRuns((rs) => rs.map((r) => (r.key === key ? f(r) : r)))

  const start = () => {
    const line = command.trim()
    if (!line) return
    const key = ++seq.current
    const call = runTool('exec_shell', { command: line, timeout_ms: 600000 }, (o) =>
      update(key, (r) => ({ ...r, output: [...r.output, { stream: o.stream, data: o.data }] })),
    )
    setRuns((rs) => [{ key, command: line, output: [], call }, ...rs])
    call.result
      .then((result) => update(key, (r) => ({ ...r, result, call: undefined })))
      .catch((e: unknown) => update(key, (r) => ({ ...r, error: toBackendError(e), call: undefined })))
  }

  return (
    <div className="run-panel" data-testid="run-panel">
      <form
        className="run-input"
        onSubmit={(e) => {
          e.preventDefault()
          start()
        }}
      >
        <input value={command} onChange={(e) => setCommand(e.target.value)} placeholder="go test ./..." aria-label="Command" spellCheck={false} data-testid="run-input" />
        <button type="submit" disabled={!command.trim()} data-testid="run-start">Run</button>
      </form>
      <JobList />
      <ul className="runs">
        {runs.map((r) => (
          <li key={r.key} className="run" data-testid="run" data-state={r.call ? 'running' : r.error ? 'refused' : 'done'}>
            <div className="run-head">
              <code className="run-command">{r.command}</code>
              {r.call ? (
                <button className="stop" onClick={() => void r.call?.cancel()} data-testid="run-stop">Stop</button>
              ) : null}
            </div>
            {r.output.length > 0 || r.result ? (
              <pre className="run-output" data-testid="run-output">
                {(r.result ? resultOutput(r.result) : r.output).map((o, i) => (
                  <span key={i} className={o.stream === 'stderr' ? 'stderr' : undefined}>{o.data}</span>
                ))}
              </pre>
            ) : null}
            {r.error ? <ErrorNotice error={r.error} actions={{ 'open-settings': onSettings }} /> : null}
            {r.call ? <div className="run-status">running…</div> : null}
            {r.result ? <RunStatus result={r.result} /> : null}
          </li>
        ))}
      </ul>
    </div>
  )
}

// resultOutput shows the final output: the result's (which keeps head and tail) rather than what streamed.
function resultOutput(r: ExecResult): { stream: string; data: string }[] {
  return [
    { stream: 'stdout', data: r.stdout },
    { stream: 'stderr', data: r.stderr },
  ]
}

function RunStatus({ result }: { result: ExecResult }) {
  const sb = sandboxLabel(result.sandbox)
  const how = result.job ? `still running: moved to the background as ${result.job.id}` : result.timed_out ? 'timed out' : result.cancelled ? 'stopped' : `exit ${result.exit_code}`
  return (
    <div className="run-status" data-testid="run-status">
      <span className={result.exit_code === 0 && !result.timed_out && !result.cancelled ? 'ok' : 'bad'} data-testid="run-exit">{how}</span>
      <span>{(result.duration_ms / 1000).toFixed(2)} s</span>
      {result.truncated ? <span>output cut</span> : null}
      <span className={`badge ${sb.ok ? 'ok' : 'warn'}`} title={sb.title} data-testid="run-sandbox">{sb.text}</span>
    </div>
  )
}
