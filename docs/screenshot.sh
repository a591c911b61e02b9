#!/bin/bash
# Starts the real tableref window on the demo game under Xvfb and saves a
# screenshot of it to docs/screenshot.png (or the file given as $1).
# Needs xvfb (xvfb-run) and ImageMagick (import).
set -euo pipefail
out=${1:-docs/screenshot.png}
bin=${BIN:-bin/tableref}
after=${AFTER:-6}
# The volley of the demo game (its third layout), as a still table: the
# window shows it settled whatever the machine's speed.
still=$(mktemp --suffix=.json)
trap 'rm -f "$still"' EXIT
sed -n 3p cmd/tableref/demo/sequence.jsonl >"$still"
export LANG=${LANG:-C.UTF-8}
[ -x "$bin" ] || go build -o "$bin" ./cmd/tableref
xvfb-run -a -s "-screen 0 1500x900x24" bash -c '
	"$1" ui --select rangers "$4" &
	pid=$!
	sleep "$3"
	import -window root "$2"
	kill "$pid"
' _ "$bin" "$out" "$after" "$still"
echo "saved $out"
