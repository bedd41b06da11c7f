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
crash_lines="$(grep -n -E 'FATAL ERROR|Fatal (process|JavaScript)|Assertion|Check failed|node::Abort|Native stack|Aborted|core dumped' <<<"$plain" || true)"
if [[ -n "$crash_lines" ]]; then
  echo "== what crashed processes printed"
  echo "$crash_lines"
fi

# A test file whose worker process was killed by a signal (Node or a native module crashing, not
# an assertion failing) is run once more, on its own, when no test failed: its tests had not all
# run. A crash that comes back, or any failed test, fails the suite.
crashed="$(grep -oE 'Worker exited unexpectedly with signal [A-Z0-9]+ during [a-z]+ state while running test files? .*' <<<"$plain" |
  sed -E 's/.* while running test files? //' | tr ',' '\n' | sed -E "s#^ *##; s#^$PWD/##" | sort -u || true)"
if [[ -z "$crashed" ]] || grep -qE '^ *(Test Files|Tests) .*[0-9]+ failed' <<<"$plain"; then exit "$status"; fi
echo "== vitest: a test worker was killed by a signal while running these files; running them once more:"
echo "$crashed"
# shellcheck disable=SC2086 # one argument per file
vitest run --config scripts/vitest.config.ts $crashed
