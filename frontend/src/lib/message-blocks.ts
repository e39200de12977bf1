// Splitting a model's answer into what the panel renders: prose and fenced code blocks (```lang ... ```), and
// within prose, `inline code`. Text stays text: nothing is parsed as HTML.

export type Block = { kind: 'text'; text: string } | { kind: 'code'; lang: string; text: string }

export function blocks(s: string): Block[] {
  const out: Block[] = []
  const re = /^```([\w+-]*)[^\n]*\n([\s\S]*?)(?:^```[ \t]*$|(?![\s\S]))/gm
  let last = 0
  for (let m = re.exec(s); m; m = re.exec(s)) {
    if (m.index > last) out.push({ kind: 'text', text: s.slice(last, m.index) })
    out.push({ kind: 'code', lang: m[1] ?? '', text: (m[2] ?? '').replace(/\n$/, '') })
    last = re.lastIndex
    if (m[0] === '') re.lastIndex++
  }
  if (last < s.length) out.push({ kind: 'text', text: s.slice(last) })
  return out.filter((b) => b.kind === 'code' || b.text.trim() !== '')
}

export type Span = { code: boolean; text: string }

// spans splits prose into plain text and `inline code`.
export function spans(s: string): Span[] {
  return s.split(/(`[^`\n]+`)/).filter(Boolean).map((t) => (t.length > 2 && t.startsWith('`') && t.endsWith('`') ? { code: true, text: t.slice(1, -1) } : { code: false, text: t }))
}
