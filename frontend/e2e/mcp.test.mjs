// Rooted as an MCP server, driven by a client written by others: the official TypeScript SDK, starting the built
// binary (`rooted mcp`) over stdio, as Claude Desktop, Claude Code or Cursor would.
import { after, describe, test } from 'node:test'
import { execFileSync } from 'node:child_process'
import assert from 'node:assert/strict'
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { ListRootsRequestSchema } from '@modelcontextprotocol/sdk/types.js'
import { cleanupAll, makeFixture, onCleanup, repoRoot } from './harness.mjs'

const binary = process.env.ROOTED_BINARY || path.join(repoRoot, 'build', 'bin', 'rooted')

async function start(args, roots) {
  const home = mkdtempSync(path.join(tmpdir(), 'rooted-mcp-home-'))
  onCleanup(() => rmSync(home, { recursive: true, force: true }))
  const transport = new StdioClientTransport({
    command: binary,
    args: ['mcp', ...args],
    env: { PATH: process.env.PATH, HOME: home, XDG_CONFIG_HOME: path.join(home, 'config'), XDG_CACHE_HOME: path.join(home, 'cache') },
    stderr: 'pipe',
  })
  const client = new Client({ name: 'rooted-e2e', version: '1.0.0' }, { capabilities: roots ? { roots: { listChanged: true } } : {} })
  if (roots) client.setRequestHandler(ListRootsRequestSchema, async () => ({ roots: roots.map((r) => ({ uri: pathToFileURL(r).href, name: path.basename(r) })) }))
  await client.connect(transport)
  onCleanup(() => client.close())
  return client
}

// A result's text block is its text form (what a model reads); there is no structuredContent (Claude Code and Codex
// would show their model that instead of the text), and the result's fields are in _meta for programs, as a
// failure's error object is.
const text = (res) => res.content[0].text
const fields = (res) => res._meta['dev.rooted/result']
const failure = (res) => res._meta['dev.rooted/error']

describe('rooted mcp with the TypeScript SDK', { timeout: 120_000 }, () => {
  after(cleanupAll)

  test('lists the tools, reads, patches, searches, and refuses an escape with outside_root', async () => {
    const fixture = makeFixture('mcp-project', {
      'src/app.ts': 'export const greeting = "hello"\n',
      'README.md': '# MCP fixture\n',
      '.gitignore': 'dist/\n',
      'dist/app.js': 'hello from the build\n',
    })
    writeFileSync(path.join(path.dirname(fixture), 'outside.txt'), 'not yours')
    const client = await start(['--root', fixture])

    // The server names itself with the release the package or make stamped (the wails.json version), not "dev".
    const product = JSON.parse(readFileSync(path.join(repoRoot, 'wails.json'), 'utf8')).info.productVersion
    assert.deepEqual([client.getServerVersion()?.name, client.getServerVersion()?.version], ['rooted', product])

    const { tools } = await client.listTools()
    const byName = Object.fromEntries(tools.map((t) => [t.name, t]))
    for (const name of ['read_file', 'write_file', 'patch_file', 'search_files', 'find_files', 'list_directory', 'exec_shell', 'list_snapshots', 'diff_snapshot', 'restore_snapshot']) {
      assert.ok(byName[name], `${name} is listed`)
      assert.equal(byName[name].inputSchema.type, 'object')
    }
    assert.equal(byName.read_file.annotations.readOnlyHint, true)
    assert.equal(byName.read_file.annotations.openWorldHint, false)
    assert.equal(byName.patch_file.annotations.destructiveHint, true)
    assert.match(byName.patch_file.description, /Example/)

    for (const t of tools) {
      assert.equal(t.outputSchema, undefined, `${t.name} declares no outputSchema, which would make Claude Code want structuredContent`)
      assert.doesNotMatch(JSON.stringify(t.inputSchema), /"type":\[/, `${t.name}'s schema has no type array, which strict Ajv warns about`)
    }

    const read = await client.callTool({ name: 'read_file', arguments: { path: 'src/app.ts' } })
    assert.equal(read.isError, undefined)
    assert.equal(read.structuredContent, undefined)
    assert.equal(text(read), '1\texport const greeting = "hello"\n(src/app.ts: 1 line)')
    assert.equal(fields(read).total_lines, 1)
    assert.equal(fields(read).content, undefined, 'the content is sent once, in the text block')

    const patch = await client.callTool({ name: 'patch_file', arguments: { path: 'src/app.ts', search: '"hello"', replace: '"hello, MCP"' } })
    assert.equal(fields(patch).replaced, 1)
    assert.match(fields(patch).backup, /^[0-9a-f]{40}$/)
    assert.match(text(patch), /^replaced: 1$/m)
    assert.equal(readFileSync(path.join(fixture, 'src', 'app.ts'), 'utf8'), 'export const greeting = "hello, MCP"\n')

    const search = await client.callTool({ name: 'search_files', arguments: { query: 'hello' } })
    assert.equal(fields(search).total, 1, 'the gitignored build output is not searched')
    assert.match(text(search), /^src\/app\.ts:1:export const greeting = "hello, MCP"$/m)

    for (const args of [{ path: '../outside.txt' }, { path: path.join(path.dirname(fixture), 'outside.txt') }]) {
      const escape = await client.callTool({ name: 'read_file', arguments: args })
      assert.equal(escape.isError, true)
      assert.equal(failure(escape).code, 'outside_root')
      assert.match(text(escape), /^error outside_root: /)
    }
    const write = await client.callTool({ name: 'write_file', arguments: { path: '../outside.txt', content: 'mine now' } })
    assert.equal(failure(write).code, 'outside_root')
    assert.equal(readFileSync(path.join(path.dirname(fixture), 'outside.txt'), 'utf8'), 'not yours')

    // A command outside the allowlist is refused, not run (no approvals over MCP: the allowlist decides).
    const curl = await client.callTool({ name: 'exec_shell', arguments: { command: 'curl http://example.com' } })
    assert.equal(failure(curl).code, 'command_not_allowed')
    // An allowed one runs confined: the sandbox helper is the server's own executable, started again.
    const lsRes = await client.callTool({ name: 'exec_shell', arguments: { command: 'ls src' } })
    const ls = fields(lsRes)
    assert.equal(ls.exit_code, 0)
    assert.match(text(lsRes), /^\$ ls src\napp\.ts\n\(exit code 0;/)
    const here = JSON.parse(execFileSync(binary, ['version', '--json'], { encoding: 'utf8' })).sandbox
    assert.equal(ls.sandbox.active, here.active, `sandbox ${JSON.stringify(ls.sandbox)}, rooted version says ${JSON.stringify(here)}`)
  })

  // rooted-mcp links no PDF parser: it reads a PDF in the rooted-reader installed beside it, one for the session's
  // files in turn, so a second PDF is read by the same reader (PDFium compiled once).
  test('reads a PDF through the rooted-reader beside it', async () => {
    const fixture = makeFixture('mcp-pdf', { 'README.md': '# PDFs\n' })
    copyFileSync(path.join(repoRoot, 'scripts', 'testdata', 'two-pages.pdf'), path.join(fixture, 'doc.pdf'))
    copyFileSync(path.join(repoRoot, 'scripts', 'testdata', 'two-pages.pdf'), path.join(fixture, 'copy.pdf'))
    const client = await start(['--root', fixture])
    for (const file of ['doc.pdf', 'copy.pdf']) {
      const read = await client.callTool({ name: 'read_file', arguments: { path: file } })
      assert.equal(read.isError, undefined, text(read))
      assert.equal(text(read), `1\t--- page 1 ---\n2\tInstalled and reading.\n3\t--- page 2 ---\n4\tSecond page.\n(${file}: all 4 lines) (text extracted from a PDF of 2 pages)`)
      assert.deepEqual(fields(read).pdf, { pages: 2, pages_read: 2 })
    }
  })

  test('without --root, the client’s roots choose the project', async () => {
    const fixture = makeFixture('rooted-by-client', { 'notes.txt': 'chosen by roots\n' })
    const client = await start([], [fixture])
    const read = await client.callTool({ name: 'read_file', arguments: { path: 'notes.txt' } })
    assert.match(text(read), /^1\tchosen by roots\n/)
    const cwd = fields(await client.callTool({ name: 'get_working_directory', arguments: {} }))
    assert.equal(cwd.name, 'rooted-by-client')
  })
})
