import { afterEach, describe, expect, it, vi } from 'vitest'
import type { LLMRequest, LLMStream } from '../bridge'
import { relayFetch } from './relay-fetch'

// The bridge stand-in: relay() hands the request to a test-defined responder, which plays events back in any order.
const bridge = vi.hoisted(() => ({
  listeners: new Set<(e: LLMStream) => void>(),
  respond: (_id: string, _req: LLMRequest): Promise<void> => Promise.resolve(),
  cancelled: [] as string[],
}))
vi.mock('../bridge', () => ({
  relay: (id: string, req: LLMRequest) => bridge.respond(id, req),
  cancelRelay: (id: string) => {
    bridge.cancelled.push(id)
    return Promise.resolve(true)
  },
  onLLMStream: (f: (e: LLMStream) => void) => {
    bridge.listeners.add(f)
    return () => bridge.listeners.delete(f)
  },
}))

const emit = (e: LLMStream) => bridge.listeners.forEach((l) => l(e))
const b64 = (s: string) => btoa(s)
const head = { status: 200, status_text: 'OK', headers: { 'content-type': 'text/event-stream' } }

afterEach(() => {
  bridge.listeners.clear()
  bridge.cancelled = []
})

describe('relayFetch', () => {
  it('sends the request through the backend and puts pieces back in order, whatever order they arrive in', async () => {
    let seen: LLMRequest | undefined
    bridge.respond = async (id, req) => {
      seen = req
      emit({ id, seq: 2, end: true, head }) // the end overtook everything
      emit({ id, seq: 1, data: b64('world') })
      emit({ id: 'someone-else', seq: 0, data: b64('noise') })
      emit({ id, seq: 0, data: b64('hello ') })
      emit({ id, seq: 0, head })
    }
    const res = await relayFetch('ollama')('http://localhost:11434/v1/chat/completions', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"a":1}' })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('text/event-stream')
    expect(await res.text()).toBe('hello world')
    expect(seen).toEqual({ provider: 'ollama', url: 'http://localhost:11434/v1/chat/completions', method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"a":1}' })
    expect(bridge.listeners.size).toBe(0)
  })

  it('fails like fetch when there is no response, with the reason', async () => {
    bridge.respond = async (id) => {
      emit({ id, seq: 0, end: true, error: 'dial tcp 127.0.0.1:11434: connect: connection refused' })
      throw new Error('refused')
    }
    await expect(relayFetch('ollama')('http://localhost:11434/v1/models')).rejects.toThrow(/connection refused/)
  })

  it('aborts: the backend request is cancelled and the body errors with AbortError', async () => {
    let rid = ''
    bridge.respond = (id) => {
      rid = id
      emit({ id, seq: 0, head })
      emit({ id, seq: 0, data: b64('partial') })
      return new Promise(() => undefined)
    }
    const ctl = new AbortController()
    const res = await relayFetch('p')('http://x/v1/chat/completions', { signal: ctl.signal })
    const reader = res.body!.getReader()
    expect(new TextDecoder().decode((await reader.read()).value)).toBe('partial')
    ctl.abort()
    expect(bridge.cancelled).toEqual([rid])
    emit({ id: rid, seq: 1, end: true, head, error: 'aborted' })
    await expect(reader.read()).rejects.toMatchObject({ name: 'AbortError' })
  })
})
