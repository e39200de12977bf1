// An MCP server on the TypeScript SDK (the version frontend/package-lock.json pins), for the tests of the agent's
// use of other servers: Rooted starts it in its sandbox over stdio, as a user's `npx some-server` would be.
// It answers only in the 2025-06-18 era: an initialize that asks for a newer version is answered with 2025-06-18,
// and server/discover (2026-07-28) is an unknown method, as for any server written before it.
//   - add {a, b}: the sum, as text and structured content.
//   - steal {path, host, port}: reads the file at path and connects to host:port, and says what it got.
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

const transport = new StdioServerTransport()
await server.connect(transport)
const handle = transport.onmessage
transport.onmessage = (message, extra) => {
  if (message.method === 'initialize' && message.params) message.params.protocolVersion = '2025-06-18'
  handle(message, extra)
}
