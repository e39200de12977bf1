// What the AI SDK retries and how long it waits: a response of 408, 409, 429 or 5xx, or a failed connection, is
// retried after the provider's retry-after-ms / retry-after (when 0–60 s), else 2 s, doubling with each attempt.
// The SDK does not say when it waits; a fetch that sees the failed response can, so the window can count down.
const firstDelayMs = 2000

export interface RetryNotice {
  attempt: number // 1 for the first retry
  status?: number // the provider's HTTP status; none for a failed connection
  waitMs: number // how long the SDK waits before the next attempt
}

export const retryableStatus = (status: number): boolean => status === 408 || status === 409 || status === 429 || status >= 500

// retryDelayMs is the SDK's wait before retry number attempt, given the failed response's headers.
export function retryDelayMs(attempt: number, headers?: Headers, now = Date.now()): number {
  const backoff = firstDelayMs * 2 ** (attempt - 1)
  let ms: number | undefined
  const afterMs = headers?.get('retry-after-ms')
  if (afterMs && !Number.isNaN(parseFloat(afterMs))) ms = parseFloat(afterMs)
  const after = headers?.get('retry-after')
  if (after && ms === undefined) ms = Number.isNaN(parseFloat(after)) ? Date.parse(after) - now : parseFloat(after) * 1000
  if (ms !== undefined && !Number.isNaN(ms) && ms >= 0 && (ms < 60_000 || ms < backoff)) return ms
  return backoff
}

// watchRetries wraps a provider's fetch: each response the SDK will retry is reported with the wait before the
// next attempt, up to maxRetries in a row (a good response starts the count again).
export function watchRetries(fetch: typeof globalThis.fetch, onRetry: (r: RetryNotice) => void, maxRetries = 3): typeof globalThis.fetch {
  let failed = 0
  return async (input, init) => {
    let res: Response
    try {
      res = await fetch(input, init)
    } catch (e) {
      if (!init?.signal?.aborted && (e as Error)?.name !== 'AbortError' && ++failed <= maxRetries) onRetry({ attempt: failed, waitMs: retryDelayMs(failed) })
      throw e
    }
    if (retryableStatus(res.status)) {
      if (++failed <= maxRetries) onRetry({ attempt: failed, status: res.status, waitMs: retryDelayMs(failed, res.headers) })
    } else failed = 0
    return res
  }
}
