#!/usr/bin/env bash
# Runs each make target in turn, stops at the first that fails, and says how long each took (and which failed),
# so a slow or red `make test` shows where its time went. Usage: timed-steps.sh MAKE TARGET...
set -u
make=$1
shift
summary=()
status=0
for step in "$@"; do
  start=$EPOCHREALTIME
  if "$make" --no-print-directory "$step"; then result=ok; else result=FAILED; status=1; fi
  secs=$(awk -v a="$start" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.0f", b - a }')
  summary+=("$(printf '  %-14s %6s s  %s' "$step" "$secs" "$result")")
  [ "$status" -eq 0 ] || break
done
echo
echo "make test, step by step:"
printf '%s\n' "${summary[@]}"
exit "$status"
