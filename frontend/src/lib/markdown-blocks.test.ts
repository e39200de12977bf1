import { createElement } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import Markdown from 'react-markdown'
import remarkGfm from 'remark-gfm'
import { describe, expect, it } from 'vitest'
import { components, MessageText } from '../components/message-text'
import { markdownBlocks } from './markdown-blocks'

const html = (text: string) => renderToStaticMarkup(createElement(MessageText, { text }))
// The whole text parsed at once, as the answer was drawn before it was parsed in blocks.
const whole = (text: string) => renderToStaticMarkup(createElement('div', { className: 'markdown', 'data-testid': 'markdown' }, createElement(Markdown, { remarkPlugins: [remarkGfm], components, skipHtml: false }, text)))

// Answers as models write them, and the constructs that run across a blank line.
const cases: Record<string, string> = {
  'headings, paragraphs, code': '### Part 1\n\nThe parser reads each line.\n\n```go\nfunc part() int {\n\n\treturn 1\n}\n```\n\nAfter the code.\n',
  'a fence with a blank line and a line at the margin inside': '```\nfirst\n\nat the margin\n```\n\nafter\n',
  'a tilde fence closed only by tildes': '~~~md\n```\n\nstill code\n~~~\n\ntext\n',
  'a longer fence closed only by as long a one': '````\n```\n\ninside\n````\n\nout\n',
  'a loose list': '- one\n\n- two\n\n- three\n\nAfter the list.\n',
  'an ordered loose list with a paragraph in an item': '1. first\n\n   more of the first\n\n2. second\n\n10. tenth\n\nEnd.\n',
  'a list item with code': '1. Run:\n\n   ```bash\n   go test ./...\n\n   echo done\n   ```\n\n2. Then read.\n',
  'an indented code block': 'Code:\n\n    line one\n\n    line two\n\nText.\n',
  'a quote over a blank line': '> quoted\n>\n> more\n\n> another\n\nplain\n',
  'a table': '| a | b |\n|---|---|\n| 1 | 2 |\n\nBelow.\n',
  'setext headings and breaks': 'Title\n=====\n\ntext\n\n***\n\nSub\n---\n\nend\n',
  'a link reference': 'See [the docs][d].\n\nMore.\n\n[d]: https://example.com\n',
  'a footnote': 'A claim.[^1]\n\nMore.\n\n[^1]: The source.\n',
  'raw html over a blank line': '<pre>\na\n\nb\n</pre>\n\ntext\n',
  'a comment over a blank line': '<!--\n\nhidden\n-->\n\ntext\n',
  'a task list and emphasis': '- [x] done\n- [ ] todo\n\n*emphasis* and **strong** and `code`.\n',
  'an unfinished fence at the end (still streaming)': 'Before.\n\n```ts\nconst a = 1\n\nconst b',
  'inline backticks that look like a fence': '``` not a fence ` here\n\nnext\n',
}

describe('markdownBlocks', () => {
  for (const [name, text] of Object.entries(cases)) {
    it(`parses ${name} the same in blocks as whole`, () => {
      expect(markdownBlocks(text).join('')).toBe(text)
      expect(html(text)).toBe(whole(text))
    })
  }

  it('renders every prefix of a streamed answer the same in blocks as whole', () => {
    const text = Object.values(cases)
      .filter((t) => !/^ {0,3}\[[^\]]+\]:|^<(!|pre)/m.test(t))
      .join('\n')
    for (let n = 1; n <= text.length; n += 11) expect(html(text.slice(0, n)), text.slice(0, n)).toBe(whole(text.slice(0, n)))
  })

  it('cuts a long answer into many blocks, so a piece added re-parses the last one only', () => {
    const para = 'The parser reads each line, keeps the indentation. '
    const answer = Array.from({ length: 40 }, (_, i) => `### Part ${i + 1}\n\n${para.repeat(4)}\n\n\`\`\`go\nfunc part${i}() int { return ${i} }\n\`\`\`\n`).join('\n')
    const blocks = markdownBlocks(answer)
    expect(blocks.length).toBe(120)
    expect(Math.max(...blocks.map((b) => b.length))).toBeLessThan(250)
  })

  it('keeps text whose parts refer to one another whole', () => {
    expect(markdownBlocks(cases['a link reference'])).toHaveLength(1)
    expect(markdownBlocks(cases['a footnote'])).toHaveLength(1)
  })
})
