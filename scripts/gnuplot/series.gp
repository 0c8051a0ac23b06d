# series.gp — shared engine of the storebench plots: draw the driver's series, write PNG/SVG.
# gnuplot 5.4, run after the plot's own .gp in a private folder the driver made (storebench/
# gnuplot.py); one engine so every plot styles and exports the same way.
#
# The data is series.tsv in that folder: block i-1 (index) holds series i as x, y, y low, y high.
# Set by the driver with -e (labels as single-quoted literals, never spliced into commands):
#   n                      series count; per series i: t<i> title, c<i> rgb colour, d<i> dash type,
#                          p<i> point type, w<i> line width, st<i> "points" or "linespoints",
#                          e<i> 1 when its error bars are drawn (with errbars)
#   ncache, cx<i>, cl<i>   cache sizes: x = cx<i> labelled cl<i> on the top axis, a dotted line down
#   ptitle, formats ("png svg"), errbars (0/1), keycols (legend columns, below the plot)
set datafile separator "\t"

do for [i=1:ncache] {
	x = value(sprintf('cx%d', i))
	set arrow i from x, graph 0 to x, graph 1 nohead dashtype 3 linecolor rgb "#808080" linewidth 1
	if (i == 1) { set x2tics (value(sprintf('cl%d', i)) x) } else { set x2tics add (value(sprintf('cl%d', i)) x) }
}
if (ncache > 0) {
	# the cache labels sit above the frame on the top axis, so they never cover a curve
	set x2tics nomirror textcolor rgb "#606060" font ",9" scale 0
	set xtics nomirror
}

set title ptitle noenhanced
set key outside below center horizontal maxcols keycols Left reverse noenhanced spacing 1.1 samplen 3 width 1
set grid xtics ytics linecolor rgb "#e0e0e0" dashtype 1
set border 3
set tics nomirror

# One clause per series, naming its own variables; lines are sorted by x (smooth unique), marks
# (st<i> "points", the points a quality flag marks) are drawn point by point, never averaged.
cmd = ""
do for [i=1:n] {
	st = value(sprintf("st%d", i))
	cmd = cmd . (i > 1 ? ", " : "") . sprintf("'series.tsv' index %d using 1:2 %s with %s linewidth w%d" . \
		' linecolor rgb c%d dashtype d%d pointtype p%d pointsize %s title t%d', \
		i - 1, (st eq "points" ? "" : "smooth unique"), st, i, i, i, i, (st eq "points" ? "1.8" : "0.9"), i)
}
# error bars first, so the lines and points of every series stay on top of them; only on the
# series whose points all have them (e<i>)
if (errbars) {
	bars = ""
	do for [i=1:n] {
		if (value(sprintf("e%d", i))) {
			bars = bars . sprintf("'series.tsv' index %d using 1:2:3:4 with yerrorbars" . \
				' linecolor rgb c%d pointtype p%d pointsize 0.7 notitle, ', i - 1, i, i)
		}
	}
	cmd = bars . cmd
}
cmd = "plot " . cmd

do for [f=1:words(formats)] {
	fmt = word(formats, f)
	if (fmt eq "png") {
		set terminal pngcairo size 1280, 800 noenhanced font "sans,11"
	} else {
		set terminal svg size 1280, 800 dynamic noenhanced font "sans,11" background rgb "white"
	}
	set output "out." . fmt
	eval cmd
	unset output
}
