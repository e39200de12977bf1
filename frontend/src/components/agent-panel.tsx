import { useEffect, useRef, useState } from 'react'
import { setActiveProvider, type Project } from '../bridge'
import { listModels } from '../llm/providers'
import { useAgentSession } from '../stores/agent-session'
import { MessageText } from './message-text'
import { ToolCard } from './tool-card'

interface Props {
  project: Project
  onOpen: (rel: string, line?: number) => void
  onSettings: () => void
  // settingsSeq changes when the settings screen saved something; the panel reloads providers and settings.
  settingsSeq: number
}

// AgentPanel is the conversation with the agent: the request box, the streamed answer, a card per tool call with
// its approval, the conversation list, Stop, and the tokens used.
export function AgentPanel({ project, onOpen, onSettings, settingsSeq }: Props) {
  const s = useAgentSession(project)
  const [text, setText] = useState('')
  const [showList, setShowList] = useState(false)
  const [models, setModels] = useState<string[] | null>(null) // the active provider's, listed on first use
  const end = useRef<HTMLDivElement>(null)
  const { refreshProviders, refreshSettings } = s
  useEffect(() => {
    if (settingsSeq > 0) {
      refreshProviders()
      refreshSettings()
    }
  }, [settingsSeq, refreshProviders, refreshSettings])
  useEffect(() => {
    void end.current?.scrollIntoView({ block: 'end' }) // returns a promise in recent Chromium; effects must not
  }, [s.conv.items])

  const active = s.providers?.providers.find((p) => p.id === s.providers?.active)
  const activeId = active?.id
  useEffect(() => setModels(null), [activeId])
  const submit = () => {
    const t = text.trim()
    if (!t || s.running || !s.ready) return
    setText('')
    void s.send(t)
  }
  return (
    <section className="agent-panel" data-testid="agent-panel">
      <header className="agent-header">
        <button className="link-button" onClick={() => setShowList((v) => !v)} data-testid="conversations-toggle" title="Conversations">
          ☰
        </button>
        <span className="agent-title" data-testid="conversation-title">{s.conv.title || 'New conversation'}</span>
        <button className="link-button" onClick={() => void s.startNew()} disabled={s.running} data-testid="new-conversation">New</button>
        <button className="link-button" onClick={onSettings} data-testid="open-settings" title="Settings">⚙</button>
      </header>
      {showList ? (
        <ul className="conversation-list" data-testid="conversation-list">
          {s.list.length === 0 ? <li className="tree-empty">no saved conversations</li> : null}
          {s.list.map((m) => (
            <li key={m.id} className={m.id === s.conv.id ? 'selected' : ''}>
              <button className="conversation-open" onClick={() => void s.open(m.id).then(() => setShowList(false))} data-testid="conversation-item" data-id={m.id}>
                {m.title}
              </button>
              <button
                className="link-button"
                title="Rename"
                onClick={() => {
                  const t = window.prompt('Rename conversation', m.title)
                  if (t) void s.rename(m.id, t)
                }}
              >
                ✎
              </button>
              <button
                className="link-button"
                title="Delete"
                data-testid="conversation-delete"
                onClick={() => {
                  if (window.confirm(`Delete “${m.title}”?`)) void s.remove(m.id)
                }}
              >
                🗑
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      <div className="agent-log" data-testid="agent-log">
        {s.conv.items.length === 0 ? (
          <div className="placeholder">
            {active ? `Ask ${active.name}${active.model ? ` (${active.model})` : ''} to work on ${project.name}.` : 'Set up a model provider in Settings.'}
          </div>
        ) : null}
        {s.conv.items.map((it) => {
          switch (it.kind) {
            case 'user':
              return <div key={it.id} className="msg user" data-testid="msg-user">{it.text}</div>
            case 'assistant':
              return (
                <div key={it.id} className="msg assistant" data-testid="msg-assistant">
                  <MessageText text={it.text} />
                </div>
              )
            case 'notice':
              return <div key={it.id} className={`msg notice ${it.tone}`} data-testid="msg-notice">{it.text}</div>
            case 'tool':
              return <ToolCard key={it.id} item={it} onAnswer={s.answer} onUndo={(item) => void s.undo(item)} onOpen={onOpen} />
          }
        })}
        <div ref={end} />
      </div>
      <footer className="agent-footer">
        <textarea
          value={text}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && !e.shiftKey) {
              e.preventDefault()
              submit()
            }
          }}
          placeholder={s.running ? 'The agent is working…' : 'Ask the agent (Enter to send, Shift+Enter for a new line)'}
          aria-label="Message to the agent"
          data-testid="agent-input"
          rows={3}
        />
        <div className="agent-actions">
          <span className="agent-model" data-testid="agent-model">{active ? `${active.name} · ${active.model || 'no model'}` : 'no provider'}</span>
          {active ? (
            <select
              className="agent-model-pick"
              value={active.model}
              aria-label="Model"
              title="Model"
              data-testid="agent-model-pick"
              disabled={s.running}
              onFocus={() => {
                if (models === null) {
                  listModels(active)
                    .then(setModels)
                    .catch(() => setModels([]))
                }
              }}
              onChange={(e) => {
                void setActiveProvider(active.id, e.target.value).then(() => s.refreshProviders())
              }}
            >
              {active.model ? null : <option value="">choose a model…</option>}
              {[...new Set([active.model, ...(models ?? [])])].filter(Boolean).map((m) => (
                <option key={m} value={m}>
                  {m}
                </option>
              ))}
            </select>
          ) : null}
          <span className="agent-usage" data-testid="agent-usage" title="Tokens used by this conversation">
            {s.conv.usage.input.toLocaleString()} in · {s.conv.usage.output.toLocaleString()} out
          </span>
          {s.running ? (
            <button className="danger" onClick={s.stop} data-testid="agent-stop">Stop</button>
          ) : (
            <button onClick={submit} disabled={!text.trim() || !s.ready} data-testid="agent-send">Send</button>
          )}
        </div>
      </footer>
    </section>
  )
}
