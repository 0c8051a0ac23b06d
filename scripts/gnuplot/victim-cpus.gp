# victim-cpus.gp — one victim's slowdown after the writers' stores, per store strategy, one colour
# per CPU (scripts/plot --overlay, compare-cpus).  gnuplot 5.4; then series.gp draws the series.
# The same --victim element on two machines is a different number of bytes: each its cache word.
set xrange [xmin:xmax]
eval 'set xtics (' . xtics . ')'
set xlabel "store strategy"
set ylabel "victim re-read time after the writes / without (1 = no cost), median of pairs"
set yrange [0:*]
