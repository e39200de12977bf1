#!/usr/bin/env bash
# A 92k-file project through `rooted mcp`, next to rg and git: see bench/monorepo/main.go. The corpus (about 1.3 GB
# for 8 copies; 40 copies, 459k files, about 8 GB with its git objects) is built once under
# ${BENCH_DIR:-/tmp/rooted-monorepo} and kept for later runs.
# Usage: bench/monorepo.sh [COPIES]   (default 8, the 92k-file project; 40 for the 460k-file one; needs rg, git, go)
set -euo pipefail
cd "$(dirname "$0")/.."
command -v rg >/dev/null || { echo "bench: ripgrep (rg) is required: apt-get install ripgrep" >&2; exit 1; }
make -s cli
exec go run ./bench/monorepo -rooted build/bin/rooted -copies "${1:-8}" -dir "${BENCH_DIR:-/tmp/rooted-monorepo}"
