import type { ToolItem } from '../agent/conversation'
import type { SpawnResult } from '../agent/subagent'
import { ToolError } from './tool-error'

const str = (v: unknown): string => (typeof v === 'string' ? v : '')

// SubagentCard is a spawn_agent call: the subagent's label and task, and once it is over its final answer (what
// the main agent got) with its counts. The subagent's own calls are cards of their own, nested under this one.
export function SubagentCard({ item }: { item: ToolItem }) {
  const out = item.output as Partial<SpawnResult> | undefined
  const done = out && typeof out.answer === 'string'
  return (
    <div className={`tool-card subagent ${item.state}`} data-testid="subagent-card" data-tool={item.name} data-state={item.state} data-id={item.id} data-finish={out?.finish ?? ''}>
      <div className="tool-head">
        <span className="tool-name">subagent{item.input.write === true ? ' (may write)' : ''}</span>
        <code className="tool-summary">{str(item.input.label) || 'subagent'}</code>
        <span className="tool-state">{done ? out.finish : item.state}</span>
      </div>
      <details className="subagent-task">
        <summary>task</summary>
        <div className="muted" style={{ whiteSpace: 'pre-wrap' }}>
          {str(item.input.task)}
        </div>
      </details>
      {done ? (
        <>
          <div className="subagent-answer" data-testid="subagent-answer" style={{ whiteSpace: 'pre-wrap' }}>
            {out.answer}
          </div>
          <div className="muted" data-testid="subagent-counts">
            {out.steps} steps · {out.tool_calls} tool calls · {out.input_tokens} in / {out.output_tokens} out tokens
            {out.cost !== undefined ? ` · $${out.cost.toFixed(4)}` : ''}
          </div>
        </>
      ) : null}
      {item.error ? <ToolError error={item.error} /> : null}
    </div>
  )
}
