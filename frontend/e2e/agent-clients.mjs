// The five agent CLIs agents.test.mjs drives, each started headless in a session's throwaway HOME with Rooted as
// its MCP server and the stand-in as its model, in the protocol that client speaks. Each launcher writes its
// client's configuration and resolves with the client's exit code and output (run).
import { spawn } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { outputDir } from './harness.mjs'

export const agentsBin = path.join(import.meta.dirname, 'agents', 'node_modules', '.bin')
const artefacts = path.join(outputDir, 'agents')

// run starts a client and resolves with its exit code and output, killing its process group at the deadline.
function run(cmd, args, { env, cwd, timeoutMs, logName }) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { env, cwd, stdio: ['ignore', 'pipe', 'pipe'], detached: true })
    let out = ''
    let err = ''
    child.stdout.on('data', (c) => (out += c))
    child.stderr.on('data', (c) => (err += c))
    const timer = setTimeout(() => {
      err += `\n[killed after ${timeoutMs / 1000}s]`
      try {
        process.kill(-child.pid, 'SIGKILL')
      } catch {}
    }, timeoutMs)
    child.on('close', (code, signal) => {
      clearTimeout(timer)
      writeFileSync(path.join(artefacts, `${logName}.stdout`), out)
      writeFileSync(path.join(artefacts, `${logName}.stderr`), err)
      resolve({ code, signal, out, err })
    })
  })
}

export const timeoutMs = 150_000
const task = 'Fix the failing test in this Go module.'

// Gemini CLI and Qwen Code (its fork) read settings.json in their own folder of HOME and take the same flags; each
// adds its sign-in and its model endpoint.
function geminiLike(s, bin, { settings, env }) {
  mkdirSync(path.join(s.home, `.${bin}`), { recursive: true })
  writeFileSync(
    path.join(s.home, `.${bin}`, 'settings.json'),
    JSON.stringify({
      ...settings,
      privacy: { usageStatisticsEnabled: false },
      telemetry: { enabled: false },
      mcpServers: { rooted: { command: s.mcp.command, args: s.mcp.args, env: s.mcpEnv, trust: true } },
    }),
  )
  return run(path.join(agentsBin, bin), ['-p', task, '--yolo', '--output-format', 'json'], { cwd: s.fixture, timeoutMs, logName: s.name, env: { ...s.env, ...env } })
}

export const clients = {
  async claude(s) {
    const config = path.join(s.home, 'mcp.json')
    writeFileSync(config, JSON.stringify({ mcpServers: { rooted: { type: 'stdio', command: s.mcp.command, args: s.mcp.args, env: s.mcpEnv } } }))
    return run(
      path.join(agentsBin, 'claude'),
      ['-p', task, '--mcp-config', config, '--strict-mcp-config', '--allowedTools', 'mcp__rooted__*', '--output-format', 'stream-json', '--verbose'],
      {
        cwd: s.fixture,
        timeoutMs,
        logName: s.name,
        env: { ...s.env, ANTHROPIC_BASE_URL: s.llm.url, ANTHROPIC_API_KEY: 'stand-in', CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1', DISABLE_AUTOUPDATER: '1' },
      },
    )
  },
  async codex(s) {
    const codexHome = path.join(s.home, '.codex')
    mkdirSync(codexHome, { recursive: true })
    const toml = (v) => JSON.stringify(v)
    writeFileSync(
      path.join(codexHome, 'config.toml'),
      [
        'model = "scripted"',
        'model_provider = "standin"',
        'approval_policy = "never"',
        '',
        '[model_providers.standin]',
        'name = "stand-in"',
        `base_url = ${toml(`${s.llm.url}/v1`)}`,
        'env_key = "STANDIN_API_KEY"',
        'wire_api = "responses"',
        '',
        '[mcp_servers.rooted]',
        `command = ${toml(s.mcp.command)}`,
        `args = [${s.mcp.args.map(toml).join(', ')}]`,
        'default_tools_approval_mode = "approve"',
        `env = { ${Object.entries(s.mcpEnv).map(([k, v]) => `${k} = ${toml(v)}`).join(', ')} }`,
        '',
        `[projects.${toml(s.fixture)}]`,
        'trust_level = "trusted"',
        '',
      ].join('\n'),
    )
    return run(path.join(agentsBin, 'codex'), ['exec', '--json', '--skip-git-repo-check', '-C', s.fixture, task], {
      cwd: s.fixture,
      timeoutMs,
      logName: s.name,
      env: { ...s.env, CODEX_HOME: codexHome, STANDIN_API_KEY: 'stand-in' },
    })
  },
  async opencode(s) {
    const config = path.join(s.home, 'opencode.json')
    writeFileSync(
      config,
      JSON.stringify({
        $schema: 'https://opencode.ai/config.json',
        model: 'standin/scripted',
        small_model: 'standin/scripted',
        autoupdate: false,
        share: 'disabled',
        provider: { standin: { npm: '@ai-sdk/openai-compatible', name: 'stand-in', options: { baseURL: `${s.llm.url}/v1`, apiKey: 'stand-in' }, models: { scripted: { name: 'scripted', tool_call: true, limit: { context: 200000, output: 8192 } } } } },
        mcp: { rooted: { type: 'local', command: [s.mcp.command, ...s.mcp.args], enabled: true, environment: s.mcpEnv } },
        permission: { edit: 'allow', bash: 'allow' },
      }),
    )
    return run(path.join(agentsBin, 'opencode'), ['run', '--format', 'json', task], {
      cwd: s.fixture,
      timeoutMs,
      logName: s.name,
      env: {
        ...s.env,
        OPENCODE_CONFIG: config,
        OPENCODE_DISABLE_AUTOUPDATE: '1',
        OPENCODE_DISABLE_MODELS_FETCH: '1',
        OPENCODE_DISABLE_LSP_DOWNLOAD: '1',
        OPENCODE_DISABLE_DEFAULT_PLUGINS: '1',
        OPENCODE_DISABLE_SHARE: '1',
        OPENCODE_DISABLE_CLAUDE_CODE: '1',
        OPENCODE_DISABLE_EXTERNAL_SKILLS: '1',
        // opencode fetches its plugin packages' manifests from npm at start; offline, it goes on without them.
        npm_config_offline: 'true',
      },
    })
  },
  gemini: (s) =>
    geminiLike(s, 'gemini', {
      settings: { security: { auth: { selectedType: 'gemini-api-key' } }, general: { disableAutoUpdate: true, disableUpdateNag: true } },
      env: { GEMINI_API_KEY: 'stand-in', GOOGLE_GEMINI_BASE_URL: s.llm.url, GEMINI_CLI_TRUST_WORKSPACE: 'true' },
    }),
  qwen: (s) =>
    geminiLike(s, 'qwen', {
      settings: { security: { auth: { selectedType: 'openai' } } },
      env: { OPENAI_API_KEY: 'stand-in', OPENAI_BASE_URL: `${s.llm.url}/v1`, OPENAI_MODEL: 'scripted' },
    }),
}
