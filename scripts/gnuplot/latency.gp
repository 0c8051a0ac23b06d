# latency.gp — a pointer chase's ns per dependent load against the GB/s the writers store beside
# it, one line per store strategy from its idle point (0 GB/s) to its loaded one.  gnuplot 5.4; run
# by scripts/plot, then series.gp.  The loaded-latency view of Intel MLC, crossed with strategies.
set xrange [0:*]
set xlabel "GB/s the writers store beside the chase (0: the chase alone)"
set ylabel "ns per dependent load, median of trials"
set yrange [0:*]
