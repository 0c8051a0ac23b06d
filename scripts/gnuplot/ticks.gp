# ticks.gp — TSC ticks per kernel call against call size, hot and cold working set (the DPDK view).
# gnuplot 5.4; run by scripts/plot, which defines the series and runs series.gp after this file.
# Per-call cost, not bandwidth, is what a library author tuning small-size memset thresholds needs.
set logscale x 2
set xrange [xmin:xmax]
set logscale y 10
eval 'set xtics (' . xtics . ')'
set xlabel "bytes per call (log2 scale)"
set ylabel "TSC ticks per call, median (log scale)"
