# bandwidth.gp — GB/s against working set per thread, log2 x with binary units, cache sizes marked.
# gnuplot 5.4; run by scripts/plot, which defines the series and loads series.gp through this file.
# The cache-vs-memory curve is where store strategies separate: temporal wins in cache, NT in DRAM.
set logscale x 2
set xrange [xmin:xmax]
eval 'set xtics (' . xtics . ')'
set xlabel "working set per thread (bytes, log2 scale)"
set ylabel ylabel
set yrange [0:*]
load gpdir . "/series.gp"
