// markdownBlocks cuts Markdown into top-level blocks that parse alone exactly as they parse together, so an answer
// streaming in is parsed again one block at a time: the blocks before the last keep their text, and only the last,
// which the stream is still adding to, changes. It cuts only where nothing can carry across: at a blank line outside
// a fenced code block, before a line that starts at the margin and opens neither a list item nor a quote nor raw
// HTML (a loose list's next item, an item's next paragraph and an indented code block's next lines all belong to
// what came before). Text whose parts refer to one another (link reference and footnote definitions) or may hold
// raw HTML blocks that run across blank lines is one block.
export function markdownBlocks(text: string): string[] {
  if (joined.test(text)) return [text]
  const blocks: string[] = []
  let start = 0
  let fence: { char: string; len: number } | null = null
  let blank = false
  let at = 0
  while (at < text.length) {
    const nl = text.indexOf('\n', at)
    const end = nl < 0 ? text.length : nl
    const line = text.slice(at, end)
    if (fence) {
      const close = fenceLine.exec(line)
      if (close && close[2] === '' && close[1][0] === fence.char && close[1].length >= fence.len) fence = null
    } else if (line.trim() === '') {
      blank = true
    } else {
      if (blank && at > start && cutBefore.test(line)) {
        blocks.push(text.slice(start, at))
        start = at
      }
      blank = false
      const open = fenceLine.exec(line)
      // A backtick fence's info string may not hold a backtick (that line is inline code, not a fence).
      if (open && !(open[1][0] === '`' && open[2].includes('`'))) fence = { char: open[1][0], len: open[1].length }
    }
    at = end + 1
  }
  blocks.push(text.slice(start))
  return blocks
}

// A line that opens or closes a fenced code block: up to three spaces, three or more backticks or tildes, then
// the info string (empty on a closing fence).
const fenceLine = /^ {0,3}(`{3,}|~{3,})(.*)$/

// A block may start on this line: it is at the margin and is no list item, quote, table row or HTML.
const cutBefore = /^(?![-*+]( |$)|\d{1,9}[.)]( |$)|>|<|\|)\S/

// Text that is parsed whole: a link reference or footnote definition (used from anywhere in the text), or raw
// HTML that may run across blank lines (comments, pre, script, style, textarea, CDATA, declarations).
const joined = /^ {0,3}\[[^\]]+\]:|^ {0,3}<(!|\?|pre|script|style|textarea)/im
