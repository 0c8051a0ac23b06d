# compare-cpus.gp — per-CPU overlay: bandwidth against working set, one colour per CPU, one dash per kind.
# gnuplot 5.4 (pngcairo / svg); driven by scripts/compare-cpus, which writes the data and the arrays.
# Why: the same strategy's curve on two CPUs, on one log2 axis, shows where their caches and DRAM part.
#
# Variables (gnuplot -e): datafile, out, fmt ("png" or "svg"), n (series), plottitle, xt (xtics
# list in binary units, e.g. '"4KiB" 4096, "1MiB" 1048576'),
# arrays T[n] (series titles), C[n] (CPU number, colour), D[n] (kind number, dash: libc, rep, t,
# nt, flush).  datafile: one block per series, "ws_bytes <TAB> gbps_median".

if (fmt eq "svg") {
	set terminal svg size 1100, 650 dynamic font "Helvetica,12" background rgb "white"
} else {
	set terminal pngcairo size 1100, 650 font "Helvetica,11" background rgb "white"
}
set output out
set termoption noenhanced
set datafile separator "\t"
set title plottitle
set logscale x 2
eval("set xtics (" . xt . ")")
set xlabel "working set per thread (bytes, binary units)"
set ylabel "GB/s (1e9 bytes/s), median"
set yrange [0:*]
set offsets graph 0.02, graph 0.02, 0, 0
set grid xtics ytics lc rgb "#dddddd"
set key outside right top font ",9"
array colour[6] = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b"]
plot for [i = 1:n] datafile index (i - 1) using 1:2 with linespoints lw 2 pt 7 ps 0.6 \
	lc rgb colour[(C[i] - 1) % 6 + 1] dt D[i] title T[i]
