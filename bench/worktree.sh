#!/usr/bin/env bash
# A conversation's worktree of the 92k-file project (bench/monorepo's corpus, built once and kept): `git worktree
# add` alone, against Rooted's New (hardened git, the project's filters off) and then opening the worktree as the
# window opens a project (index, watcher, first snapshot). Prints each in milliseconds and the ratios.
# Usage: bench/worktree.sh [COPIES] [RUNS]   (default 8 copies, the 92k-file project; 3 runs)
set -euo pipefail
cd "$(dirname "$0")/.."
corpus=$(go run ./bench/monorepo -prepare -copies "${1:-8}" -dir "${BENCH_DIR:-/tmp/rooted-monorepo}")
ROOTED_WORKTREE_CORPUS=$corpus exec go test -run '^$' -bench '^BenchmarkWorktreeOfCorpus$' -benchtime "${2:-3}x" ./backend/worktree/
