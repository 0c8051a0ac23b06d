# series.gp — shared engine of the storebench plots: pull each series out of its CSV, draw, write PNG/SVG.
# gnuplot 5.4.  Columns are read by header name; the '# key=value' metadata lines are comments here.
# One engine so every plot styles, filters and exports the same way; the .gp that loads it sets the axes.
#
# Set by scripts/plot before the plot's .gp runs (per series i = 1..n):
#   file<i>              CSV of the series
#   sel<i>(d)            row filter over column()/strcol() of that CSV (the dummy d is unused)
#   xv<i>(d) yv<i>(d)    x and y of a row; yl<i>(d) yh<i>(d) the error-bar range
#   t<i> c<i> d<i> p<i> w<i>   legend title, rgb colour, dash type, point type, line width
#   st<i>                "points" for a marker series (optional; default linespoints)
#   ncache, cx<i>, cl<i> vertical markers (cache sizes) at x = cx<i> labelled cl<i>
#   ptitle, outbase, formats ("png svg"), errbars (0/1), keypos (optional "set key" placement)
set datafile separator ","
set datafile missing ""

# Each series becomes the datablock $s<i>: x, y, y low, y high; sorted later by smooth unique.
do for [i=1:n] {
	eval sprintf('set table $s%d separator comma', i)
	eval sprintf('plot file%d using (xv%d(0)):(yv%d(0)):(yl%d(0)):(yh%d(0)) with table if (sel%d(0))', i, i, i, i, i, i)
	unset table
}

do for [i=1:ncache] {
	x = value(sprintf('cx%d', i))
	set arrow i from x, graph 0 to x, graph 1 nohead dashtype 3 linecolor rgb "#808080" linewidth 1
	set label i value(sprintf('cl%d', i)) at x, graph 0.98 rotate by 90 right offset -0.8, 0 \
		textcolor rgb "#606060" font ",9"
}

set title ptitle noenhanced
if (!exists("keypos")) keypos = "outside right top vertical"
eval "set key " . keypos . " noenhanced spacing 1.1 samplen 3"
set grid xtics ytics linecolor rgb "#e0e0e0" dashtype 1
set border 3
set tics nomirror

# One clause per series, naming its own variables; st<i> (optional) is the style, linespoints
# unless the driver asks for points (the markers of points measured on a shared CPU).
cmd = ""
do for [i=1:n] {
	st = exists(sprintf("st%d", i)) ? value(sprintf("st%d", i)) : "linespoints"
	# lines are sorted by x (smooth unique); marks are drawn point by point, never averaged
	cmd = cmd . (i > 1 ? ", " : "") . sprintf('$s%d using 1:2 %s with %s linewidth w%d' . \
		' linecolor rgb c%d dashtype d%d pointtype p%d pointsize %s title t%d', \
		i, (st eq "points" ? "" : "smooth unique"), st, i, i, i, i, (st eq "points" ? "1.8" : "0.7"), i)
}
# error bars first, so the lines and points of every series stay on top of them
if (errbars) {
	cmd = 'for [i=1:n] sprintf("$s%d", i) using 1:2:3:4 with yerrorbars' . \
		' linecolor rgb value(sprintf("c%d", i)) pointtype value(sprintf("p%d", i))' . \
		' pointsize 0.7 notitle, ' . cmd
}
cmd = "plot " . cmd

do for [f=1:words(formats)] {
	fmt = word(formats, f)
	if (fmt eq "png") {
		set terminal pngcairo size 1280, 800 noenhanced font "sans,11"
	} else {
		set terminal svg size 1280, 800 dynamic noenhanced font "sans,11" background rgb "white"
	}
	set output outbase . "." . fmt
	eval cmd
	unset output
}
