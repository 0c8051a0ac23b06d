# advise.gp — scripts/advise's plot: libc memset default vs advised and the path kernels over call
# size, with the current and advised thresholds as vertical lines.  gnuplot 5.4.
# Every title and label is read from the data files (columnheader, `with labels`), never spliced into code.
#
# Set by scripts/advise (storebench/advise_report.py):
#   datafile   tab-separated blocks, one per series: header "size_bytes<TAB><title><TAB>flagged",
#              then rows size, GB/s, flagged (1: storebench's quality check flagged the point)
#   linesfile  "size<TAB>ymax<TAB>label" per threshold line (no header)
#   cachesfile "size<TAB>ymax<TAB>label" per cache share marked (no header)
#   nseries, nlines, ncaches, nflagged, ymax (the data's top), ptitle, outbase
# Labels stand in the band above ymax, so none crosses a curve or the axis.
set datafile separator tab
set title ptitle noenhanced
set logscale x 2
set format x "%.0b%B"
set xlabel "bytes per call (per thread)"
set ylabel "GB/s (median)"
set yrange [0:ymax * 1.5]
set key outside right top vertical noenhanced
set grid xtics ytics linecolor rgb "#e0e0e0"
set border 3
set tics nomirror
colors = "#1f77b4 #d62728 #2ca02c #ff7f0e #9467bd #8c564b"

do for [fmt in "png svg"] {
	if (fmt eq "png") {
		set terminal pngcairo size 1280, 800 noenhanced font "sans,11"
	} else {
		set terminal svg size 1280, 800 dynamic noenhanced font "sans,11" background rgb "white"
	}
	set output outbase . "." . fmt
	plot for [i=0:nseries-1] datafile index i using 1:2 with linespoints pointsize 0.6 \
		linewidth (i < 2 ? 2 : 1) linecolor rgb word(colors, i + 1) title columnheader(2), \
	     for [i=0:(nflagged > 0 ? nseries - 1 : -1)] datafile index i \
		using 1:($3 > 0 ? $2 : 1/0) with points pointtype 6 pointsize 1.6 \
		linecolor rgb "#000000" title (i == 0 ? "flagged by storebench's quality check" : ""), \
	     for [j=1:(nlines > 0 ? 1 : 0)] linesfile using 1:(0):(0):2 with vectors nohead \
		dashtype 2 linecolor rgb "#606060" notitle, \
	     for [j=1:(nlines > 0 ? 1 : 0)] linesfile using 1:2:3 with labels rotate by 90 left \
		offset -0.8, 0.5 font ",9" textcolor rgb "#404040" notitle, \
	     for [j=1:(ncaches > 0 ? 1 : 0)] cachesfile using 1:(0):(0):($2 * 1.45) with vectors \
		nohead dashtype 3 linecolor rgb "#a0a0a0" notitle, \
	     for [j=1:(ncaches > 0 ? 1 : 0)] cachesfile using 1:($2 * 1.47):3 with labels \
		font ",9" textcolor rgb "#707070" notitle
	unset output
}
