import { describe, expect, it } from 'vitest'
import { blocks, spans } from './message-blocks'

describe('message blocks', () => {
  it('splits prose and fenced code', () => {
    expect(blocks('Fixed it:\n```go\nreturn a + b\n```\nDone.')).toEqual([
      { kind: 'text', text: 'Fixed it:\n' },
      { kind: 'code', lang: 'go', text: 'return a + b' },
      { kind: 'text', text: '\nDone.' },
    ])
  })
  it('shows a fence still streaming as code', () => {
    expect(blocks('Here:\n```ts\nconst a = 1\n')).toEqual([
      { kind: 'text', text: 'Here:\n' },
      { kind: 'code', lang: 'ts', text: 'const a = 1' },
    ])
  })
  it('leaves plain text and HTML-looking text alone', () => {
    expect(blocks('a <b>bold</b> claim')).toEqual([{ kind: 'text', text: 'a <b>bold</b> claim' }])
  })
  it('marks inline code', () => {
    expect(spans('run `go test` now')).toEqual([
      { code: false, text: 'run ' },
      { code: true, text: 'go test' },
      { code: false, text: ' now' },
    ])
  })
})
