#!/bin/sh
# Regenerates the protocol code in Sources/CXdgShell from the XML in protocols/ with
# wayland-scanner, and the typed request enums of Sources/WaylandServer (with the header
# naming every interface table) from the same XML and libwayland's wayland.xml with
# tools/generate-requests.py. The output is committed; `make test` runs this with --check
# and fails when the committed files differ from what the generators write.
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
requests=Sources/WaylandServer/ProtocolRequests.swift
python3 tools/generate-requests.py "$tmp/ProtocolRequests.swift" "$tmp/wayland-interfaces.h" \
    /usr/share/wayland/wayland.xml protocols/*.xml
if [ "${1:-}" = "--check" ]; then
    for f in "$tmp"/*.c; do cmp "$f" "$out/$(basename "$f")"; done
    for f in "$tmp"/*.h; do cmp "$f" "$out/include/$(basename "$f")"; done
    cmp "$tmp/ProtocolRequests.swift" "$requests"
    echo "protocol code and request enums match protocols/*.xml"
else
    cp "$tmp"/*.c "$out/"
    cp "$tmp"/*.h "$out/include/"
    cp "$tmp/ProtocolRequests.swift" "$requests"
fi
