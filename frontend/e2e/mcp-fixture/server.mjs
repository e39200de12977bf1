// An MCP server on the TypeScript SDK (the version frontend/package-lock.json pins), for the tests of the agent's
// use of other servers: Rooted starts it in its sandbox over stdio, as a user's `npx some-server` would be.
// It answers only in the 2025-06-18 era: an initialize that asks for a newer version is answered with 2025-06-18,
// and server/discover (2026-07-28) is an unknown method, as for any server written before it.
//   - add {a, b}: the sum, as text and structured content.
//   - steal {path, host, port}: reads the file at path and connects to host:port, and says what it got.
//   - reach {host, port}: asks the proxy its HTTPS_PROXY (or HTTP_PROXY) names for a tunnel to host:port (CONNECT)
//     and says the proxy's status line, then the first line the host sent through the tunnel if it opened;
//     "reach: no proxy" when neither variable is set.
// CALC_START_DELAY_MS in its environment makes it that slow to start (a server npx is still fetching).
import { readFileSync } from 'node:fs'
import net from 'node:net'
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'
import { z } from 'zod'

const server = new McpServer({ name: 'rooted-ts-fixture', version: '1.0.0' })

server.registerTool('add', { description: 'Add two numbers', inputSchema: { a: z.number(), b: z.number() }, annotations: { readOnlyHint: true } }, ({ a, b }) => ({
  content: [{ type: 'text', text: String(a + b) }],
  structuredContent: { sum: a + b },
}))

server.registerTool('steal', { description: 'Try to read a file and open a TCP connection', inputSchema: { path: z.string(), host: z.string(), port: z.number() } }, async ({ path, host, port }) => {
  let read
  try {
    read = `read: ok ${readFileSync(path, 'utf8')}`
  } catch (e) {
    read = `read: ${e.code ?? e.message}`
  }
  const connect = await new Promise((resolve) => {
    const s = net.connect({ host, port, timeout: 2000 }, () => {
      s.destroy()
      resolve('connect: ok')
    })
    s.on('error', (e) => resolve(`connect: ${e.code ?? e.message}`))
    s.on('timeout', () => {
      s.destroy()
      resolve('connect: timeout')
    })
  })
  return { content: [{ type: 'text', text: `${read}\n${connect}` }] }
})

// tunnel sends CONNECT host:port to the proxy at proxyURL and resolves with its status line (the version left out)
// and, once the tunnel is open, the first line the host sends; the socket ends there.
function tunnel(proxyURL, host, port) {
  const u = new URL(proxyURL)
  return new Promise((resolve) => {
    const s = net.connect({ host: u.hostname, port: Number(u.port) || 80, timeout: 10_000 })
    let got = ''
    let status = ''
    const done = (text) => {
      s.destroy()
      resolve(text)
    }
    s.on('connect', () => s.write(`CONNECT ${host}:${port} HTTP/1.1\r\nHost: ${host}:${port}\r\n\r\n`))
    s.on('data', (d) => {
      got += d.toString('latin1')
      if (!status) {
        const end = got.indexOf('\r\n\r\n')
        if (end < 0) return
        status = got.slice(0, got.indexOf('\r\n')).replace(/^HTTP\/1\.[01] /, '')
        got = got.slice(end + 4)
        if (!status.startsWith('200')) return done(status)
      }
      const nl = got.indexOf('\n')
      if (nl >= 0) done(`${status}\n${got.slice(0, nl)}`)
    })
    s.on('end', () => done(status ? `${status}\n${got}` : `no answer: ${got}`))
    s.on('error', (e) => done(status || `error: ${e.code ?? e.message}`))
    s.on('timeout', () => done(status ? `${status}\n(nothing through the tunnel)` : 'timeout'))
  })
}

server.registerTool('reach', { description: 'Ask the HTTPS proxy for a tunnel to a host', inputSchema: { host: z.string(), port: z.number() } }, async ({ host, port }) => {
  const proxy = process.env.HTTPS_PROXY || process.env.https_proxy || process.env.HTTP_PROXY || process.env.http_proxy
  const text = proxy ? `reach: ${await tunnel(proxy, host, port)}` : 'reach: no proxy'
  return { content: [{ type: 'text', text }] }
})

const delay = Number(process.env.CALC_START_DELAY_MS ?? 0)
if (delay > 0) await new Promise((r) => setTimeout(r, delay))
const transport = new StdioServerTransport()
await server.connect(transport)
const handle = transport.onmessage
transport.onmessage = (message, extra) => {
  if (message.method === 'initialize' && message.params) message.params.protocolVersion = '2025-06-18'
  handle(message, extra)
}
