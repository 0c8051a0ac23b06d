# rw.gp — total, read and write GB/s against the rw ratio (percent of bytes written), per store strategy.
# gnuplot 5.4; run by scripts/plot, which defines the series and runs series.gp after this file.
# Shows the memtouch trade-off: a store strategy that raises write GB/s can cost the reads beside it.
set xrange [-3:103]
set xtics 0, 25, 100
set xlabel "rw ratio: percent of bytes written (100 = store only)"
set ylabel "GB/s (1e9 B/s): solid total, dashed read, dotted write"
set yrange [0:*]
