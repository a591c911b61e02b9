#!/usr/bin/env bash
# Runs the go command with a Go recent enough for go.mod. It looks for go on
# PATH and in /usr/local/go; when neither is recent enough it fetches the
# toolchain module golang.org/toolchain from the Go module proxy (with any
# Go that can run "go mod download", Debian's golang-go included) into
# .cache/ and uses its bin/go.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
want="$(sed -n 's/^go \([0-9.]*\).*/\1/p' "$root/go.mod")"
pin="${TOOLCHAIN_VERSION:-1.26.8}"

version_ok() { # $1: a go binary
  local v
  v="$("$1" env GOVERSION 2>/dev/null)" || return 1
  v="${v#go}"
  [ "$(printf '%s\n%s\n' "$want" "$v" | sort -V | head -1)" = "$want" ]
}

for cand in "$(command -v go 2>/dev/null || true)" /usr/local/go/bin/go /usr/lib/go/bin/go "$root/.cache/toolchain/bin/go"; do
  if [ -n "$cand" ] && [ -x "$cand" ] && version_ok "$cand"; then
    GOTOOLCHAIN=local exec "$cand" "$@"
  fi
done

# Bootstrap: any go binary can download the toolchain module.
boot=""
for cand in "$(command -v go 2>/dev/null || true)" /usr/lib/go/bin/go /usr/local/go/bin/go; do
  [ -n "$cand" ] && [ -x "$cand" ] && boot="$cand" && break
done
if [ -z "$boot" ]; then
  echo "go.sh: no Go found; install Debian's golang-go first (make deps does)" >&2
  exit 1
fi
mod="golang.org/toolchain@v0.0.1-go${pin}.linux-amd64"
echo "go.sh: Go $want or newer is needed; fetching $mod from the Go module proxy" >&2
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
dir="$(cd "$tmp" && GOFLAGS=-mod=mod GO111MODULE=on GOPATH="$root/.cache/gopath" GOTOOLCHAIN=local "$boot" mod download -json "$mod" | sed -n 's/.*"Dir": "\(.*\)".*/\1/p')"
if [ -z "$dir" ] || [ ! -f "$dir/bin/go" ]; then
  echo "go.sh: could not fetch $mod" >&2
  exit 1
fi
mkdir -p "$root/.cache"
rm -rf "$root/.cache/toolchain"
cp -r "$dir" "$root/.cache/toolchain"
chmod -R u+w "$root/.cache/toolchain"
# Module zips keep no file modes: make the toolchain's programs executable.
chmod +x "$root/.cache/toolchain/bin/"* "$root/.cache/toolchain/pkg/tool/"*/*
echo "go.sh: using $("$root/.cache/toolchain/bin/go" version)" >&2
GOTOOLCHAIN=local exec "$root/.cache/toolchain/bin/go" "$@"
