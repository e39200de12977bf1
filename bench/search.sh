#!/usr/bin/env bash
# Times Rooted's search against ripgrep on the same corpus in one run and prints medians and ratios.
# The corpus is the Go source tree copied into a git repository (so .gitignore rules apply as for a project).
# Usage: bench/search.sh [RUNS]   (default 15 runs per case; needs rg, git, go)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-15}
command -v rg >/dev/null || { echo "bench: ripgrep (rg) is required: apt-get install ripgrep" >&2; exit 1; }

work=${BENCH_DIR:-$(mktemp -d)}
corpus=$work/gosrc
if [ ! -d "$corpus/.git" ]; then
  echo "building the corpus in $corpus ..." >&2
  mkdir -p "$corpus"
  cp -R "$(go env GOROOT)/src/." "$corpus/"
  git -C "$corpus" init -q
  git -C "$corpus" -c user.email=bench@localhost -c user.name=bench add -A
  git -C "$corpus" -c user.email=bench@localhost -c user.name=bench commit -qm corpus
fi
bin=$work/rooted
go build -o "$bin" .

# median_ms CMD...: runs CMD $runs times (after one warm-up) and prints the median wall time in milliseconds.
median_ms() {
  "$@" >/dev/null 2>&1 || true
  local times=()
  for _ in $(seq "$runs"); do
    local s e
    s=$(date +%s%N)
    "$@" >/dev/null 2>&1 || true
    e=$(date +%s%N)
    times+=($(( (e - s) / 1000 )))
  done
  printf '%s\n' "${times[@]}" | sort -n | awk '{a[NR]=$1} END {m=(NR%2)?a[(NR+1)/2]:(a[NR/2]+a[NR/2+1])/2; printf "%.1f", m/1000}'
}

rooted() { "$bin" call search_files --root "$corpus" "$1"; }
first100_rg() { rg -n --no-heading "$@" "$corpus" | head -n 100; }

printf '%-32s %12s %12s %8s\n' "case ($runs runs, median)" "rooted ms" "rg ms" "ratio"
row() {
  local name=$1 r g
  r=$(median_ms "${@:2:1}" "${@:3:1}")
  shift 3
  g=$(median_ms "$@")
  printf '%-32s %12s %12s %8s\n' "$name" "$r" "$g" "$(awk -v a="$r" -v b="$g" 'BEGIN {printf "%.2f", a/b}')"
}
row "common literal, first 100" rooted '{"query":"func"}' first100_rg func
row "rare literal, first 100" rooted '{"query":"ErrShortWrite"}' first100_rg ErrShortWrite
row "regex, first 100" rooted '{"query":"func \\(\\w+ \\*\\w+\\) Close","regex":true}' first100_rg 'func \(\w+ \*\w+\) Close'
row "common literal, full count" rooted '{"query":"func","output":"count","limit":1}' rg -c func "$corpus"
row "rare literal, full count" rooted '{"query":"ErrShortWrite","output":"count","limit":1}' rg -c ErrShortWrite "$corpus"
row "regex, full count" rooted '{"query":"func \\(\\w+ \\*\\w+\\) Close","regex":true,"output":"count","limit":1}' rg -c 'func \(\w+ \*\w+\) Close' "$corpus"
echo "(each rooted run is a new process: it walks and reads the tree, like rg; corpus: $(git -C "$corpus" ls-files | wc -l) files)"
