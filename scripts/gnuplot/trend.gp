# trend.gp — run-history trend of chosen points for one machine id, one panel per point.
# gnuplot 5.4 (pngcairo / svg); driven by scripts/trend, which writes the data and sets the variables,
# in a private folder: the data is series.tsv there, the plot goes to out.<fmt>.
# Why: a nightly gate says "moved tonight"; the trend shows slow drifts no single comparison catches.
#
# Variables (gnuplot -e): fmt ("png" or "svg"), n (panels), runs (x count), machine,
# array T[n] (panel titles).  series.tsv holds one block per panel (separated by two blank lines):
#   x  gbps_median  gbps_min  gbps_max  run-label  point-label  line  tick  diagnostic (1/0)
# One x per run (the run's position in history), its tick "<date> #N", so several runs on one day
# stay apart; the point's label is its kernel with the run's marks.  line is the median, or "?"
# (missing) for a diagnostic run: the line joins the real runs only, a diagnostic one is ringed.

if (fmt eq "svg") {
	set terminal svg size 960, 300 * n dynamic font "Helvetica,12" background rgb "white"
} else {
	set terminal pngcairo size 960, 300 * n font "Helvetica,11" background rgb "white"
}
set output "out." . fmt
set termoption noenhanced
set datafile separator "\t"
set datafile missing "?"
set multiplot layout n, 1 title sprintf("storebench nightly trend: %s", machine)
set grid ytics lc rgb "#dddddd"
set lmargin 10  # panels of different y ranges keep one x axis
set ylabel "GB/s (median, min-max)"
set yrange [0:*]
set offsets 0, 0, graph 0.15, 0
set xrange [-0.5:runs - 0.5]
set xtics rotate by -30 nomirror
unset key
do for [i = 1:n] {
	set title T[i]
	plot 'series.tsv' index (i - 1) using 1:2:3:4:xtic(8) with yerrorbars pt 7 ps 0.8 lc rgb "#1f77b4", \
	     '' index (i - 1) using 1:7 with lines lw 2 lc rgb "#1f77b4", \
	     '' index (i - 1) using 1:($9 > 0 ? $2 : 1/0) with points pt 6 ps 2.2 lc rgb "#d62728", \
	     '' index (i - 1) using 1:4:6 with labels offset 0, 0.8 font ",9" tc rgb "#555555"
}
unset multiplot
