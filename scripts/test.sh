#!/usr/bin/env bash
# The whole test suite (run through `npm test`, which sets up Node and dependencies first):
# type checks, then every vitest test (unit, API over a real server and SQLite, browser).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
echo "== tsc (site, islands, everything)"
tsc --noEmit -p tsconfig.json
echo "== tsc (server code run by Node directly: NodeNext resolution)"
tsc --noEmit -p scripts/tsconfig.server.json
echo "== astro check"
ASTRO_TELEMETRY_DISABLED=1 astro check --minimumSeverity error
echo "== vitest"
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
status=0
vitest run --config scripts/vitest.config.ts 2>&1 | tee "$log" || status=$?
[[ $status -eq 0 ]] && exit 0

plain="$(sed 's/\x1b\[[0-9;]*m//g' "$log")"
# What a process that crashed printed (Node's and V8's fatal errors, native assertions), repeated
# here because a crash's lines scroll far above the summary.
crash_lines="$(grep -n -E 'terminate called|what\(\):|FATAL ERROR|Fatal (process|JavaScript)|Assertion failed|Check failed|node::Abort|Native stack|Aborted|core dumped' <<<"$plain" || true)"
if [[ -n "$crash_lines" ]]; then
  echo "== what crashed processes printed"
  echo "$crash_lines"
fi

exit "$status"
