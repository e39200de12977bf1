import { describe, expect, it, vi } from 'vitest'
import type { ModelMessage } from 'ai'

const reads: string[] = []
vi.mock('../bridge', () => ({
  conversationBlob: (ws: string, _id: string, hash: string) => {
    reads.push(ws === 'ws-1' ? hash : `${hash} of the wrong project ${ws}`)
    return Promise.resolve(`content of ${hash}`)
  },
}))

const { forModel, hydrate } = await import('./stored')

const ref = (h: string) => ({ $blob: h, bytes: 90_000 })
const turn = (n: number): ModelMessage[] => [
  { role: 'user', content: `request ${n}` },
  { role: 'tool', content: [{ type: 'tool-result', toolCallId: `t${n}`, toolName: 'read_file', output: { type: 'json', value: { content: ref(`h${n}`) } as never } }] },
]

describe('stored results', () => {
  it('reads an item’s references in, once each through the cache', async () => {
    const item = { kind: 'tool', output: { content: ref('a'), again: ref('a') }, input: { path: 'x' } }
    reads.length = 0
    expect(await hydrate('ws-1', 'c', item)).toEqual({ kind: 'tool', output: { content: 'content of a', again: 'content of a' }, input: { path: 'x' } })
    await hydrate('ws-1', 'c', item)
    expect(reads).toEqual(['a'])
  })

  it('sends the model the latest turns’ results whole and the older ones as a note, reading only the latest', async () => {
    reads.length = 0
    const out = await forModel('ws-1', 'c', [1, 2, 3, 4, 5].flatMap(turn), 3)
    expect(JSON.stringify(out[1])).toContain('was elided from the conversation')
    expect(JSON.stringify(out[3])).toContain('was elided from the conversation')
    expect(JSON.stringify(out[5])).toContain('content of h3')
    expect(JSON.stringify(out[9])).toContain('content of h5')
    expect(JSON.stringify(out)).not.toContain('$blob')
    expect(reads.sort()).toEqual(['h3', 'h4', 'h5'])
  })
})
