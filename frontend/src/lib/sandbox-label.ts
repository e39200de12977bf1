import type { SandboxInfo } from '../bridge'

// sandboxLabel says in a few words what confined a command, for a badge; the title carries the detail.
export function sandboxLabel(s: SandboxInfo): { text: string; title: string; ok: boolean } {
  if (!s.active) return { text: 'no sandbox', title: s.reason ?? 'commands run with your full rights', ok: false }
  const net = s.network ? 'network allowed' : 'no network'
  let title = `${s.kind ?? 'sandbox'} ABI ${s.level ?? '?'}: writes only to ${(s.writable ?? []).join(', ') || 'nothing'}; reads only those and ${(s.readable ?? []).join(', ') || 'nothing else'}; ${net}`
  if (s.protection === 'read-only') title += '; git settings and hooks, editor task files and dependency folders read-only'
  else if (s.protection) title += '; git settings and hooks, editor task files: only watched and put back (weaker: no mount namespace here)'
  return { text: `${s.kind ?? 'sandbox'} ${s.level ?? ''}`.trim(), title, ok: true }
}
