#!/bin/sh
# The demo: the compositor, headless, with two bundled test clients and three bundled
# recordings (a mouse, a keyboard, a touchscreen) replayed at twice their speed. The
# clients ask for server-side decorations (xdg-decoration), so each gets a title bar. Every
# line a client prints is what it received; the trace is what the router decided.
set -eu
bin=${BIN:-.build/release}
fixtures=Tests/RecordingTests/Fixtures
out=${OUT:-demo-output}
mkdir -p "$out"
runtime=$(mktemp -d)
chmod 700 "$runtime"
export XDG_RUNTIME_DIR="$runtime"
trap 'rm -rf "$runtime"' EXIT
probe="$bin/wl-probe"
"$bin/ir-compositor" --backend headless --size 800x600 --speed 2 --exit-after-replay \
    --input replay:$fixtures/mouse.yml --input replay:$fixtures/keyboard.yml \
    --input replay:$fixtures/touchscreen.yml --trace "$out/trace.txt" \
    --screenshot "$out/screenshot.png" --hit-map "$out/hit-map.png" "$@" \
    --client "$probe --toplevel viewer 400x260 --ssd" \
    --client "$probe --toplevel editor 300x200 --sub toolbar editor 0,0 300x30 --sub palette editor 280,40 60x80 --hole editor 100,100,60,40 --ssd"
