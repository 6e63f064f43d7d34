# Hit-test time against tree size (make bench writes the data, then runs this).
# Columns: surfaces depth nested_ns flat_ns wlr_nested_ns wlr_flat_ns
set terminal pngcairo size 900,560 font "sans,11"
set output out
set title "Hit-test time against tree size (median per query)"
set xlabel "surfaces in the tree"
set ylabel "time per hit-test (ns)"
set logscale xy
set format x "10^{%L}"
set format y "10^{%L}"
set grid
set key top left
plot data using 1:5 with linespoints lw 2 title "wlr\\_scene\\_node\\_at, nested tree", \
     data using 1:6 with linespoints lw 2 title "wlr\\_scene\\_node\\_at, flat list", \
     data using 1:3 with linespoints lw 2 title "InputRouter, nested tree (depth 2..6)", \
     data using 1:4 with linespoints lw 2 title "InputRouter, flat list (child grid)"
