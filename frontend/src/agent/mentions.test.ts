import { describe, expect, it } from 'vitest'
import { attachMentions, mentionAt, mentions } from './mentions'

describe('mentions', () => {
  it('finds @paths and line ranges, not e-mail addresses', () => {
    expect(mentions('look at @src/app.ts and @go.mod:3-9, mail me at a@b.com.')).toEqual([
      { path: 'src/app.ts', from: undefined, to: undefined },
      { path: 'go.mod', from: 3, to: 9 },
    ])
    expect(mentions('fix @calc.go.')).toEqual([{ path: 'calc.go', from: undefined, to: undefined }])
  })

  it('attaches what read_file returns, and skips what it cannot read', async () => {
    const reads: unknown[] = []
    const { attachments, attached } = await attachMentions('see @a.go:2-3 and @missing.go', async (path, offset, limit) => {
      reads.push({ path, offset, limit })
      if (path === 'missing.go') throw new Error('not_found')
      return { content: 'line 2\nline 3\n' }
    })
    expect(reads).toEqual([
      { path: 'a.go', offset: 2, limit: 2 },
      { path: 'missing.go', offset: undefined, limit: undefined },
    ])
    expect(attached).toEqual(['a.go:2-3'])
    expect(attachments).toContain('<file path="a.go:2-3">\nline 2\nline 3\n')
  })

  it('knows the mention being typed at the caret', () => {
    expect(mentionAt('open @src/ap', 12)).toEqual({ start: 5, query: 'src/ap' })
    expect(mentionAt('mail a@b', 8)).toBeNull()
    expect(mentionAt('@', 1)).toEqual({ start: 0, query: '' })
  })
})
