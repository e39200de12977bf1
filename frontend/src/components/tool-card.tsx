import { useState } from 'react'
import type { ExecResult, SearchResult } from '../bridge'
import type { ToolItem } from '../agent/conversation'
import { fetchDomain } from '../agent/approvals'
import { resultImage } from '../agent/images'
import { ResultImage } from './result-image'
import { ApprovalCard } from './approval-card'
import { DiffView } from './diff-view'
import { AskUserCard } from './ask-user-card'
import { HostAsks, HostCards } from './host-card'
import { SubagentCard } from './subagent-card'
import { DiagnosticsList } from './diagnostics-list'
import { ToolError } from './tool-error'
import type { Approval } from '../stores/agent-session'

interface Props {
  item: ToolItem
  // conversation is the id of the conversation the call belongs to (a refused host allowed "for this conversation").
  conversation?: string
  onAnswer: (id: string, a: Approval) => void
  onUndo: (item: ToolItem) => void
  onOpen: (rel: string, line?: number) => void
}

const str = (v: unknown): string => (typeof v === 'string' ? v : '')

// summary is a call in one line, as a user would say it.
function summary(item: ToolItem): string {
  const i = item.input
  switch (item.name) {
    case 'exec_shell':
      return `$ ${str(i.command)}${Array.isArray(i.args) ? ` ${i.args.join(' ')}` : ''}`
    case 'search_files':
      return `search “${str(i.query)}”${i.path ? ` in ${str(i.path)}` : ''}`
    case 'write_file':
    case 'patch_file':
    case 'read_file':
    case 'list_directory':
      return `${item.name.replace('_', ' ')} ${str(i.path)}`
    case 'web_fetch':
      return `Fetch from ${fetchDomain(i) || str(i.url)}`
    default:
      return `${item.name} ${JSON.stringify(i)}`
  }
}

// ToolCard shows one tool call in the conversation: what it does, the approval it waits for, and its outcome:
// an edit's diff with Undo, a command's live output and exit, search hits that open the file at the line.
export function ToolCard(props: Props) {
  const card = props.item.name === 'ask_user' ? <AskUserCard item={props.item} onAnswer={props.onAnswer} /> : props.item.name === 'spawn_agent' ? <SubagentCard item={props.item} /> : <CallCard {...props} />
  // A subagent's call is indented under its spawn_agent card.
  return props.item.parent ? (
    <div className="subagent-child" data-testid="subagent-child" data-parent={props.item.parent} style={{ marginLeft: 16, borderLeft: '2px solid var(--border, #ccc)', paddingLeft: 6 }}>
      {card}
    </div>
  ) : (
    card
  )
}

function CallCard({ item, conversation, onAnswer, onUndo, onOpen }: Props) {
  const [busy, setBusy] = useState(false)
  return (
    <div className={`tool-card ${item.state}`} data-testid="tool-card" data-tool={item.name} data-state={item.state}>
      <div className="tool-head">
        <span className="tool-name">{item.name}</span>
        <code className="tool-summary" title={summary(item)}>{summary(item)}</code>
        <span className="tool-state">{item.state === 'waiting' ? 'needs approval' : item.undone ? 'undone' : item.state}</span>
      </div>
      {item.state === 'waiting' ? <ApprovalCard item={item} onAnswer={onAnswer} /> : null}
      {item.error ? <ToolError error={item.error} titled /> : null}
      {item.diff ? (
        <div className="tool-diff" data-testid="tool-diff">
          {item.edited ? <div className="muted" data-testid="tool-edited">applied as you edited it</div> : null}
          <DiffView diff={item.diff} />
          {(item.output as { backup?: string } | undefined)?.backup ? (
            <button
              className="link-button"
              disabled={item.undone || busy}
              onClick={() => {
                setBusy(true)
                Promise.resolve(onUndo(item)).finally(() => setBusy(false))
              }}
              data-testid="undo"
            >
              {item.undone ? 'Undone' : 'Undo'}
            </button>
          ) : null}
        </div>
      ) : null}
      <DiagnosticsList output={item.output} />
      {item.name === 'exec_shell' && (item.live || item.output) ? <ExecOutput item={item} /> : null}
      {item.asks?.length ? (
        <HostAsks asks={item.asks} running={item.state === 'running'} conversation={conversation} result={item.name === 'exec_shell' ? (item.output as ExecResult | undefined) : undefined} />
      ) : null}
      {item.name === 'exec_shell' && (item.output as ExecResult | undefined)?.network_refused?.length ? (
        <HostCards hosts={offerable(item.output as ExecResult).filter((h) => !item.asks?.some((a) => a.host === h))} conversation={conversation} />
      ) : null}
      {item.name === 'search_files' && item.state === 'done' ? <Hits result={item.output as SearchResult} onOpen={onOpen} /> : null}
      {item.state === 'done' && resultImage(item.output) ? <ResultImage output={item.output} /> : null}
      {item.state === 'done' && !resultImage(item.output) && !['exec_shell', 'write_file', 'patch_file'].includes(item.name) ? <FullResult output={item.output} /> : null}
    </div>
  )
}

// offerable are the hosts a command was refused that a card may offer a rule for: not on the list, rather than
// denied by a rule, an address commands never reach or a name that is not plain, which no allow rule lets through.
export function offerable(res: ExecResult): string[] {
  const fixed = new Set(res.network_unallowable ?? [])
  return (res.network_refused ?? []).filter((h) => !fixed.has(h))
}

// FullResult shows all the tool returned, on request: the model may have been sent a capped copy.
function FullResult({ output }: { output: unknown }) {
  const [open, setOpen] = useState(false)
  const content = (output as { content?: unknown } | undefined)?.content
  const text = typeof content === 'string' ? content : JSON.stringify(output, null, 2)
  return (
    <div className="tool-result">
      <button className="link-button" onClick={() => setOpen((o) => !o)} data-testid="tool-result-toggle">
        {open ? 'Hide result' : `Show result (${text.length.toLocaleString()} characters)`}
      </button>
      {open ? <pre className="tool-preview" data-testid="tool-result">{text}</pre> : null}
    </div>
  )
}

function ExecOutput({ item }: { item: ToolItem }) {
  const res = item.output as ExecResult | undefined
  const text = res && !item.error ? `${res.stdout}${res.stderr}` : (item.live ?? '')
  return (
    <div className="tool-exec">
      <pre className="run-output" data-testid="tool-output">{text}</pre>
      {res?.job ? (
        <div className="tool-exit" data-testid="tool-job">
          running in the background as {res.job.id} (the Run tab shows it and can stop it)
        </div>
      ) : null}
      {res && !item.error && !res.job ? (
        <div className="tool-exit" data-testid="tool-exit">
          {res.cancelled ? 'stopped' : res.timed_out ? 'timed out' : `exit ${res.exit_code}`} · {(res.duration_ms / 1000).toFixed(1)} s
        </div>
      ) : null}
    </div>
  )
}

function Hits({ result, onOpen }: { result: SearchResult; onOpen: (rel: string, line?: number) => void }) {
  const matches = result?.matches ?? []
  return (
    <ul className="tool-hits">
      {matches.slice(0, 20).map((m) => (
        <li key={`${m.path}:${m.line}`}>
          <button className="search-hit" onClick={() => onOpen(m.path, m.line)} data-testid="tool-hit" data-path={m.path} data-line={m.line}>
            <span className="search-line">{m.path}:{m.line}</span> <span className="search-text">{m.text.trim()}</span>
          </button>
        </li>
      ))}
      {matches.length > 20 ? <li className="tree-empty">{matches.length - 20} more</li> : null}
      {matches.length === 0 ? <li className="tree-empty">no matches</li> : null}
    </ul>
  )
}
