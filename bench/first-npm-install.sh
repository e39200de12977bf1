#!/usr/bin/env bash
# The first `npm install` of a new project with a lockfile through `rooted exec` (the sandbox, network off, the
# project's own npm cache, seeded by hash from the user's with the packages the lockfile names), beside the same
# command in a terminal, both offline from the user's warm cache: a new project's install should not start cold.
# Usage: bench/first-npm-install.sh [ROOTED_BINARY]   (default build/bin/rooted; built when missing)
set -euo pipefail
. "$(dirname "$0")/first-run-common.sh" "$@"
make_project() {
	mkdir -p "$1"
	cat >"$1/package.json" <<'JSON'
{"name": "p", "version": "1.0.0", "private": true,
 "dependencies": {"react": "18.3.1", "react-dom": "18.3.1", "semver": "7.6.3", "picocolors": "1.1.1"}}
JSON
	git -C "$1" init -q
}
flags=(install --offline --no-audit --no-fund --ignore-scripts)
make_project "$work/warmup"
(cd "$work/warmup" && npm install --prefer-offline --no-audit --no-fund --ignore-scripts --omit-lockfile-registry-resolved=false >/dev/null) # the user's cache holds them; the lockfile names their URLs
make_project "$work/terminal"
make_project "$work/rooted"
cp "$work/warmup/package-lock.json" "$work/terminal/"
cp "$work/warmup/package-lock.json" "$work/rooted/"
terminal=$(cd "$work/terminal" && seconds npm "${flags[@]}")
first=$(seconds "$rooted" exec --root "$work/rooted" --timeout 10m -- npm "${flags[@]}")
rm -rf "$work/rooted/node_modules"
second=$(seconds "$rooted" exec --root "$work/rooted" --timeout 10m -- npm "${flags[@]}")
test -f "$work/rooted/node_modules/react-dom/package.json" || { echo "the sandboxed install left no react-dom" >&2; exit 1; }
printf '| first `npm install` of a new project, offline | seconds |\n| --- | --- |\n'
printf '| terminal, warm user cache | %.2f |\n| `rooted exec`, first run | %.2f |\n| `rooted exec`, again without node_modules | %.2f |\n' "$terminal" "$first" "$second"
printf 'ratio first/terminal: %.2f\n' "$(echo "$first / $terminal" | bc -l)"
