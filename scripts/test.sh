#!/usr/bin/env bash
# The whole test suite (run through `npm test`, which sets up Node and dependencies first):
# type checks, then every vitest test (unit, API over a real server and SQLite, browser).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
echo "== tsc --noEmit"
tsc --noEmit -p .
echo "== vitest"
vitest run --config scripts/vitest.config.ts
