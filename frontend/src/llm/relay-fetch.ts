import { cancelRelay, onLLMStream, relay, type LLMStream } from '../bridge'

let next = 0

function decode(b64: string): Uint8Array {
  const bin = atob(b64)
  const out = new Uint8Array(bin.length)
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i)
  return out
}

const abortError = (): DOMException => new DOMException('The request was aborted.', 'AbortError')

// relayFetch is a fetch for the AI SDK that goes through the Go backend instead of the web view's network stack:
// no CORS (Ollama refuses the app's origin by default), keys added by the backend (the web view never has them),
// and the response streamed piece by piece as it arrives. Pieces carry numbers and are put back in order.
export function relayFetch(provider: string): typeof fetch {
  return async (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url
    const headers: Record<string, string> = {}
    new Headers(init?.headers).forEach((v, k) => {
      headers[k] = v
    })
    const body = init?.body == null ? '' : typeof init.body === 'string' ? init.body : await new Response(init.body).text()
    const signal = init?.signal ?? undefined
    if (signal?.aborted) throw abortError()
    const id = `llm-${Date.now().toString(36)}-${(next++).toString(36)}`

    return new Promise<Response>((resolve, reject) => {
      let controller!: ReadableStreamDefaultController<Uint8Array>
      const stream = new ReadableStream<Uint8Array>({
        start: (c) => {
          controller = c
        },
        cancel: () => {
          void cancelRelay(id).catch(() => undefined)
        },
      })
      const pending = new Map<number, Uint8Array>()
      let want = 0
      let endAt = -1
      let endError: string | undefined
      let headed = false
      let finished = false
      const finish = () => {
        finished = true
        off()
        signal?.removeEventListener('abort', onAbort)
      }
      const flush = () => {
        while (pending.has(want)) {
          controller.enqueue(pending.get(want)!)
          pending.delete(want)
          want++
        }
        if (endAt >= 0 && want >= endAt && !finished) {
          finish()
          if (!endError) controller.close()
          else controller.error(endError === 'aborted' ? abortError() : new TypeError(endError))
        }
      }
      const start = (head: NonNullable<LLMStream['head']>) => {
        headed = true
        const nullBody = head.status === 204 || head.status === 205 || head.status === 304
        resolve(new Response(nullBody ? null : stream, { status: head.status, statusText: head.status_text, headers: head.headers }))
      }
      // Events can overtake each other on the way here: pieces are numbered, and the end repeats the head.
      const off = onLLMStream((e) => {
        if (e.id !== id || finished) return
        if (e.end) {
          endAt = e.seq
          endError = e.error
          if (!headed && e.head) start(e.head)
          if (!headed) {
            finish()
            reject(e.error === 'aborted' ? abortError() : new TypeError(`${e.error ?? 'no response'} (${url})`))
            return
          }
          flush()
        } else if (e.head) {
          if (!headed) start(e.head)
        } else if (e.data !== undefined) {
          pending.set(e.seq, decode(e.data))
          flush()
        }
      })
      const onAbort = () => {
        void cancelRelay(id).catch(() => undefined)
      }
      signal?.addEventListener('abort', onAbort)
      relay(id, { provider, url, method: init?.method ?? 'GET', headers, body }).catch((err: unknown) => {
        if (headed || finished) return
        finish()
        reject(signal?.aborted ? abortError() : new TypeError(err instanceof Error ? err.message : String(err)))
      })
    })
  }
}
