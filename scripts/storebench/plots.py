# storebench/plots.py — what scripts/plot draws: series of rows per plot, styled, handed to gnuplot.
# Python 3 standard library + gnuplot 5.4 (storebench/gnuplot.py runs it on scripts/gnuplot/*.gp).
# The driver decides what to draw (groups, best of each kind, labels from metadata) and writes each
# series' points as data; gnuplot only draws them, so no CSV quirk (quoted commas, empty fields)
# and no label can reach gnuplot as code.
"""Plot functions: bandwidth, threads, rw, ticks, victim, latency (one CSV), overlay and
overlay_victims (several), load_series (a `storebench load` time series)."""

import os
import textwrap

from storebench import classes, gnuplot, quality, victims
from storebench.labels import LETTERS
from storebench.rows import by_kernel, curve, has_victim, ival, num
from storebench.units import fmt_bytes, geomean

BASELINE = "memset"
REQUIRED = ("kernel", "kind", "width_bytes", "unroll", "call_bytes", "ws_mode", "ws_bytes", "threads",
            "misalign_bytes", "rw_ratio", "gbps_median", "ticks_per_call_median")
CONFIG = ("placement", "membind", "pages", "fill_byte", "rw_layout", "chunk_bytes")
NUMERIC = ("threads", "rw_ratio", "misalign_bytes", "fill_byte", "chunk_bytes", "ws_bytes", "call_bytes",
           "victim_bytes")
KINDS = ("libc", "rep", "t", "nt", "flush")
KIND_NAME = {"libc": "libc", "rep": "rep string", "t": "temporal", "nt": "non-temporal", "flush": "flush"}
KIND_RGB = {"libc": "#000000", "rep": "#7b3294", "t": "#1f64c8", "nt": "#d7191c", "flush": "#1a9641"}
# Distinct hues for series that are not told apart by kind (CPUs in an overlay, kernels in rw).
PALETTE = ("#1f64c8", "#d7191c", "#1a9641", "#7b3294", "#ff7f00", "#00a0a0", "#a65628", "#e7298a",
           "#666666", "#000000")
# Inside one kind: colour says the unroll, marker and dash the store width (ISA), so twelve
# kernels read as four colours times three shapes instead of twelve near-identical shades.
UNROLL_RGB = {1: "#1f64c8", 2: "#1a9641", 4: "#d7191c", 8: "#7b3294"}
POINT_BY_WIDTH = {0: 7, 1: 11, 8: 13, 16: 5, 32: 7, 64: 9}
DASH_BY_WIDTH = {8: 4, 16: 3, 32: 2, 64: 1}
TITLE_WIDTH = 130  # characters per title line at the 1280-pixel canvas; longer lines are wrapped
KEY_WIDTH = 150    # characters the legend below the plot may use per row


class Series:
    """One line: its points (x, y, y low, y high), the rows they came from, how it looks."""

    def __init__(self, title, rows, x, y, colour, ylo=None, yhi=None, dash=1, point=7, width=1.5,
                 style="linespoints"):
        self.title, self.rows, self.colour = title, rows, colour
        self.dash, self.point, self.width, self.style = dash, point, width, style
        self.x, self.y = x, y
        self.ylo, self.yhi = ylo or (lambda r: None), yhi or (lambda r: None)
        self.points = sorted(p for p in (self.point_of(r) for r in rows) if p)

    def point_of(self, row):
        x, y = self.x(row), self.y(row)
        return None if x is None or y is None else (x, y, self.ylo(row), self.yhi(row))


def col(name):
    return lambda r: num(r.get(name))


def quality_marks(series):
    """Open black circles over the points storebench's quality check flagged, one marker series
    per plotted series that has any, the first one in the legend."""
    marks = []
    for s in series:
        flagged = [r for r in s.rows if quality.suspect(r)]
        if flagged:
            m = Series("" if marks else "flagged by storebench's quality check",
                       flagged, s.x, s.y, "#000000", point=6, width=1, style="points")
            if m.points:
                marks.append(m)
    return marks


class Renderer:
    """Runs gnuplot for one plot at a time in a staging folder; keeps the list of outputs."""

    def __init__(self, stage, formats, errbars):
        self.stage, self.formats, self.errbars = stage, formats, errbars
        self.written = []

    def render(self, script, name, title, series, markers=(), intervals=False, **vars_):
        """intervals: the series' y low and high are 95 % intervals, drawn whatever --errorbars
        says (the others are a repetition's min and max, drawn on request)."""
        series = [s for s in series if s.points]
        if not series:
            return False
        # bars on each series whose every point has them (a run of one round has no interval;
        # the quality marks' rings have none of their own)
        barred = [(self.errbars or intervals) and all(p[2] is not None for p in s.points)
                  for s in series]
        errbars = any(barred)
        series += quality_marks(series)
        barred += [False] * (len(series) - len(barred))
        gnuplot.write_blocks(os.path.join(self.stage, gnuplot.DATA),
                             [s.points for s in series])
        titles = [s.title for s in series]
        longest = max(len(t) for t in titles) + 8
        wrapped = "\n".join(w for line in title.split("\n")
                            for w in textwrap.wrap(line, TITLE_WIDTH) or [""])
        defs = ["ptitle=%s" % gnuplot.string(wrapped), "formats='%s'" % " ".join(self.formats),
                "errbars=%d" % errbars, "n=%d" % len(series), "ncache=%d" % len(markers),
                "keycols=%d" % max(1, min(len(series), KEY_WIDTH // longest))]
        for k, v in vars_.items():
            defs.append("%s=%s" % (k, gnuplot.string(v) if isinstance(v, str) else repr(v)))
        for i, s in enumerate(series, 1):
            defs += ["t%d=%s" % (i, gnuplot.string(s.title)), "c%d='%s'" % (i, s.colour),
                     "e%d=%d" % (i, barred[i - 1]),
                     "d%d=%d" % (i, s.dash), "p%d=%d" % (i, s.point), "w%d=%g" % (i, s.width),
                     "st%d='%s'" % (i, s.style)]
        for i, (x, label) in enumerate(markers, 1):
            defs += ["cx%d=%d" % (i, x), "cl%d=%s" % (i, gnuplot.string(label))]
        try:
            gnuplot.run([script, "series.gp"], defs, self.stage)
        except gnuplot.GnuplotError as e:
            raise RuntimeError("gnuplot failed on %s: %s" % (name, e))
        for f in self.formats:
            os.replace(os.path.join(self.stage, "out." + f), os.path.join(self.stage, name + "." + f))
            self.written.append(name + "." + f)
        return True


def binary_tics(lo, hi, max_tics=14):
    """Powers of two between lo and hi labelled in binary units, thinned to at most max_tics
    (numbers only: the tic list is built here from integers, never from CSV text)."""
    exps = [e for e in range(0, 64) if lo <= (1 << e) <= hi] or [lo.bit_length() - 1]
    step = 1
    while len(exps[::step]) > max_tics:
        step += 1
    return ", ".join('"%s" %d' % (fmt_bytes(1 << e), 1 << e) for e in exps[::step])


def xpad(sizes):
    """A log2 x range a little wider than the data, so the end points and their tics show."""
    return dict(xmin=sizes[0] / 1.2, xmax=sizes[-1] * 1.2)


def group_rows(run, rows, keys):
    """[(((col, value), ...), rows)] grouped on the given columns, numeric ones as ints, file order."""
    groups = {}
    for r in rows:
        key = tuple((c, ival(r, c) if c in NUMERIC else r[c]) for c in keys)
        groups.setdefault(key, []).append(r)
    return sorted(groups.items(), key=lambda kv: [str(v[1]).zfill(12) for v in kv[0]])


def key_label(key):
    words = {"threads": lambda v: "%d thread%s" % (v, "" if v == 1 else "s"),
             "rw_ratio": lambda v: "store only" if v == 100 else "%g%% written" % v,
             "misalign_bytes": lambda v: "aligned" if v == 0 else "misaligned +%d B" % v,
             "ws_bytes": lambda v: "ws %s" % fmt_bytes(v),
             "call_bytes": lambda v: "call %s" % fmt_bytes(v),
             "chunk_bytes": lambda v: "chunk %s" % fmt_bytes(v),
             "victim": lambda v: "victim %s" % v,
             "victim_bytes": lambda v: "of %s" % fmt_bytes(v)}
    return ", ".join(words[c](v) if c in words else "%s %s" % (c.replace("_", " "), v) for c, v in key)


def key_slug(key):
    key = [(c, fmt_bytes(v).replace(" ", "") if c in ("ws_bytes", "call_bytes", "chunk_bytes",
                                                      "victim_bytes")
            else v) for c, v in key]
    short = {"threads": "t", "rw_ratio": "rw", "misalign_bytes": "mis", "ws_bytes": "ws",
             "call_bytes": "call", "rw_mode": "", "ws_mode": "", "placement": "", "membind": "", "pages": "",
             "fill_byte": "fill", "rw_layout": "", "chunk_bytes": "chunk", "victim": "",
             "victim_bytes": ""}
    slug = "-".join("%s%s" % (short.get(c, c), v) for c, v in key)
    return "".join(c if c.isalnum() or c in "-_." else "_" for c in slug)


def header(run, label=None):
    """CPU, CPU count and date for titles, from the metadata (or the label given for the run)."""
    cpu = label or run.cpu_label()
    brand = run.meta.get("cpu_brand", "")
    if brand and brand != cpu:
        cpu += " (%s)" % brand
    if run.meta.get("online_cpus"):
        cpu += ", %s CPUs" % run.meta["online_cpus"]
    if run.meta.get("hypervisor") == "yes":
        cpu += " (VM guest)"
    return cpu + (", %s" % run.date() if run.date() and run.date() not in cpu else "")


def kernel_info(rows):
    """kernel -> (kind, width, unroll), file order."""
    info = {}
    for r in rows:
        info.setdefault(r["kernel"], (r["kind"], ival(r, "width_bytes") or 0, ival(r, "unroll") or 1))
    return info


def best_by(rows, value, lower_better=False, points=None):
    """Kernel with the best geometric mean of value(row) over the points every candidate shares
    most; points(row) gives the x of a row.  Returns {kernel: score}."""
    vals = {}
    for r in rows:
        v = value(r)
        if v is not None and v > 0:
            vals.setdefault(r["kernel"], {})[points(r)] = v
    if not vals:
        return {}
    common = max(len(v) for v in vals.values())
    scores = {k: geomean(v.values()) for k, v in vals.items() if len(v) == common}
    return {k: (1 / s if lower_better else s) for k, s in scores.items() if s}


def kinds_in(info):
    return list(KINDS) + sorted({i[0] for i in info.values()} - set(KINDS))


def best_of_kinds(rows, info, value, points, lower_better=False):
    """[(kind, kernel)] the best kernel of each kind present, in KINDS order."""
    scores = best_by(rows, value, lower_better, points)
    out = []
    for kind in kinds_in(info):
        cands = [k for k in info if info[k][0] == kind and k in scores]
        if cands:
            out.append((kind, max(cands, key=lambda k: scores[k])))
    return out


def cache_markers(run, rows, lo, hi):
    """(x, label) of each cache level's per-thread share at the rows' point that falls in [lo, hi]:
    the working set per thread where the level runs out (storebench.classes).  A level shared by
    n of the threads reads 'L3/2 16 MiB', one the run measured 'L3 measured 5 MiB'."""
    out = []
    for label, level in classes.cache_levels(run):
        share, n = classes.share(run, rows, level)
        if classes.measured_share(run, rows, level):
            label += " measured"
        if share and lo <= share <= hi:
            out.append((share, "%s %s" % (label, fmt_bytes(share)) if n == 1 else
                        "%s/%d %s" % (label, n, fmt_bytes(share))))
    return out


def kernel_style(kernel, info, by_kind):
    """Across kinds: the kind's colour.  Inside a kind: colour by unroll, marker and dash by width."""
    kind, width, unroll = info[kernel]
    if kernel == BASELINE:
        return dict(colour="#000000", dash=1, point=7, width=2.5)
    if by_kind:
        return dict(colour=KIND_RGB.get(kind, "#808080"), dash=1, point=POINT_BY_WIDTH.get(width, 7),
                    width=2)
    return dict(colour=UNROLL_RGB.get(unroll, "#808080"), dash=DASH_BY_WIDTH.get(width, 4),
                point=POINT_BY_WIDTH.get(width, 7), width=1.8)


def best_title(kind, k, over):
    """The legend of a kind's best kernel, saying where it is best (OVER: 'over all sizes',
    'at 2 threads'): another size may have another best."""
    return k if k == BASELINE else "best %s %s: %s" % (KIND_NAME.get(kind, kind), over, k)


# ---- the plots ----------------------------------------------------------------------------

def bandwidth(run, rows, R, notes, args):
    rows = [r for r in rows if r["ws_mode"] == "call"]
    if not rows:
        notes.append("bandwidth: skipped, no rows with working set = call size (ws_mode call)")
        return
    keys = ["threads", "rw_ratio"] + run.axes(("rw_mode",) + CONFIG + ("misalign_bytes",), rows)
    info = kernel_info(rows)
    gb = dict(x=col("ws_bytes"), y=col("gbps_median"), ylo=col("gbps_min"), yhi=col("gbps_max"))
    ylabel = "GB/s (1e9 B/s), all threads" + (", bars: min-max over repetitions"
                                               if args.errorbars else "")
    for key, grows in group_rows(run, rows, keys):
        sizes = sorted({ival(r, "ws_bytes") for r in grows})
        if len(sizes) < 2:
            notes.append("bandwidth (%s): skipped, one working set (%s) makes no curve; "
                         "scripts/table lists the numbers" % (key_label(key), fmt_bytes(sizes[0])))
            continue
        marks = cache_markers(run, grows, sizes[0], sizes[-1])
        axes = dict(xtics=binary_tics(sizes[0], sizes[-1]), ylabel=ylabel, **xpad(sizes))
        best = best_of_kinds(grows, info, col("gbps_median"), col("ws_bytes"))
        series = [Series(best_title(kind, k, "over all sizes"), by_kernel(grows, k), **gb,
                         **kernel_style(k, info, True))
                  for kind, k in best]
        slug = key_slug(key)
        R.render("bandwidth.gp", "bandwidth-%s-best" % slug,
                 "%s\nstore bandwidth vs working set, best kernel of each kind; %s" % (
                     header(run), key_label(key)), series, marks, **axes)
        present = {r["kernel"] for r in grows}
        for kind in [k for k in kinds_in(info) if k != "libc"]:
            ks = [k for k in info if info[k][0] == kind and k in present]
            if not ks:
                continue
            if BASELINE in present:
                ks = [BASELINE] + ks
            series = [Series(k, by_kernel(grows, k), **gb, **kernel_style(k, info, False)) for k in ks]
            R.render("bandwidth.gp", "bandwidth-%s-%s" % (slug, kind),
                     "%s\n%s kernels vs working set (colour: unroll, marker and dash: store width); "
                     "%s" % (header(run), KIND_NAME.get(kind, kind), key_label(key)),
                     series, marks, **axes)


def pick_ws(run, rows, args):
    """{threads: working set} for the in-cache and the DRAM thread plot: at each thread count the
    largest in cache and the largest in memory by the rows' classes (classes.in_cache_and_memory;
    else the smallest and the largest); --ws-cache / --ws-dram fix one."""
    cache, dram = {}, {}
    for t in sorted({ival(r, "threads") for r in rows}):
        trows = [r for r in rows if ival(r, "threads") == t]
        sizes = sorted({ival(r, "ws_bytes") for r in trows})
        (in_cache, _), (in_memory, _) = classes.in_cache_and_memory(run, trows)
        cache[t] = args.ws_cache or in_cache or sizes[0]
        dram[t] = args.ws_dram or in_memory or sizes[-1]
    return cache, dram


def ws_words(ws_by_threads):
    """'384 KiB' when every thread count has the same working set, else '128 MiB at 1 thread,
    64 MiB at 2'."""
    if len(set(ws_by_threads.values())) == 1:
        return fmt_bytes(next(iter(ws_by_threads.values())))
    return ", ".join("%s at %d%s" % (fmt_bytes(ws), t, " thread" if i == 0 else "")
                     for i, (t, ws) in enumerate(sorted(ws_by_threads.items())))


def threads(run, rows, R, notes, args):
    rows = curve(rows)
    counts = sorted({ival(r, "threads") for r in rows})
    if len(counts) < 2:
        notes.append("threads: skipped, the CSV has %s" % (
            "one thread count, %d (run with --threads 1,all)" % counts[0] if counts
            else "no aligned store-only rows with working set = call size"))
        return
    keys = run.axes(CONFIG, rows)
    info = kernel_info(rows)
    if not classes.has_classes(run) and not (args.ws_cache and args.ws_dram):
        notes.append("threads: %s; the in-cache plot shows the smallest working set and the "
                     "DRAM one the largest (--ws-cache, --ws-dram choose)" % classes.NO_CLASSES)
    for key, grows in group_rows(run, rows, keys) if keys else [((), rows)]:
        cache, dram = pick_ws(run, grows, args)
        for where, ws in (("cache", cache), ("dram", dram)):
            wrows = [r for r in grows if ival(r, "ws_bytes") == ws[ival(r, "threads")]]
            if len({ival(r, "threads") for r in wrows}) < 2:
                notes.append("threads (%s): fewer than two thread counts at working set %s, plot "
                             "skipped" % (where, ws_words(ws)))
                continue
            tmax = max(ival(r, "threads") for r in wrows)
            top = [r for r in wrows if ival(r, "threads") == tmax]
            best = best_of_kinds(top, info, col("gbps_median"), lambda r: 0)
            series = [Series(best_title(kind, k, "at %d threads" % tmax), by_kernel(wrows, k),
                             col("threads"),
                             col("gbps_median"), ylo=col("gbps_min"), yhi=col("gbps_max"),
                             **kernel_style(k, info, True)) for kind, k in best]
            ts = sorted({ival(r, "threads") for r in wrows})
            R.render("threads.gp", "threads-%s%s" % (where, "-" + key_slug(key) if key else ""),
                     "%s\nthread scaling %s, working set per thread %s, store only, aligned%s" % (
                         header(run), "in cache" if where == "cache" else "in DRAM", ws_words(ws),
                         "; " + key_label(key) if key else ""),
                     series, xtics=", ".join("%d" % t for t in ts),
                     xmin=ts[0] - 0.5, xmax=ts[-1] + 0.5)


def rw(run, rows, R, notes, args):
    ratios = sorted({ival(r, "rw_ratio") for r in rows})
    if len(ratios) < 2:
        notes.append("rw: skipped, the CSV has a single rw ratio (%s)" % ratios[0])
        return
    if "read_gbps" not in run.columns or "write_gbps" not in run.columns:
        notes.append("rw: skipped, the CSV lacks read_gbps/write_gbps")
        return
    # The rw experiment: rows off store-only, grouped by everything that defines them; each group
    # gets the store-only rows of the same point (measured once, under the default rw mode).
    # When the sweep had no store-only row at the mixed rows' call size (ws = call turns into
    # chunk-sized calls once reads are mixed in), the ws = call row of that working set stands in,
    # and the title says so.
    point = [c for c in ("threads", "ws_bytes", "misalign_bytes", "placement", "membind", "pages",
                         "fill_byte") if c in run.columns]

    def where(r, exact=True):
        return tuple(r[c] for c in point) + ((r["ws_mode"], r["call_bytes"]) if exact else ())

    mixed = [r for r in rows if num(r["rw_ratio"]) != 100]
    store, stand_ins = {}, {}
    for r in rows:
        if num(r["rw_ratio"]) == 100:
            store.setdefault(where(r), []).append(r)
            if r["ws_mode"] == "call":
                stand_ins.setdefault(where(r, False), []).append(r)
    keys = [k for k in ["rw_mode", "threads", "ws_mode", "ws_bytes", "call_bytes"] if k in run.columns]
    keys += [k for k in run.axes(CONFIG + ("misalign_bytes", "rw_layout"), mixed) if k not in keys]
    info = kernel_info(rows)
    drew = False
    for key, mrows in group_rows(run, mixed, keys):
        if mrows[0].get("rw_mode") == "split" and ival(mrows[0], "threads") == 1:
            notes.append("rw (%s): skipped, split needs two threads (one reads, one writes)" %
                         key_label(key))
            continue
        srows = store.get(where(mrows[0]), [])
        stand_in = not srows and where(mrows[0], False) in stand_ins
        if stand_in:
            srows = stand_ins[where(mrows[0], False)]
        grows = mrows + srows
        per_kernel = {}
        for r in grows:
            per_kernel.setdefault(r["kernel"], set()).add(num(r["rw_ratio"]))
        ks = [k for k in info if len(per_kernel.get(k, ())) > 1]
        if not ks:
            continue
        if len(ks) > 6:
            best = best_of_kinds([r for r in grows if r["kernel"] in ks], info,
                                 lambda r: num(r.get("total_gbps") or r["gbps_median"]),
                                 col("rw_ratio"))
            ks = [k for _, k in best]
        series = []
        for i, k in enumerate(ks):
            colour = "#000000" if k == BASELINE else PALETTE[i % len(PALETTE)]
            for what, dash, ycol in (("total", 1, "total_gbps"), ("read", 2, "read_gbps"),
                                     ("write", 3, "write_gbps")):
                if ycol not in run.columns:
                    ycol = "gbps_median"
                series.append(Series("%s %s" % (k, what), by_kernel(grows, k), col("rw_ratio"),
                                     col(ycol), colour, dash=dash, point=7,
                                     width=2 if what == "total" else 1.5))
        drew |= R.render("rw.gp", "rw-%s" % key_slug(key),
                         "%s\nread and write GB/s vs rw ratio (100: store only%s)\n%s" % (
                             header(run), ", calls of the whole working set" if stand_in else "",
                             key_label(key)), series)
    if not drew:
        notes.append("rw: skipped, no kernel was measured at more than one rw ratio at one point")


def ticks(run, rows, R, notes, args):
    rows = [r for r in rows if r["ws_mode"] in ("hot", "cold") and num(r["rw_ratio"]) == 100 and
            not r.get("call_dist")]
    if not rows:
        notes.append("ticks: skipped, the CSV has no hot/cold working-set rows (run with --ws hot,cold)")
        return
    rows = [r for r in rows if num(r["ticks_per_call_median"]) is not None]
    if not rows:
        notes.append("ticks: skipped, the tick columns are empty (no invariant TSC on this machine)")
        return
    keys = ["threads", "misalign_bytes"] + run.axes(CONFIG, rows)
    info = kernel_info(rows)
    for key, grows in group_rows(run, rows, keys):
        sizes = sorted({ival(r, "call_bytes") for r in grows})
        if args.kernels:
            ks = [k for k in info if any(r["kernel"] == k for r in grows)][:8]
        else:
            best = best_of_kinds(grows, info, col("ticks_per_call_median"),
                                 lambda r: (r["ws_mode"], ival(r, "call_bytes")), lower_better=True)
            ks = [k for _, k in best]
        series = []
        for k in ks:
            for mode, dash in (("hot", 1), ("cold", 2)):
                mrows = [r for r in grows if r["kernel"] == k and r["ws_mode"] == mode]
                if mrows:
                    series.append(Series("%s %s" % (k, mode), mrows, col("call_bytes"),
                                         col("ticks_per_call_median"),
                                         **dict(kernel_style(k, info, True), dash=dash)))
        R.render("ticks.gp", "ticks-%s" % key_slug(key),
                 "%s\nTSC ticks per call vs call size, hot (solid) and cold (dashed) working set; %s" % (
                     header(run), key_label(key)),
                 series, xtics=binary_tics(sizes[0], sizes[-1]), **xpad(sizes))


def mixes(run, rows, R, notes, args):
    """ns per call of each kernel on each size distribution (the call_dist rows), a point per
    distribution and working set (hot filled, cold open), one plot per thread count."""
    rows = [r for r in rows if r.get("call_dist") and num(r["rw_ratio"]) == 100 and
            num(r.get("ns_per_call_median")) is not None]
    if not rows:
        notes.append("mixes: skipped, the CSV has no rows of a size distribution "
                     "(--call dist:NAME)")
        return
    keys = ["threads"] + run.axes(CONFIG + ("misalign_bytes",), rows)
    for key, grows in group_rows(run, rows, keys):
        ks = list(kernel_info(grows))
        ks = ([BASELINE] if BASELINE in ks else []) + [k for k in ks if k != BASELINE]
        at = {k: i for i, k in enumerate(ks)}
        series = []
        for i, (dist, mode) in enumerate(dict.fromkeys((r["call_dist"], r["ws_mode"])
                                                       for r in grows)):
            mine = [r for r in grows if (r["call_dist"], r["ws_mode"]) == (dist, mode)]
            series.append(Series("%s, %s" % (dist, mode), mine, lambda r: at[r["kernel"]],
                                 col("ns_per_call_median"), PALETTE[i % len(PALETTE)],
                                 point=7 if mode == "hot" else 6, width=2, style="points"))
        R.render("mixes.gp", "mixes-%s" % key_slug(key),
                 "%s\nns per call of each store strategy on each size distribution "
                 "(--call dist:), per working set; %s" % (header(run), key_label(key)),
                 series, xtics=", ".join('"%s" %d' % (k, i) for k, i in at.items()),
                 xmin=-0.5, xmax=len(ks) - 0.5)


def strategy_colour(kernel, i):
    """One hue per kernel (memset black), as in the rw plot: a handful of strategies side by side."""
    return "#000000" if kernel == BASELINE else PALETTE[i % len(PALETTE)]


def victim_groups(run, rows, chase, notes):
    """([(key, rows)], kernels in file order) of the victim rows (chase or not), grouped on all but
    the kernel, the call size and the delay; None after a note when there are none."""
    rows = [r for r in rows if has_victim(r) and (r["victim"] == "chase") == chase]
    if not rows:
        notes.append("latency: skipped, the CSV has no chase rows (--victim chase:SIZE)" if chase
                     else "victim: skipped, the CSV has no victim rows (--victim own:SIZE, ...)")
        return None
    keys = ["victim", "victim_bytes", "threads"] + run.axes(CONFIG + ("misalign_bytes",), rows)
    return group_rows(run, rows, keys), list(kernel_info(rows))


def victim(run, rows, R, notes, args):
    found = victim_groups(run, rows, False, notes)
    if not found:
        return
    groups, ks = found
    for key, grows in groups:
        sizes = sorted({ival(r, "ws_bytes") for r in grows})
        present = [k for k in ks if by_kernel(grows, k)]
        series = []
        for i, k in enumerate(present):
            # the kernels side by side around each size (a few % apart on the log axis), so
            # their interval bars do not hide each other
            dodge = 2 ** (0.06 * (i - (len(present) - 1) / 2))
            series.append(Series(k, by_kernel(grows, k), lambda r, d=dodge: ival(r, "ws_bytes") * d,
                                 col("victim_slowdown"), strategy_colour(k, ks.index(k)),
                                 ylo=col("victim_slowdown_ci_low"),
                                 yhi=col("victim_slowdown_ci_high"), width=2))
        tics = ", ".join('"%s" %d' % (fmt_bytes(s), s) for s in sizes) if len(sizes) < 4 \
            else binary_tics(sizes[0], sizes[-1])
        R.render("victim.gp", "victim-%s" % key_slug(key),
                 "%s\nwhat the writes cost a victim working set: its re-read after one pass of "
                 "the writers over without (bars: 95 %% intervals), per store strategy\n%s, "
                 "victim on CPU %s" % (
                     header(run), key_label(key), grows[0].get("victim_cpu", "?")),
                 series, intervals=True, xtics=tics, **xpad(sizes))


def latency_curve(rows):
    """One strategy's chase rows as MLC's loaded-latency curve: the chase alone at 0 GB/s (the
    undelayed row's idle figure), then one point per --victim-delay; [] for no rows."""
    rows = sorted(rows, key=lambda r: ival(r, "victim_delay_ns") or 0)
    if not rows:
        return []
    return [dict(rows[0], chase_write_gbps="0", chase_ns_median=rows[0].get("chase_ns_idle"))] + rows


def latency(run, rows, R, notes, args):
    found = victim_groups(run, rows, True, notes)
    if not found:
        return
    groups, ks = found
    for key, grows in groups:
        series = []
        for i, k in enumerate(ks):
            krows = latency_curve(by_kernel(grows, k))
            if not krows:
                continue
            series.append(Series("%s, %s" % (k, fmt_bytes(ival(krows[-1], "ws_bytes"))),
                                 krows, col("chase_write_gbps"), col("chase_ns_median"),
                                 strategy_colour(k, i), width=2))
        R.render("latency.gp", "latency-%s" % key_slug(key),
                 "%s\nloaded latency: a pointer chase's ns per dependent load, alone and beside "
                 "the writers (each --victim-delay a point), per store strategy\n%s, chase on "
                 "CPU %s" % (
                     header(run), key_label(key), grows[0].get("victim_cpu", "?")), series)


def overlay(runs, labels, R, notes, args):
    """Several CSVs (one per CPU) in one plot per kind; labels name the runs in the legend and
    their cache marks (one thread's shares); GB/s points carry their rows' 95 % intervals as bars.
    Returns None, or why a run has no rows for it (the caller reports bad input)."""
    what = {"none": ("GB/s (1e9 B/s), all threads", "gbps_median",
                     col("gbps_median")),
            "tsc": ("bytes per TSC tick, all threads", "ticks_per_call_median",
                    lambda r: _per(r, "ticks_per_call_median")),
            "cycles": ("bytes per core cycle, all threads", "cycles_per_call_median",
                       lambda r: _per(r, "cycles_per_call_median"))}
    ylabel, ycol, yfn = what[args.normalise]
    # GB/s carry each run's 95 % interval over its rounds as bars; the per-tick and per-cycle
    # rates have none
    ci = dict(ylo=col("gbps_ci_low"), yhi=col("gbps_ci_high")) if args.normalise == "none" \
        else {}
    per_run = []
    for run in runs:
        rows = [r for r in curve(run.rows) if num(r.get(ycol)) is not None]
        if not rows:
            why = run.meta.get("cycles", "") if args.normalise == "cycles" else ""
            return "%s: no aligned store-only ws=call rows with %s for the overlay%s" % (
                run.path, ycol, " (%s)" % why if why else "")
        counts = sorted({ival(r, "threads") for r in rows})
        per_run.append((run, rows, sorted({counts[0], counts[-1]})))
    sizes = sorted({ival(r, "ws_bytes") for _, rows, _ in per_run for r in rows})
    kinds = [k for k in KINDS if any(r["kind"] == k for _, rows, _ in per_run for r in rows)]
    dates = sorted({run.date() for run in runs if run.date()})
    # each CPU's own cache sizes, one thread's share (its fewest threads'): a mark every input
    # shares once, another named by the letters of the inputs it is theirs (A, B ... as the
    # title lines name them: a label is too long for the top axis)
    owners = {}
    for i, (run, rows, counts) in enumerate(per_run):
        for mark in cache_markers(run, [r for r in rows if ival(r, "threads") == counts[0]],
                                  sizes[0], sizes[-1]):
            owners.setdefault(mark, []).append(LETTERS[i])
    marks = [(x, text if len(who) == len(per_run) else "%s: %s" % (", ".join(who), text))
             for (x, text), who in sorted(owners.items())]
    for kind in kinds:
        series = []
        for i, (run, rows, counts) in enumerate(per_run):
            krows = [r for r in rows if r["kind"] == kind]
            if not krows:
                notes.append("overlay %s: %s has no %s kernel (absent, not zero)" % (
                    kind, labels[i], KIND_NAME.get(kind, kind)))
                continue
            for j, t in enumerate(counts):
                trows = [r for r in krows if ival(r, "threads") == t]
                scores = best_by(trows, yfn, points=col("ws_bytes"))
                if not scores:
                    continue
                k = max(scores, key=scores.get)
                series.append(Series("%s, %dT: %s" % (labels[i], t, k), by_kernel(trows, k),
                                     col("ws_bytes"), yfn, PALETTE[i % len(PALETTE)], dash=1 + j,
                                     point=7, width=2, **ci))
        R.render("bandwidth.gp", "overlay-%s%s" % (kind, "" if args.normalise == "none"
                                                    else "-per-" + args.normalise),
                 "per-CPU overlay, best %s kernel per CPU and thread count (dash: thread count)\n%s" % (
                     KIND_NAME.get(kind, kind), "\n".join(
                         "%s = %s, storebench %s" % (LETTERS[i], header(run, lab),
                                                     run.meta.get("storebench_version", "unknown"))
                         for i, ((run, _, _), lab) in enumerate(zip(per_run, labels)))),
                 series, marks, intervals=bool(ci),
                 xtics=binary_tics(sizes[0], sizes[-1]),
                 ylabel=ylabel + (", bars: 95 % interval over each run's rounds" if ci else ""),
                 **xpad(sizes))
    if dates:
        notes.append("overlay: runs dated %s" % ", ".join(dates))
    return None


def overlay_victims(runs, labels, R, notes):
    """The victims and chases of several CSVs (one per CPU): per victim, as storebench.victims names
    it on each machine, every strategy's slowdown with its interval, one colour per CPU; per chase,
    each CPU's loaded-latency curve per strategy (colour: CPU, marker: strategy)."""
    groups, names = {}, []
    for i, run in enumerate(runs):
        for r in run.rows:
            if has_victim(r):
                k = victims.key(run, r)
                # a chase's delays are the points of one curve
                groups.setdefault(k[:4] + (0,) + k[5:] if k[0] else k, []).append((i, r))
                names += [r["kernel"]] if r["kernel"] not in names else []
    if not groups:
        notes.append("overlay: no CSV has rows with a victim or chase (--victim)")
        return
    for k in sorted(groups):
        member = groups[k]
        slug = "overlay-%s-%s-t%d-%s" % (k[1], k[2].replace("/", "_").replace(" ", ""), k[3],
                                         k[5].replace(" ", "_"))
        head = "per-CPU overlay of %s\n%s" % (victims.label(k), "\n".join(
            header(run, lab) for run, lab in zip(runs, labels)))
        series = []
        if not k[0]:
            present = [n for n in names if any(r["kernel"] == n for _, r in member)]
            for i, lab in enumerate(labels):
                rows = [r for j, r in member if j == i]
                dodge = 0.12 * (i - (len(labels) - 1) / 2)
                series.append(Series(lab, rows, lambda r, d=dodge: present.index(r["kernel"]) + d,
                                     col("victim_slowdown"), PALETTE[i % len(PALETTE)],
                                     ylo=col("victim_slowdown_ci_low"),
                                     yhi=col("victim_slowdown_ci_high"), style="points", width=2))
            R.render("victim-cpus.gp", slug, head, series, intervals=True, xmin=-0.5,
                     xmax=len(present) - 0.5,
                     xtics=", ".join('"%s" %d' % (n, x) for x, n in enumerate(present)))
            continue
        for i, lab in enumerate(labels):
            for j, n in enumerate(names):
                krows = latency_curve([r for m, r in member if m == i and r["kernel"] == n])
                if not krows:
                    continue
                series.append(Series("%s: %s" % (lab, n), krows, col("chase_write_gbps"),
                                     col("chase_ns_median"), PALETTE[i % len(PALETTE)],
                                     point=(5, 7, 9, 11, 13, 4, 6, 8)[j % 8], width=2))
        R.render("latency.gp", slug, head, series)


# The columns of a `storebench load` time series (results/README.md, Load time series).
LOAD_COLUMNS = ("t_s", "read_gbps", "write_gbps", "total_gbps", "thread_min_gbps", "complete")


def load_series(run, R, notes):
    """A `storebench load` CSV: read, write and total GB/s per interval against time, and the
    slowest thread's (dashed); the last interval cut short by the stop is left out."""
    rows = [r for r in run.rows if r.get("complete") == "1"]
    if len(rows) < len(run.rows):
        notes.append("load: %d interval(s) cut short by the stop left out" % (
            len(run.rows) - len(rows)))
    m = run.meta
    # at rw 50 read and write are the same bytes: the read line is dotted with other marks, so
    # the write line shows through it
    series = [Series(title, rows, col("t_s"), col(c), colour, dash=dash, point=point, width=2)
              for title, c, colour, dash, point in (
                  ("write", "write_gbps", KIND_RGB["nt"], 1, 7),
                  ("read", "read_gbps", KIND_RGB["t"], 3, 5),
                  ("total", "total_gbps", "#000000", 1, 7),
                  ("slowest thread (read + write)", "thread_min_gbps", "#808080", 2, 9))]
    cap = num(m.get("load_write_rate_gbps"))
    R.render("load.gp", "load", "%s\nstorebench load: %s threads of %s, rw %s, %s each in %s "
             "chunks, %s pages%s; summary: write GB/s mean %s, read %s" % (
                 header(run), m.get("load_threads", "?"), m.get("load_kernel", "?"),
                 m.get("load_rw_ratio", "?"), fmt_bytes(ival(m, "load_mem_bytes") or 0),
                 fmt_bytes(ival(m, "load_chunk_bytes") or 0), m.get("load_pages", "?"),
                 ", write cap %g GB/s" % cap if cap else "",
                 m.get("summary_write_gbps_mean", "?"), m.get("summary_read_gbps_mean", "?")),
             series)


def _per(row, denom):
    """Bytes per tick (or cycle) over all threads: call bytes x threads / ticks per call."""
    d = num(row.get(denom))
    b = num(row.get("call_bytes"))
    t = num(row.get("threads")) or 1
    return b * t / d if d and b is not None else None


# the plots of one CSV, in the order they run and --only names them
PLOTS = {"bandwidth": bandwidth, "threads": threads, "rw": rw, "ticks": ticks, "victim": victim,
         "latency": latency, "mixes": mixes}
# The plots of rows with a victim beside the writers; the others read the rows without one.
VICTIM_PLOTS = ("victim", "latency")
