# The soak's samples (tools/soak.py writes the data, then runs this), one a second.
# Columns: t rss_kB fds clients objects departed_objects nodes spawned
set terminal pngcairo size 1000,760 font "sans,10"
set output out
set multiplot layout 2,2 title "make soak: ir-compositor under client churn and 1 kHz synthetic input"
set grid
set xlabel "time (s)"
set arrow 1 from warmup, graph 0 to warmup, graph 1 nohead dt 2 lc rgb "gray"
set title "resident memory"
set ylabel "RSS (MB)"
plot data using 1:($2/1024) with lines lw 2 notitle
set title "open file descriptors"
set ylabel "fds"
plot data using 1:3 with lines lw 2 title "all", data using 1:($3-$4) with lines lw 2 title "less client sockets"
set title "live Wayland protocol objects"
set ylabel "objects"
plot data using 1:5 with lines lw 2 title "of connected clients", \
     data using 1:6 with lines lw 2 title "of disconnected clients"
set title "clients and surface-tree nodes"
set ylabel "count"
plot data using 1:4 with lines lw 2 title "clients connected", data using 1:7 with lines lw 2 title "tree nodes"
unset multiplot
