#!/bin/bash
# Starts the real tableref window on the demo game under Xvfb and saves a
# screenshot of it to docs/screenshot.png (or the file given as $1).
# Needs xvfb (xvfb-run) and ImageMagick (import).
set -euo pipefail
out=${1:-docs/screenshot.png}
bin=${BIN:-bin/tableref}
after=${AFTER:-8.3}
export LANG=${LANG:-C.UTF-8}
[ -x "$bin" ] || go build -o "$bin" ./cmd/tableref
xvfb-run -a -s "-screen 0 1500x900x24" bash -c '
	"$1" ui --select rangers --interval 3 &
	pid=$!
	sleep "$3"
	import -window root "$2"
	kill "$pid"
' _ "$bin" "$out" "$after"
echo "saved $out"
