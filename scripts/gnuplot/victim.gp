# victim.gp — a victim working set's slowdown after the writers' stores against their call size,
# one line per store strategy.  gnuplot 5.4; run by scripts/plot, then series.gp draws the series.
# What a strategy evicts from data another thread keeps warm is the cost its own GB/s hide.
set logscale x 2
set xrange [xmin:xmax]
eval 'set xtics (' . xtics . ')'
set xlabel "bytes each writer stores per pass (log2 scale)"
set ylabel "victim re-read time after the writes / without (1 = no cost), median of pairs"
set yrange [0:*]
