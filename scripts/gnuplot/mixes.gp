# mixes.gp — ns per call of each store strategy on each size distribution (--call dist:), one
# point per distribution and working set.  gnuplot 5.4; run by scripts/plot, then series.gp
# draws the series.  A program's own mix of sizes decides its memset, call by call.
set xrange [xmin:xmax]
eval 'set xtics (' . xtics . ') rotate by -35'
set xlabel "store strategy"
set ylabel "ns per call, median (log scale)"
set logscale y 10
