# load.gp — a `storebench load` time series: GB/s written, read and in total per interval against
# time, and the slowest thread's.  gnuplot 5.4; run by scripts/plot, then series.gp draws it.
# A load is judged by how steady it is, so time runs along x and every interval is a point.
set xlabel "seconds since the steady load began (end of each interval)"
set ylabel "GB/s (1e9 B/s) in the interval, all threads"
set yrange [0:*]
