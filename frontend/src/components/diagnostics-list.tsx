// DiagnosticsList shows on an edit's card the problems the project's check found after it, as the model got them.
export function DiagnosticsList({ output }: { output: unknown }) {
  const d = (output as { diagnostics?: { checks: string[]; problems: string[] } } | undefined)?.diagnostics
  if (!d || d.problems.length === 0) return null
  return (
    <div className="tool-diagnostics" data-testid="tool-diagnostics">
      <div className="muted">{d.checks.join('; ')} after this edit:</div>
      <ul>
        {d.problems.map((p) => (
          <li key={p} data-testid="diagnostic">
            <code>{p}</code>
          </li>
        ))}
      </ul>
    </div>
  )
}
