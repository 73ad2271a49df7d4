#!/usr/bin/env bash
# One-time set-up on a fresh Linux machine: the system libraries and fonts Chromium needs
# (Debian/Ubuntu packages, when apt and root or sudo are available), then the npm packages,
# which carry Chromium itself (@sparticuz/chromium). Safe to run again. On a machine whose own Node
# is older than package.json's engines, `npm run setup` runs this on Node 24 from npm
# (scripts/supported-node.sh), so npm ci installs for, and builds with, the Node the scripts use.
set -euo pipefail
cd "$(dirname "$0")/.."

# libnss3/libnspr4/libexpat1: the only shared libraries the packed headless shell links.
# Fonts: Liberation (metric twins of Arial, Times, Courier, so layouts match other machines),
# WenQuanYi Zen Hei (CJK as TrueType outlines, so PDFs embed it as a named, searchable font),
# Noto Color Emoji. qpdf: the server opens, repairs and reshapes PDF inputs with it (POST
# /v1/pdf/transform; without it those calls answer 501 pdf_tool_unavailable), and the tests check
# encrypted output with it. ghostscript: the compress step's image mode; poppler-utils (pdfinfo,
# pdftotext, pdfimages): the transform tests read results with them. postgresql: the server binaries (initdb, pg_ctl, postgres) that the tests start
# throwaway clusters with, and that several instances share (docs/operations.md#several-instances-postgresql);
# no cluster is created and nothing runs as a system service. chromium, chromium-headless-shell:
# the other Chromium builds the engine matrix renders on (npm run test:engines, docs/testing.md#engines-which-chromium-builds-are-tested).
# LibreOffice (writer, calc, impress without the GUI) and python3-uno: POST /v1/convert/office and
# its tests (an optional component of the server: without it that route answers 501).
# fonts-dejavu-core: DejaVu Sans, the Arabic fallback of headers and footers.
# Tests of PDF/A only (tests/api/pdf-a.test.ts, issue 31): poppler-utils (pdfinfo -meta, pdffonts,
# pdftotext read the files independently of our code), and Apache PDFBox Preflight, the one PDF/A
# validator Debian packages (libpdfbox2-java with libactivation-java and libjaxb-api-java, on
# default-jre-headless): it must accept our PDF/A-1b files. The server needs none of them.
# libxml2-utils: xmllint, which checks e-invoice XML against the Factur-X XSDs (options.e_invoice;
# without it that option answers 501 pdf_tool_unavailable). libimage-exiftool-perl: the attachment and
# e-invoice tests read the XMP back with it (and pdfdetach, pdfinfo from poppler-utils).
# openssl: reads imported PKCS#12 files (signing certificates) and makes the signing tests' CA and
# TSA. poppler-utils (pdfsig) and libnss3-tools (certutil): the signing tests read signatures with
# them, trusting the test CA through an NSS database. softhsm2 and opensc (pkcs11-tool): a PKCS#11
# token for the token-signing tests. python3, make and g++: node-gyp's build of the optional pkcs11js
# addon (signing with a token), whose install script package.json's allowScripts lets npm ci run.
# zbar-tools (zbarimg) and dmtx-utils (dmtxread): the barcode tests decode what a page draws with
# decoders independent of the one that drew it (issue 43). The server needs neither.
# The image lane only (npm run test:image, docs/container.md): podman with runc, mmdebstrap
# (the base images, no registry here), podman-compose and CNI's dnsname plugin (compose.yaml's
# services find each other by name), iptables (the proxy's published port); buildah, uidmap,
# slirp4netns and fuse-overlayfs (podman's recommends: the lane was proven with them installed).
IMAGE_PACKAGES="podman runc mmdebstrap podman-compose golang-github-containernetworking-plugin-dnsname iptables buildah uidmap slirp4netns fuse-overlayfs"
PACKAGES="libnss3 libnspr4 libexpat1 fontconfig fonts-liberation2 fonts-wqy-zenhei fonts-noto-color-emoji fonts-dejavu-core qpdf ghostscript poppler-utils postgresql chromium chromium-headless-shell libreoffice-writer-nogui libreoffice-calc-nogui libreoffice-impress-nogui python3-uno default-jre-headless libpdfbox2-java libactivation-java libjaxb-api-java libxml2-utils libimage-exiftool-perl openssl libnss3-tools softhsm2 opensc python3 make g++ zbar-tools dmtx-utils"

if command -v apt-get >/dev/null 2>&1; then
  missing=""
  for package in $PACKAGES $IMAGE_PACKAGES; do
    dpkg -s "$package" >/dev/null 2>&1 || missing="$missing $package"
  done
  if [ -n "$missing" ]; then
    sudo=""
    if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
    echo "setup: installing$missing"
    # Debian's postgresql would create and start a "main" cluster on install: the binaries are all we want.
    $sudo mkdir -p /etc/postgresql-common/createcluster.d
    echo "create_main_cluster = false" | $sudo tee /etc/postgresql-common/createcluster.d/quire.conf >/dev/null
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends $missing >/dev/null
  fi
else
  echo "setup: no apt-get here; install NSS, fontconfig, Liberation, a CJK and an emoji font, the PostgreSQL server and (for office files) LibreOffice with its Python bridge (uno) with your package manager"
fi

# The electron package is for the desktop app's types, build and packaging; its binary cannot be
# downloaded on machines without internet. Electron up to 40 fetches it in postinstall unless told
# not to; later versions fetch it on first use (`npx install-electron`), never during npm ci.
export ELECTRON_SKIP_BINARY_DOWNLOAD=1
npm ci --no-audit --no-fund
# The web UI (admin window and playground) is static files built from ui/ into dist/ui.
npm run build
