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
vitest run --config scripts/vitest.config.ts
