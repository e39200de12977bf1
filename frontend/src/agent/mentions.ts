// Mentions: @path, or @path:10-20 for a line range, in a request attaches that file's text to what the model gets
// (the conversation shows the request as typed, and which files went with it).

const mention = /(^|\s)@((?:[\w.-]+\/)*[\w.-]+)(?::(\d+)(?:-(\d+))?)?(?=[\s,;:!?)]|$)/g

export interface Mention {
  path: string
  from?: number
  to?: number
}

// mentions lists the files a request mentions, each once.
export function mentions(text: string): Mention[] {
  const out: Mention[] = []
  for (const m of text.matchAll(mention)) {
    const path = m[2].replace(/[.]+$/, '') // a sentence's full stop is not part of the name
    const from = m[3] ? Number(m[3]) : undefined
    const to = m[4] ? Number(m[4]) : from
    if (!out.some((o) => o.path === path && o.from === from && o.to === to)) out.push({ path, from, to })
  }
  return out
}

// A file attached whole is capped; the model can read the rest with read_file.
const maxAttach = 20_000

type Read = (path: string, offset?: number, limit?: number) => Promise<{ content: string; total_lines?: number }>

// attachMentions reads each mentioned file through read (the backend's read_file, so the project's rules apply)
// and returns the text to append to the request and the names of what was attached.
export async function attachMentions(text: string, read: Read): Promise<{ attachments: string; attached: string[] }> {
  const parts: string[] = []
  const attached: string[] = []
  for (const m of mentions(text).slice(0, 10)) {
    const label = m.from ? `${m.path}:${m.from}-${m.to}` : m.path
    try {
      const r = await read(m.path, m.from, m.from && m.to ? m.to - m.from + 1 : undefined)
      let body = r.content
      const cut = body.length > maxAttach
      if (cut) body = body.slice(0, maxAttach)
      parts.push(`<file path="${label}">\n${body}${cut ? '\n[… cut: read the rest with read_file]' : ''}\n</file>`)
      attached.push(label)
    } catch {
      // Not a file (an e-mail address, a handle): left as text.
    }
  }
  return { attachments: parts.length ? `Attached by the user:\n${parts.join('\n')}` : '', attached }
}

// mentionAt finds the @word being typed at the caret, for completion: its start and the text after @.
export function mentionAt(text: string, caret: number): { start: number; query: string } | null {
  const before = text.slice(0, caret)
  const m = /(^|\s)@([\w./-]*)$/.exec(before)
  if (!m) return null
  return { start: caret - m[2].length - 1, query: m[2] }
}
