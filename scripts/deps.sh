#!/usr/bin/env bash
# Installs the Debian packages tableref needs when they are missing, with
# sudo only when not root. Usage: scripts/deps.sh PACKAGE...
set -euo pipefail
missing=()
for p in "$@"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    # golang-go is only needed when no recent Go is present (see go.sh).
    if [ "$p" = golang-go ] && "$(dirname "$0")/go.sh" version >/dev/null 2>&1; then
      continue
    fi
    missing+=("$p")
  fi
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "deps: installing Debian packages: ${missing[*]}" >&2
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if ! command -v sudo >/dev/null; then
    echo "deps: not root and no sudo: install these packages yourself: ${missing[*]}" >&2
    exit 1
  fi
  SUDO=sudo
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
