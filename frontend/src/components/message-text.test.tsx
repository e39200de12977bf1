// @vitest-environment jsdom
import { act } from 'react'
import { createRoot } from 'react-dom/client'
import { afterEach, describe, expect, it, vi } from 'vitest'

// The Markdown parser counts what it is given: the work a streamed piece costs is the text parsed for it.
const parsed = vi.hoisted(() => ({ chars: 0, calls: 0 }))
vi.mock('react-markdown', async (load) => {
  const real = (await load()) as typeof import('react-markdown')
  const Counted = (props: Parameters<typeof real.default>[0]) => {
    parsed.calls++
    parsed.chars += String(props.children ?? '').length
    return real.default(props)
  }
  return { ...real, default: Counted }
})
vi.mock('../bridge', () => ({ openExternal: () => undefined }))

;(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true
const { MessageText } = await import('./message-text')

let unmount: (() => void) | null = null
afterEach(() => {
  unmount?.()
  unmount = null
})

// An answer as window-latency's bench streams it: 40 parts of a heading, a paragraph and a code block.
const para = 'The parser reads each line, keeps the indentation, and hands the tokens to the next stage without copying them. '
const answer = Array.from({ length: 40 }, (_, i) => `### Part ${i + 1}\n\n${para.repeat(4)}\n\n\`\`\`go\nfunc part${i}() int { return ${i} }\n\`\`\`\n`).join('\n')

describe('an answer streaming in', () => {
  it('parses about one block per piece, not the whole answer so far', () => {
    const host = document.createElement('div')
    document.body.append(host)
    const r = createRoot(host)
    unmount = () => act(() => r.unmount())
    const piece = 120
    let pieces = 0
    for (let n = piece; n < answer.length + piece; n += piece) {
      act(() => r.render(<MessageText text={answer.slice(0, n)} />))
      pieces++
    }
    // The whole answer is on screen as one parse of it would show it.
    expect(host.querySelectorAll('h3')).toHaveLength(40)
    expect(host.querySelectorAll('[data-testid="code-block"]')).toHaveLength(40)
    expect(host.textContent).toContain('Part 40')
    // Parsing the whole text each piece would parse about half the answer per piece on average (12,000 characters
    // here); a block at a time, a piece parses its block and, when it starts a block, the one it ended.
    const perPiece = parsed.chars / pieces
    expect(answer.length).toBeGreaterThan(20000)
    expect(perPiece).toBeLessThan(600)
  }, 30_000)

  it('parses nothing again when the answer is drawn again unchanged, and only its end when it grows', () => {
    const host = document.createElement('div')
    const r = createRoot(host)
    unmount = () => act(() => r.unmount())
    act(() => r.render(<MessageText text={answer} />))
    const before = parsed.calls
    act(() => r.render(<MessageText text={answer} />))
    expect(parsed.calls).toBe(before)
    act(() => r.render(<MessageText text={`${answer}\nOne more line.`} />))
    // The last code block took the blank line that ends it, and the new line is a block: the 118 before kept their text.
    expect(parsed.calls - before).toBe(2)
  })
})
