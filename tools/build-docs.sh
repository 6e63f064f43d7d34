#!/bin/sh
# `make docs`: the DocC site of the public modules, as static files in .build/docs-site
# (one folder per module and an index.html linking them), from the toolchain's own `docc`
# over the symbol graphs SwiftPM extracts from the debug build. No plugin: nothing outside
# the package can be fetched, so swift-docc-plugin is not available.
set -eu
cd "$(dirname "$0")/.."
SWIFT=${SWIFT:-swift}
MODULES="InputRouter InputRouterKeyboard InputRouterRecording InputRouterWayland InputRouterLibinput InputRouterRendering InputRouterNested"
SITE=.build/docs-site
DOCC=$(dirname "$(command -v "$SWIFT")")/docc
[ -x "$DOCC" ] || { echo "build-docs: no docc beside $SWIFT ($DOCC)" >&2; exit 1; }

# The symbol graphs: SwiftPM builds (incrementally: after `swift build` it is up to date)
# and runs swift-symbolgraph-extract on every module with the flags it built it with. It
# exits 1 because one module fails that is not documented (CWaylandProtocols, whose module
# map the plugin writes, is not found by the extractor), so what counts is that each
# documented module's graph was written by this run.
GRAPHS=$(dirname "$("$SWIFT" build --show-bin-path)")/symbolgraph
rm -rf "$SITE" .build/docs-graphs "$GRAPHS"
mkdir -p "$SITE" .build/docs-graphs
"$SWIFT" package dump-symbol-graph --minimum-access-level public >.build/docs-graphs/dump.log 2>&1 || true
for m in $MODULES; do
    [ -s "$GRAPHS/$m.symbols.json" ] || {
        cat .build/docs-graphs/dump.log >&2; echo "build-docs: no symbol graph for $m in $GRAPHS" >&2; exit 1; }
done

for m in $MODULES; do
    # Each module's graphs alone (its own and its extensions of other modules' types).
    mkdir -p ".build/docs-graphs/$m"
    cp "$GRAPHS/$m.symbols.json" "$GRAPHS/$m"@*.symbols.json ".build/docs-graphs/$m/" 2>/dev/null || \
        cp "$GRAPHS/$m.symbols.json" ".build/docs-graphs/$m/"
    "$DOCC" convert "Sources/$m/$m.docc" \
        --fallback-display-name "$m" --fallback-bundle-identifier "org.inputrouter.$m" \
        --additional-symbol-graph-dir ".build/docs-graphs/$m" \
        --transform-for-static-hosting --hosting-base-path "$m" \
        --warnings-as-errors \
        --output-path "$SITE/$m" >".build/docs-graphs/$m.log" 2>&1 || {
        cat ".build/docs-graphs/$m.log" >&2; echo "build-docs: docc failed for $m" >&2; exit 1; }
done

# The site's front page: one link per module, and the tutorial.
{
    echo '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>InputRouter documentation</title></head><body>'
    echo '<h1>InputRouter documentation</h1><ul>'
    for m in $MODULES; do
        echo "<li><a href=\"$m/documentation/$(echo "$m" | tr 'A-Z' 'a-z')/\">$m</a></li>"
    done
    echo '</ul><p><a href="InputRouter/tutorials/inputrouter/routeinputinyourowncompositor">Tutorial: Route input in your own compositor</a></p>'
    echo '</body></html>'
} >"$SITE/index.html"
echo "build-docs: $SITE (python3 -m http.server -d $SITE, then open http://localhost:8000/)"
