import { describe, expect, test } from 'vitest'
import { retryDelayMs, watchRetries, type RetryNotice } from './retry-watch'

const respond = (statuses: number[], headers: Record<string, string> = {}) => {
  let i = 0
  return (async () => new Response('{}', { status: statuses[i++], headers })) as typeof fetch
}

describe('the wait before a provider retry, as the AI SDK waits', () => {
  test.each<[string, number, Record<string, string>, number]>([
    ['first retry', 1, {}, 2000],
    ['second retry doubles', 2, {}, 4000],
    ['third', 3, {}, 8000],
    ['retry-after in seconds', 1, { 'retry-after': '4' }, 4000],
    ['retry-after-ms wins', 1, { 'retry-after-ms': '1500', 'retry-after': '9' }, 1500],
    ['an unreasonable retry-after is ignored', 1, { 'retry-after': '600' }, 2000],
  ])('%s', (_, attempt, h, want) => expect(retryDelayMs(attempt, new Headers(h))).toBe(want))

  test('each retryable response is reported with its wait, a good one starts the count again', async () => {
    const seen: RetryNotice[] = []
    const f = watchRetries(respond([529, 429, 200, 503, 400]), (r) => seen.push(r))
    for (let i = 0; i < 5; i++) await f('http://x/v1/messages')
    expect(seen).toEqual([
      { attempt: 1, status: 529, waitMs: 2000 },
      { attempt: 2, status: 429, waitMs: 4000 },
      { attempt: 1, status: 503, waitMs: 2000 },
    ])
  })

  test('past the SDK’s retries nothing is promised', async () => {
    const seen: RetryNotice[] = []
    const f = watchRetries(respond([500, 500, 500, 500]), (r) => seen.push(r), 3)
    for (let i = 0; i < 4; i++) await f('http://x')
    expect(seen.map((r) => r.attempt)).toEqual([1, 2, 3])
  })

  test('a failed connection is a retry; a stop is not', async () => {
    const seen: RetryNotice[] = []
    const down = watchRetries((async () => {
      throw new TypeError('connection refused')
    }) as typeof fetch, (r) => seen.push(r))
    await expect(down('http://x')).rejects.toThrow('connection refused')
    const ctl = new AbortController()
    ctl.abort()
    const stopped = watchRetries((async () => {
      throw new DOMException('aborted', 'AbortError')
    }) as typeof fetch, (r) => seen.push(r))
    await expect(stopped('http://x', { signal: ctl.signal })).rejects.toThrow()
    expect(seen).toEqual([{ attempt: 1, waitMs: 2000 }])
  })
})
