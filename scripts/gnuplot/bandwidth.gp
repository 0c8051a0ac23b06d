# bandwidth.gp — GB/s against working set per thread, log2 x with binary units, cache sizes marked.
# gnuplot 5.4; run by scripts/plot, which defines the series and runs series.gp after this file.
# The cache-vs-memory curve is where store strategies separate: temporal wins in cache, NT in DRAM.
set logscale x 2
set xrange [xmin:xmax]
set logscale x2 2
set x2range [xmin:xmax]  # the top axis carries the cache-size labels
eval 'set xtics (' . xtics . ')'
set xlabel "working set per thread (bytes, log2 scale)"
set ylabel ylabel
set yrange [0:*]
