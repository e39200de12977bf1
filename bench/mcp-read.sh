#!/usr/bin/env bash
# A whole-file read of 1 MiB of Go over MCP's stdio: `rooted mcp` (read_file with a limit covering the file) beside
# the reference filesystem server (@modelcontextprotocol/server-filesystem's read_text_file), in one run on the same
# file. Each server is a process spoken to over pipes by one Node client; every read is timed from the request to
# the end of its answer's line, after a few warm-up reads. Prints milliseconds a read (median, best) and bytes on
# the wire, then the ratios.
# Usage: bench/mcp-read.sh [READS [BIN_DIR]]   (default 30 reads; rooted and rooted-mcp from BIN_DIR, else built
# here; the reference server is installed, at a pinned version, into a temporary folder with npm)
set -euo pipefail
reads=${1:-30}
ref_version=2026.8.31
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
bin=${2:-$work/bin}
if [ -z "${2:-}" ]; then
	go build -o "$bin/rooted" ./cmd/rooted
	go build -o "$bin/rooted-mcp" ./cmd/rooted-mcp
fi
(cd "$work" && npm install --silent --no-audit --no-fund --prefix "$work/ref" "@modelcontextprotocol/server-filesystem@$ref_version" >/dev/null)
ref="$work/ref/node_modules/@modelcontextprotocol/server-filesystem/dist/index.js"

# 1 MiB of Go: the standard library's non-test sources, cut at the end of a line (what BenchmarkReadFileWire reads).
mkdir -p "$work/project"
git -C "$work/project" init -q
find "$(go env GOROOT)/src" -name '*.go' ! -name '*_test.go' ! -path '*/testdata/*' -print0 | sort -z |
	xargs -0 cat 2>/dev/null | head -c 1048576 >"$work/raw.go" || true
head -n "$(($(wc -l <"$work/raw.go")))" "$work/raw.go" >"$work/project/big.go"
lines=$(wc -l <"$work/project/big.go")

cat >"$work/client.mjs" <<'JS'
import { spawn } from "node:child_process";
const [cmd, args, tool, toolArgs, reads] = [process.argv[2], JSON.parse(process.argv[3]), process.argv[4], JSON.parse(process.argv[5]), +process.argv[6]];
const child = spawn(cmd, args, { stdio: ["pipe", "pipe", "ignore"] });
let chunks = [], waiting = null;
child.stdout.on("data", (d) => {
  chunks.push(d);
  if (d.indexOf(10) < 0) return; // the line goes on: join the pieces once it ends
  let buf = Buffer.concat(chunks);
  chunks = [];
  for (let i; (i = buf.indexOf(10)) >= 0; ) {
    const line = buf.subarray(0, i); buf = buf.subarray(i + 1);
    const msg = JSON.parse(line);
    if (waiting && msg.id === waiting.id) { const w = waiting; waiting = null; w.resolve({ msg, bytes: line.length + 1 }); }
  }
  if (buf.length) chunks.push(buf);
});
let id = 0;
const call = (method, params) => new Promise((resolve) => {
  waiting = { id: ++id, resolve };
  child.stdin.write(JSON.stringify({ jsonrpc: "2.0", id, method, params }) + "\n");
});
await call("initialize", { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "bench", version: "1" } });
child.stdin.write(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }) + "\n");
const times = []; let bytes = 0;
for (let i = 0; i < reads + 3; i++) {
  const t = process.hrtime.bigint();
  const { msg, bytes: n } = await call("tools/call", { name: tool, arguments: toolArgs });
  const ms = Number(process.hrtime.bigint() - t) / 1e6;
  if (!msg.result || msg.result.isError) { console.error(JSON.stringify(msg).slice(0, 300)); process.exit(1); }
  if (i >= 3) times.push(ms);
  bytes = n;
}
times.sort((a, b) => a - b);
console.log(JSON.stringify({ median: times[times.length >> 1], best: times[0], bytes }));
child.kill();
JS

size=$(wc -c <"$work/project/big.go")
rooted=$(node "$work/client.mjs" "$bin/rooted" "[\"mcp\",\"--root\",\"$work/project\"]" read_file "{\"path\":\"big.go\",\"limit\":$lines}" "$reads")
reference=$(node "$work/client.mjs" node "[\"$ref\",\"$work/project\"]" read_text_file "{\"path\":\"$work/project/big.go\"}" "$reads")
node -e '
const [r, f, size] = [JSON.parse(process.argv[1]), JSON.parse(process.argv[2]), +process.argv[3]];
console.log("| 1 MiB read over MCP stdio | median ms | best ms | bytes on the wire |\n| --- | --- | --- | --- |");
console.log(`| \`rooted mcp\` read_file | ${r.median.toFixed(1)} | ${r.best.toFixed(1)} | ${r.bytes} (${(r.bytes / size).toFixed(2)}x the file) |`);
console.log(`| reference server-filesystem read_text_file | ${f.median.toFixed(1)} | ${f.best.toFixed(1)} | ${f.bytes} (${(f.bytes / size).toFixed(2)}x the file) |`);
console.log(`ratio rooted/reference: median ${(r.median / f.median).toFixed(2)}, best ${(r.best / f.best).toFixed(2)}, bytes ${(r.bytes / f.bytes).toFixed(2)}`);
' "$rooted" "$reference" "$size"
