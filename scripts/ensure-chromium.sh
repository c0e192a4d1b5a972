#!/usr/bin/env bash
# Debian's Chromium drives the browser tests (never a downloaded browser). Installs it when missing.
set -euo pipefail
BIN="${CHROMIUM_PATH:-/usr/bin/chromium}"
if [ ! -x "$BIN" ]; then
  echo "Chromium is missing; installing Debian's package" >&2
  if [ "$(id -u)" != 0 ]; then echo "run as root, or install chromium yourself" >&2; exit 1; fi
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq chromium >/dev/null
fi
"$BIN" --version
