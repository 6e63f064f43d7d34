#!/bin/sh
# Regenerates the protocol code in Sources/CXdgShell from the XML in protocols/ with
# wayland-scanner. The output is committed; `make test` runs this with --check and fails
# when the committed files differ from what the scanner writes.
set -eu
cd "$(dirname "$0")/.."
scanner=/usr/bin/wayland-scanner
out=Sources/CXdgShell
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for xml in protocols/*.xml; do
    name=$(basename "$xml" .xml)
    $scanner private-code "$xml" "$tmp/$name-protocol.c"
    $scanner server-header "$xml" "$tmp/$name-server-protocol.h"
    $scanner client-header "$xml" "$tmp/$name-client-protocol.h"
done
if [ "${1:-}" = "--check" ]; then
    for f in "$tmp"/*.c; do cmp "$f" "$out/$(basename "$f")"; done
    for f in "$tmp"/*.h; do cmp "$f" "$out/include/$(basename "$f")"; done
    echo "protocol code matches protocols/*.xml"
else
    cp "$tmp"/*.c "$out/"
    cp "$tmp"/*.h "$out/include/"
fi
