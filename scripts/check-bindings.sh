#!/usr/bin/env bash
# Fails when frontend/wailsjs differs from what the bound Go methods generate. The committed copy is put back
# untouched (mtimes included) when it is current, so make does not rebuild the frontend for nothing.
set -euo pipefail
wails=$1; tags=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp -a frontend/wailsjs "$tmp/"
"$wails" generate module -tags "$tags" >"$tmp/log" 2>&1 || { cat "$tmp/log"; exit 1; }
if ! diff -r "$tmp/wailsjs" frontend/wailsjs; then
  echo "frontend/wailsjs is out of date with the bound Go methods: run make bindings and commit the result" >&2
  exit 1
fi
rm -rf frontend/wailsjs
mv "$tmp/wailsjs" frontend/wailsjs
