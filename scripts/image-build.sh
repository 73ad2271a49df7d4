#!/usr/bin/env bash
# Builds the images of the image lane (npm run test:image) with podman on a machine that cannot
# pull from a registry: the bases (scripts/image-bases.sh), then Quire's image with LibreOffice
# (localhost/quire:latest, the name compose.yaml uses) and without (localhost/quire:chromium), the
# proxy of compose.yaml and the PostgreSQL stand-in (tests/image/postgres). Prints each image's size.
# The podman flags are this machine's (docs/decisions.md#the-container-image), not the images'.
# A TLS-inspecting proxy's CA (NODE_EXTRA_CA_CERTS, as on this machine) is mounted into the build
# stage for npm ci; it is not in any image.
set -euo pipefail
cd "$(dirname "$0")/.."
podman=(podman --runtime runc --cgroup-manager=cgroupfs)
# docker format: the OCI format has no HEALTHCHECK (podman drops it with a warning).
build=("${podman[@]}" build --quiet --format docker --network host --ulimit nofile=20000:20000 --ulimit nproc=1024:1024)
if [ -n "${NODE_EXTRA_CA_CERTS:-}" ] && [ -f "$NODE_EXTRA_CA_CERTS" ]; then
  build+=(--volume "$NODE_EXTRA_CA_CERTS:/run/build-ca.crt:ro" --build-arg NODE_EXTRA_CA_CERTS=/run/build-ca.crt)
fi
started=$SECONDS
scripts/image-bases.sh
step() { echo "image-build: $1 in $((SECONDS - started)) s" >&2; started=$SECONDS; }
step "bases"
"${build[@]}" -f Containerfile -t localhost/quire:latest . >/dev/null
step "localhost/quire:latest"
"${build[@]}" -f Containerfile --target chromium -t localhost/quire:chromium . >/dev/null
step "localhost/quire:chromium"
"${build[@]}" -f deploy/proxy/Containerfile -t localhost/quire-proxy:latest deploy/proxy >/dev/null
"${build[@]}" -f tests/image/postgres/Containerfile -t docker.io/library/postgres:15-bookworm tests/image/postgres >/dev/null
step "proxy and PostgreSQL stand-in"
for image in localhost/quire:latest localhost/quire:chromium localhost/quire-proxy:latest docker.io/library/postgres:15-bookworm docker.io/library/debian:bookworm-slim; do
  echo "image-build: $image $(("$("${podman[@]}" image inspect --format '{{.Size}}' "$image")" / 1000000)) MB" >&2
done
