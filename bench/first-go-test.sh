#!/usr/bin/env bash
# The agent's first verification in a new project: `go test ./...` of a fresh, small, standard-library-only
# project through `rooted exec` (the sandbox, the project's private Go caches and the build cache program that
# reads the user's cache), beside the same command in a terminal with the user's warm build cache.
# Usage: bench/first-go-test.sh [ROOTED_BINARY]   (default build/bin/rooted; built when missing)
set -euo pipefail
. "$(dirname "$0")/first-run-common.sh" "$@"
make_project() {
	mkdir -p "$1"
	printf 'module example.com/p\n\ngo 1.22\n' >"$1/go.mod"
	cat >"$1/p.go" <<'GO'
package p

import (
	"encoding/json"
	"fmt"
	"net/url"
)

func F() string { b, _ := json.Marshal(url.URL{Host: "x"}); return fmt.Sprint(string(b)) }
GO
	cat >"$1/p_test.go" <<'GO'
package p

import "testing"

func TestF(t *testing.T) {
	if F() == "" {
		t.Fatal("empty")
	}
}
GO
	git -C "$1" init -q
}
make_project "$work/warmup"
(cd "$work/warmup" && go test -count=1 ./... >/dev/null) # the user's cache holds what a terminal build needs
make_project "$work/terminal"
make_project "$work/rooted"
terminal=$(cd "$work/terminal" && seconds go test -count=1 ./...)
first=$(seconds "$rooted" exec --root "$work/rooted" --timeout 10m -- go test -count=1 ./...)
second=$(seconds "$rooted" exec --root "$work/rooted" --timeout 10m -- go test -count=1 ./...)
printf '| first `go test ./...` of a new project | seconds |\n| --- | --- |\n'
printf '| terminal, warm user cache | %.2f |\n| `rooted exec`, first run | %.2f |\n| `rooted exec`, second run | %.2f |\n' "$terminal" "$first" "$second"
printf 'ratio first/terminal: %.2f (bar: 2)\n' "$(echo "$first / $terminal" | bc -l)"
