# threads.gp — aggregate GB/s against thread count at one working set per thread.
# gnuplot 5.4; run by scripts/plot, which defines the series and runs series.gp after this file.
# Shows where a store strategy stops scaling: in cache it should be linear, in DRAM it saturates.
eval 'set xtics (' . xtics . ')'
set xrange [xmin:xmax]
set xlabel "threads"
set ylabel "GB/s (1e9 B/s), all threads"
set yrange [0:*]
