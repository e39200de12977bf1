// A transparent tap between an MCP client and a stdio MCP server: `node mcp-tap.mjs LOG COMMAND ARGS...` runs
// COMMAND and passes bytes both ways unchanged, appending each newline-delimited JSON-RPC message to LOG as one
// line {dir: "in" (client to server) | "out", msg}. The end-to-end test reads the log to see what a real client
// declared (protocol version, clientInfo, capabilities) and what it was answered. It exits with the server, and
// closes the server's input when the client closes its own, so it never outlives either.
import { spawn } from 'node:child_process'
import { appendFileSync } from 'node:fs'

const [log, command, ...args] = process.argv.slice(2)
const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'inherit'] })

function tap(dir) {
  let pending = ''
  return (chunk) => {
    pending += chunk.toString('utf8')
    let nl
    while ((nl = pending.indexOf('\n')) >= 0) {
      const line = pending.slice(0, nl).trim()
      pending = pending.slice(nl + 1)
      if (!line) continue
      let msg
      try {
        msg = JSON.parse(line)
      } catch {
        msg = { unparsed: line }
      }
      appendFileSync(log, JSON.stringify({ at: Date.now(), dir, msg }) + '\n')
    }
  }
}

const fromClient = tap('in')
const fromServer = tap('out')
process.stdin.on('data', (c) => {
  fromClient(c)
  child.stdin.write(c)
})
process.stdin.on('end', () => child.stdin.end())
child.stdout.on('data', (c) => {
  fromServer(c)
  process.stdout.write(c)
})
child.stdin.on('error', () => {})
process.stdout.on('error', () => {})
for (const sig of ['SIGTERM', 'SIGINT', 'SIGHUP']) process.on(sig, () => child.kill(sig))
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)))
