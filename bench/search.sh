#!/usr/bin/env bash
# Times Rooted's CLI start-up and search against ripgrep on the same corpus in one run and prints medians and ratios.
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
CGO_ENABLED=0 go build -trimpath -ldflags "-s -w" -o "$bin" ./cmd/rooted   # the CLI as make cli builds it
mcpbin=$work/rooted-mcp
CGO_ENABLED=0 go build -trimpath -ldflags "-s -w" -o "$mcpbin" ./cmd/rooted-mcp
desktop=build/bin/rooted-desktop                                          # the window's binary, if built

# pair_ms A B: runs the commands A and B (shell functions or programs, no arguments) alternately, $runs times each
# after a warm-up of each, and prints the median wall time of each in milliseconds. Alternating puts both under
# whatever else this machine is doing at the time. The clock is bash's own $EPOCHREALTIME: reading it costs
# nothing, where forking date(1) around each run added 6 ms to every figure (measured: /bin/true took 9.4 ms).
pair_ms() {
  "$1" >/dev/null 2>&1 || true
  "$2" >/dev/null 2>&1 || true
  local a=() b=() s e
  for _ in $(seq "$runs"); do
    s=$EPOCHREALTIME; "$1" >/dev/null 2>&1 || true; e=$EPOCHREALTIME
    a+=($(( ${e/./} - ${s/./} )))
    s=$EPOCHREALTIME; "$2" >/dev/null 2>&1 || true; e=$EPOCHREALTIME
    b+=($(( ${e/./} - ${s/./} )))
  done
  echo "$(median "${a[@]}") $(median "${b[@]}")"
}
median() { printf '%s\n' "$@" | sort -n | awk '{a[NR]=$1} END {m=(NR%2)?a[(NR+1)/2]:(a[NR/2]+a[NR/2+1])/2; printf "%.1f", m/1000}'; }

rooted() { "$bin" call search_files --root "$corpus" "$1"; }
true_bin() { /bin/true; }
first100_rg() { rg -n --no-heading "$@" "$corpus" | head -n 100; }

# In process, as the window's agent calls it: the Go benchmarks of backend/search and backend/index on the same corpus (ms/op).
# Repeated: the same searches through the window's warm index (a watched, in-memory copy of the tree).
declare -A inproc
while read -r name _ ns _; do
  inproc[${name%-*}]=$(awk -v n="$ns" 'BEGIN {printf "%.1f", n/1e6}')
done < <(ROOTED_SEARCH_CORPUS=$corpus go test -run '^$' -bench 'First100|Count' -benchtime "${runs}x" ./backend/search/ ./backend/index/ | grep '^Benchmark')

ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2f", a/b}'; }

# Start-up: a command that does almost nothing, as MCP clients and scripts start rooted often.
printf '%-44s %10s %8s %8s\n' "start-up ($runs runs)" "rooted" "rg" "ratio"
cli_tools() { "$bin" tools; }
rg_version() { rg --version; }
read -r s_cli s_rg < <(pair_ms cli_tools rg_version)
printf '%-44s %10s %8s %8s\n' "rooted tools (CLI) vs rg --version" "$s_cli" "$s_rg" "$(ratio "$s_cli" "$s_rg")"
if [ -x "$desktop" ]; then
  desktop_tools() { "$desktop" tools; }
  read -r s_desk s_rg < <(pair_ms desktop_tools rg_version)
  printf '%-44s %10s %8s %8s\n' "rooted-desktop tools (GTK, WebKit linked)" "$s_desk" "$s_rg" "$(ratio "$s_desk" "$s_rg")"
fi
# What linking the MCP SDK costs a command: the same flag parsing and usage text in both binaries.
cli_help() { "$bin" mcp --help; }
mcp_help() { "$mcpbin" --help; }
read -r s_clihelp s_mcphelp < <(pair_ms cli_help mcp_help)
printf '%-44s %10s %8s %8s\n' "rooted mcp --help | rooted-mcp --help (SDK)" "$s_clihelp" "$s_mcphelp" "$(ratio "$s_mcphelp" "$s_clihelp")"
read -r s_true _ < <(pair_ms true_bin rg_version)
printf '%-44s %10s\n' "starting /bin/true, for scale" "$s_true"
echo
printf '%-28s %10s %8s %8s %10s %8s %10s %8s\n' "case ($runs runs)" "rooted CLI" "rg" "CLI/rg" "in-process" "in/rg" "repeated" "rg/rep"
row() {
  local name=$1 bench=$2 r g i x
  query=$3
  shift 3
  rg_args=("$@")
  read -r r g < <(pair_ms rooted_case rg_case)
  i=${inproc[$bench]}
  x=${inproc[${bench/Benchmark/BenchmarkIndexed}]}
  printf '%-28s %10s %8s %8s %10s %8s %10s %8s\n' "$name" "$r" "$g" "$(ratio "$r" "$g")" "$i" "$(ratio "$i" "$g")" "$x" "$(ratio "$g" "$x")"
}
rooted_case() { rooted "$query"; }
rg_case() { "${rg_args[@]}"; }
re='func \(\w+ \*\w+\) Close'
row "common literal, first 100" BenchmarkFirst100CommonLiteral '{"query":"func"}' first100_rg func
row "rare literal, first 100" BenchmarkFirst100RareLiteral '{"query":"ErrShortWrite"}' first100_rg ErrShortWrite
row "regex, first 100" BenchmarkFirst100Regex '{"query":"func \\(\\w+ \\*\\w+\\) Close","regex":true}' first100_rg "$re"
row "common literal, full count" BenchmarkCountCommonLiteral '{"query":"func","output":"count","limit":1}' rg -c func "$corpus"
row "rare literal, full count" BenchmarkCountRareLiteral '{"query":"ErrShortWrite","output":"count","limit":1}' rg -c ErrShortWrite "$corpus"
row "regex, full count" BenchmarkCountRegex '{"query":"func \\(\\w+ \\*\\w+\\) Close","regex":true,"output":"count","limit":1}' rg -c "$re" "$corpus"
echo "corpus: $(git -C "$corpus" ls-files | wc -l) files of the Go source tree in a git repository. Times are wall-clock ms."
echo "rooted CLI (pure Go, cmd/rooted) and rg: medians of new processes, walking and reading the tree."
echo "in-process: Go benchmark means, walking and reading the tree, as a first search in the app does."
echo "repeated: Go benchmark means through the app's warm index, as an agent's later searches are; rg/rep is how many"
echo "times faster than rg that is."
