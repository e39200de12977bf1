#!/usr/bin/env bash
# A 92k-file project through `rooted mcp`, next to rg and git: see bench/monorepo/main.go. The corpus (about 1.3 GB
# for 8 copies) is built once under ${BENCH_DIR:-/tmp/rooted-monorepo} and kept for later runs.
# Usage: bench/monorepo.sh [COPIES]   (default 8; needs rg, git, go)
set -euo pipefail
cd "$(dirname "$0")/.."
command -v rg >/dev/null || { echo "bench: ripgrep (rg) is required: apt-get install ripgrep" >&2; exit 1; }
make -s cli
exec go run ./bench/monorepo -rooted build/bin/rooted -copies "${1:-8}" -dir "${BENCH_DIR:-/tmp/rooted-monorepo}"
