#!/bin/sh
# Instructions per hit-test query under callgrind, InputRouter against wlr_scene_node_at,
# on the same tree and points: for wlr_scene the difference between a run of 0 queries and
# one of N, so building the scene cancels out; for InputRouter between runs of N and 2N, so
# the lazy work of the first queries (the subtree bounds, the child grids, the flat index
# built once the scene has stood still: docs/routing.md) cancels out too and what is left
# is the steady state. Repeatable, unlike the timings. Usage (after make bench):
#   benchmarks/hit-test-callgrind.sh [SCENE...]   (wlroots, desktop, stress; default all)
# wlr_scene walks every node, so on the two big trees it is sampled on fewer queries (the
# first ones of the same point list) to finish in minutes.
set -eu
bin=${CORE_BENCH:-.build/release/core-bench} wlr=${WLR_BENCH:-.build/wlr-bench}
scene_file=$(mktemp)
trap 'rm -f "$scene_file"' EXIT
count() { valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null | sed -n 's/.*Collected : //p'; }
for s in ${*:-wlroots desktop stress}; do
	n=32768
	case $s in wlroots) wn=1024 ;; stress) wn=128 ;; *) wn=$n ;; esac
	$bin --hit-test "$s" 0 --write-scene "$scene_file" >/dev/null
	a=$(count $bin --hit-test "$s" $n)
	b=$(count $bin --hit-test "$s" $((2 * n)))
	wa=$(count $wlr "$scene_file" 0)
	wb=$(count $wlr "$scene_file" $wn)
	echo "$s $a $b $n $wa $wb $wn" | awk '{ ir = ($3 - $2) / $4; w = ($6 - $5) / $7;
		printf "%s: InputRouter %.0f (%d queries), wlr_scene %.0f (%d) instructions per query: %.1fx\n", $1, ir, $4, w, $7, w / ir }'
done
