#!/bin/bash
# Starts the real tableref window on a rendered photograph (through the
# detector, with the scene's calibration) under Xvfb and saves a screenshot
# of it to docs/screenshot-camera.png (or the file given as $1).
# Needs xvfb (xvfb-run) and ImageMagick (import).
# SEED, TIER and SELECT choose the scene and the disk whose ranges are shown.
set -euo pipefail
out=${1:-docs/screenshot-camera.png}
bin=${BIN:-}
after=${AFTER:-8}
seed=${SEED:-2}
tier=${TIER:-medium}
select=${SELECT:-d2}
scenes=$(mktemp -d)
trap 'rm -rf "$scenes"' EXIT
export LANG=${LANG:-C.UTF-8}
if [ -z "$bin" ]; then # build the working tree, never a stale binary
	bin="$scenes/tableref"
	go build -o "$bin" ./cmd/tableref
fi
"$bin" synth --seed "$seed" --tier "$tier" --out "$scenes" 2>/dev/null
base="$scenes/$tier-$seed"
xvfb-run -a -s "-screen 0 1500x900x24" bash -c '
	"$1" ui --rules geometry --select "$5" --calibration "$4-camera.json" "$4.jpg" &
	pid=$!
	sleep "$3"
	import -window root "$2"
	kill "$pid"
' _ "$bin" "$out" "$after" "$base" "$select"
echo "saved $out"
