#!/usr/bin/env python3
# plots_tables_test.py — CTest driver for scripts/plot and scripts/table (render, golden, bad input).
# Python 3 standard library; runs the built storebench for a tiny real sweep, never a made-up CSV.
# Asserts what a user sees: gnuplot silent, PNG/SVG valid, tables byte-identical, errors one line + 2.
"""Usage: plots_tables_test.py SRCDIR STOREBENCH PART [--update]
PART: render (a tiny real sweep plotted), golden (tables of a committed run against the golden
files; --update rewrites them), badinput, shared, shares, steps, answer, outdir_faults, victim,
victim_cpus (two real victim runs through compare-cpus: rows paired by cache word, overlays),
march (the cc_ rows of a tiny real run in table --section march), dpdk_const (memset_const's
rows and the dpdk section's C rows from a tiny real run), load (a tiny storebench load plotted),
libc (memset and glibc's variants of a tiny real run in table --section libc), overlay
(compare-cpus' overlay of two paired runs, recorded: interval bars and each input's cache
marks), mixes (a tiny real run of two size distributions: table --section mixes and the
mixes plot).
Exit 0 pass, 1 fail, 77 skip (no gnuplot)."""

import os
import re
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
from csv import DictReader

SKIP = 77
# a storebench from before the point, quality and ws_class columns, and one of today: the same
# sweep on the same kind of guest (Turin, 48 KiB L1d, 1 MiB L2, 32 MiB L3)
FIXTURE = "tests/fixtures/zen5-2cpu-sweep.csv"
LEVELS = "tests/fixtures/zen5-2cpu-levels.csv"
# a real paired run (6 kernels, 8 KiB..128 MiB, 1 thread, the quick preset's rounds and budget)
PAIRED = "results/turin-vm/20261203T171333Z.csv"
# the 6-kernel sweep of README's answer section, with winner sets (2026-12-06)
WINNER_SETS = "results/turin-vm/20261206T034940Z.csv"
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def fail(msg):
    sys.stderr.write("FAIL: %s\n" % msg)
    sys.exit(1)


def needs_gnuplot(part):
    """A part that renders: skipped (exit 77) where gnuplot is not installed."""
    def checked(*args):
        if shutil.which("gnuplot") is None:
            print("SKIP: gnuplot not installed")
            return SKIP
        return part(*args)
    return checked


def run(cmd, **kw):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kw)


def check_png(path):
    with open(path, "rb") as f:
        data = f.read()
    if not data.startswith(PNG_MAGIC):
        fail("%s: not a PNG (magic bytes)" % path)
    if b"IEND" not in data[-16:]:
        fail("%s: PNG truncated (no IEND chunk)" % path)
    if len(data) < 8000:
        fail("%s: only %d bytes, too small for a plot with curves" % (path, len(data)))


def check_svg(path):
    try:
        root = ET.parse(path).getroot()
    except ET.ParseError as e:
        fail("%s: SVG does not parse as XML: %s" % (path, e))
    if not root.tag.endswith("svg"):
        fail("%s: root element is %s, not svg" % (path, root.tag))
    paths = sum(1 for el in root.iter() if el.tag.endswith("path"))
    if os.path.getsize(path) < 8000 or paths < 10:
        fail("%s: %d bytes, %d paths: too little for a plot with curves" % (
            path, os.path.getsize(path), paths))


@needs_gnuplot
def render(storebench, src):
    tmp = tempfile.mkdtemp(prefix="sb-plots-")
    try:
        csv = os.path.join(tmp, "sweep.csv")
        # a few kernels, few sizes, 2 thread counts, 2 rw ratios in both modes, then hot+cold:
        # every plot type has rows.  No drift canary: no plot draws it, and its first touch of
        # 1.3 GiB (a guest reporting a 508 MiB L3) took 4.5 s a run
        sweep = [storebench, "run", "--kernels", "memset,sse2_t_u4,sse2_nt_u4,rep_stosb",
                 "--call", "4KiB,64KiB,4MiB", "--threads", "1,2", "--rw", "100,50",
                 "--rw-mode", "interleave,split", "--min-time", "0.002", "--repetitions", "2",
                 "--canary", "off", "--csv", csv]
        r = run(sweep)
        if r.returncode != 0:
            fail("sweep failed (%d): %s" % (r.returncode, r.stderr.strip().splitlines()[-1:]))
        ticks = [storebench, "run", "--kernels", "memset,sse2_nt_u4", "--call", "64,1KiB",
                 "--ws", "hot,cold", "--threads", "1", "--misalign", "0,1", "--min-time", "0.002",
                 "--repetitions", "2", "--canary", "off", "--csv", os.path.join(tmp, "ticks.csv")]
        r = run(ticks)
        if r.returncode != 0:
            fail("hot/cold sweep failed (%d): %s" % (r.returncode, r.stderr.strip().splitlines()[-1:]))
        expect = {"bandwidth-t1-rw100-best", "bandwidth-t2-rw100-best", "bandwidth-t1-rw100-nt",
                  "threads-cache", "threads-dram", "rw-interleave-t2-seq-ws4MiB-call4KiB",
                  "rw-split-t2-seq-ws4MiB-call4KiB"}
        for n, (args, names) in enumerate((([csv], expect),
                            ([os.path.join(tmp, "ticks.csv")], {"ticks-t1-mis0", "ticks-t1-mis1"}),
                            (["--overlay", "--normalise", "tsc", csv, os.path.join(src, FIXTURE)],
                             {"overlay-nt-per-tsc", "overlay-libc-per-tsc"}))):
            out = os.path.join(tmp, "plots%d" % n)  # one folder per CSV: plot refuses to share one
            r = run([os.path.join(src, "scripts/plot"), "-o", out] + args)
            if r.returncode != 0 or r.stderr:
                fail("scripts/plot %s: exit %d, stderr: %s" % (" ".join(args), r.returncode, r.stderr))
            files = [l for l in r.stdout.splitlines() if not l.startswith("note: ")]
            made = {os.path.splitext(os.path.basename(f))[0] for f in files}
            if not names <= made:
                fail("missing plots %s (made %s)" % (sorted(names - made), sorted(made)))
            for f in files:
                (check_png if f.endswith(".png") else check_svg)(f)
            print("ok: %d files from scripts/plot %s" % (len(files), " ".join(
                os.path.basename(a) for a in args)))
        return 0
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def golden(src, update):
    for fixture, fmt in [(os.path.join(src, f), fmt) for f in (FIXTURE, LEVELS)
                         for fmt in ("text", "md")]:
        r = run([os.path.join(src, "scripts/table"), "--format", fmt, fixture], cwd=os.path.dirname(fixture))
        if r.returncode != 0 or r.stderr:
            fail("scripts/table --format %s: exit %d: %s" % (fmt, r.returncode, r.stderr))
        gold = fixture[:-4] + ".table." + fmt
        if update:
            with open(gold, "w") as f:
                f.write(r.stdout)
            continue
        with open(gold) as f:
            want = f.read()
        if r.stdout != want:
            got, exp = r.stdout.splitlines(), want.splitlines()
            first = next((i for i, (a, b) in enumerate(zip(got, exp)) if a != b), min(len(got), len(exp)))
            fail("%s differs at line %d:\n  got:  %s\n  want: %s" % (
                gold, first + 1, got[first] if first < len(got) else "<end>",
                exp[first] if first < len(exp) else "<end>"))
        print("ok: table --format %s matches %s" % (fmt, os.path.basename(gold)))
    return 0


def badinput(src):
    fixture = os.path.join(src, FIXTURE)
    tmp = tempfile.mkdtemp(prefix="sb-bad-")
    try:
        with open(fixture) as f:
            text = f.read()
        empty = os.path.join(tmp, "empty.csv")
        open(empty, "w").close()
        nocol = os.path.join(tmp, "nocol.csv")
        with open(nocol, "w") as f:
            f.write(text.replace("ticks_per_call_median", "ticks_median"))
        headonly = os.path.join(tmp, "head.csv")
        with open(headonly, "w") as f:
            f.write("".join(l for l in text.splitlines(True)[:200] if l.startswith("#")))
            f.write(next(l for l in text.splitlines(True) if not l.startswith("#")))
        # a short row is named by its line in the file, '#' lines counted (issue 21.17)
        lines = text.splitlines(True)
        bad_at = [i for i, l in enumerate(lines) if not l.startswith("#")][5]
        short = os.path.join(tmp, "short.csv")
        with open(short, "w") as f:
            f.write("".join(lines[:bad_at] + ["memset,1,2\n"] + lines[bad_at + 1:]))
        # an implausible GB/s: one rule and one message for every reader (issue 21.15: table
        # printed -5.00, compare-cpus a dash, plot gnuplot's error)
        head_at = [i for i, l in enumerate(lines) if not l.startswith("#")][0]
        col = lines[head_at].rstrip("\n").split(",").index("gbps_median")
        odd_gbps = []
        for v in ("-5", "0", "1e308", "nan"):
            f_ = lines[head_at + 1].rstrip("\n").split(",")
            f_[col] = v
            path = os.path.join(tmp, "gbps%s.csv" % v)
            with open(path, "w") as f:
                f.write("".join(lines[:head_at + 1] + [",".join(f_) + "\n"] +
                                lines[head_at + 2:]))
            odd_gbps.append((path, "gbps_median '%s' is no bandwidth" % v))
        fifo = os.path.join(tmp, "fifo.csv")
        os.mkfifo(fifo)
        # /dev/zero grew the reader until MemoryError, a FIFO without a writer blocked it
        # forever, a directory was a traceback (issue 21.7)
        cases = [(os.path.join(tmp, "absent.csv"), "no such file"), (empty, "empty"),
                 (nocol, "ticks_per_call_median"), (headonly, "no data rows"),
                 ("/dev/zero", "not a regular file"), (fifo, "not a regular file"),
                 (tmp, "is a directory"), (short, "line %d has 3 fields" % (bad_at + 1))] + \
            odd_gbps
        tried = 0
        for tool in ("table", "plot", "compare-cpus"):
            # compare-cpus reads no ticks column
            for path, word in (c for c in cases if tool != "compare-cpus" or c[0] != nocol):
                tried += 1
                r = run([os.path.join(src, "scripts", tool), path] +
                        (["-o", os.path.join(tmp, "out")] if tool == "plot" else []) +
                        ([fixture] if tool == "compare-cpus" else []), timeout=30)
                lines = r.stderr.splitlines()
                if r.returncode != 2 or len(lines) != 1 or word not in lines[0] or r.stdout:
                    fail("%s %s: want exit 2 and one stderr line naming '%s', got exit %d, "
                         "stderr %r, stdout %r" % (tool, os.path.basename(path), word, r.returncode,
                                                    r.stderr, r.stdout[:200]))
            r = run([os.path.join(src, "scripts", tool), "--no-such-option", fixture])
            if r.returncode != 2 or len(r.stderr.splitlines()) != 1:
                fail("%s --no-such-option: exit %d, stderr %r" % (tool, r.returncode, r.stderr))
        # compare-cpus -o follows plot's folder rules (issue 21.12): the old one wrote through
        # a symlink at compare-cpus.md into the file it named
        victim = os.path.join(tmp, "victim")
        with open(victim, "w") as f:
            f.write("precious\n")
        trap = os.path.join(tmp, "trap")
        os.mkdir(trap)
        os.symlink(victim, os.path.join(trap, "compare-cpus.md"))
        pair = [fixture, os.path.join(src, PAIRED)]
        r = run([os.path.join(src, "scripts", "compare-cpus"), "-o", trap] + pair)
        with open(victim) as f:
            kept = f.read() == "precious\n"
        if r.returncode != 2 or len(r.stderr.splitlines()) != 1 or not kept:
            fail("compare-cpus -o over a symlink: exit %d, stderr %r, the file it names %s"
                 % (r.returncode, r.stderr, "kept" if kept else "overwritten"))
        fresh = os.path.join(tmp, "cmp")
        for n in (1, 2):
            r = run([os.path.join(src, "scripts", "compare-cpus"), "-o", fresh] + pair)
            if r.returncode != 0 or not os.path.isfile(os.path.join(fresh, "compare-cpus.md")):
                fail("compare-cpus -o a folder of its own, run %d: exit %d, %r"
                     % (n, r.returncode, r.stderr))
        if os.path.exists(os.path.join(tmp, "out")) and os.listdir(os.path.join(tmp, "out")):
            fail("plot left files behind after bad input: %s" % os.listdir(os.path.join(tmp, "out")))
        print("ok: %d bad inputs, each one stderr line and exit 2" % (tried + 3))
        return 0
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def with_columns(fixture, path, names, values, meta=()):
    """Write the fixture to path with columns names appended, values(row dict) giving each row's
    fields (the columns a newer storebench writes), and the metadata lines meta first; the rows,
    as dicts, are returned."""
    with open(fixture) as f:
        lines = list(meta) + f.read().splitlines()
    head = next(i for i, l in enumerate(lines) if not l.startswith("#"))
    cols = lines[head].split(",")
    rows = [dict(zip(cols, l.split(","))) for l in lines[head + 1:]]
    out = list(lines)
    out[head] += "".join("," + n for n in names)
    for i, r in enumerate(rows):
        out[head + 1 + i] += "".join("," + v for v in values(r))
    with open(path, "w") as f:
        f.write("\n".join(out) + "\n")
    return rows


def levels_of(src):
    """(metadata lines, {row identity: ws_class}) of today's run of the fixture's sweep: the
    classes the old fixture's rows have on the same machine."""
    sys.path.insert(0, os.path.join(src, "scripts"))
    from storebench import reader
    run_ = reader.load(os.path.join(src, LEVELS))
    meta = ["# %s=%s" % (k, run_.meta[k]) for k in ("level_names", "level_rule")]
    return meta, {identity(r): r["ws_class"] for r in run_.rows}


def identity(r):
    return tuple(r[c] for c in ("kernel", "call_bytes", "ws_mode", "threads", "misalign_bytes"))


def shared(src):
    """A point flagged as run on a shared CPU is starred in the table and nothing else is: the
    fixture (from before the quality column) gets a cpu_share_min column (0.5 on one row, 1.0
    elsewhere) and its rows' classes in a temporary copy."""
    fixture = os.path.join(src, FIXTURE)
    meta, cls = levels_of(src)
    tmp = tempfile.mkdtemp(prefix="sb-shared-")
    try:
        def probe(r):
            return (r["kernel"], r["call_bytes"], r["ws_mode"], r["threads"],
                    r["misalign_bytes"]) == ("memset", "262144", "call", "1", "0")
        path = os.path.join(tmp, "shared.csv")
        flagged = with_columns(fixture, path, ["cpu_share_min", "ws_class"],
                               lambda r: ["0.5" if probe(r) else "1.0", cls[identity(r)]], meta)
        if sum(map(probe, flagged)) != 1:
            fail("fixture has %d rows for the shared-CPU probe, want 1" % sum(map(probe, flagged)))
        r = run([os.path.join(src, "scripts/table"), "--section", "checksum", path])
        if r.returncode != 0:
            fail("table on the shared-CPU copy: exit %d: %s" % (r.returncode, r.stderr))
        starred = [l for l in r.stdout.splitlines() if "*" in l and not l.startswith(("*", "**"))]
        if len(starred) != 1 or not starred[0].startswith("memset") or starred[0].count("*") != 1:
            fail("want exactly the memset row starred once, got %r" % starred)
        if "cpu_share_min" not in r.stdout:
            fail("no note explaining the star:\n" + r.stdout)
        print("ok: the one shared-CPU point is starred, with its note")
        return 0
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def svg_text(path):
    return " ".join("".join(el.itertext()) for el in ET.parse(path).getroot().iter()
                    if el.tag.endswith("text"))


@needs_gnuplot
def shares(src):
    """Cache lines sit at one thread's share: the fixture (2 threads in one 32 MiB L3, private
    L2) gets the l2_threads/l3_threads columns a current run writes; the 2-thread bandwidth plot
    must mark L3/2 at 16 MiB and the 1-thread plot L3 at 32 MiB, and L2 at 1 MiB in both."""
    fixture = os.path.join(src, FIXTURE)
    tmp = tempfile.mkdtemp(prefix="sb-shares-")
    try:
        path = os.path.join(tmp, "shares.csv")
        with_columns(fixture, path, ["l2_threads", "l3_threads"], lambda r: ["1", r["threads"]])
        plots = os.path.join(tmp, "plots")
        r = run([os.path.join(src, "scripts/plot"), "-o", plots, path])
        if r.returncode != 0:
            fail("scripts/plot on the shares copy: exit %d: %s" % (r.returncode, r.stderr))
        for threads, want, unwanted in ((1, "L3 32 MiB", "L3/"), (2, "L3/2 16 MiB", "L3 32 MiB")):
            text = svg_text(os.path.join(plots, "bandwidth-t%d-rw100-mis0-best.svg" % threads))
            if want not in text or unwanted in text or "L2 1 MiB" not in text:
                fail("%d-thread plot: want %r and 'L2 1 MiB', not %r; its labels: %s" % (
                    threads, want, unwanted, text[:300]))
        print("ok: cache lines at the per-thread share (L3/2 at 2 threads, L3 at 1)")
        return 0
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def steps(src, exe):
    """table --section steps on a dense sweep run here: plateaus are the rows' classes (the
    first only from a quarter of the L1d share), a point lifted 3x inside a plateau makes both
    its steps count, a flag on it marks both pairs, and the table prints what the module
    counts."""
    sys.path.insert(0, os.path.join(src, "scripts"))
    from storebench import classes, reader, rows
    from storebench import steps as st
    tmp = tempfile.mkdtemp(prefix="sb-steps-")
    fixture = os.path.join(tmp, "dense.csv")
    r = run([exe, "run", "--kernels", "memset,avx2_t_u4", "--call", "L1d/8..L2:x1.19",
             "--threads", "1", "--repetitions", "2", "--min-time", "0.001", "--csv", fixture])
    if r.returncode != 0:
        fail("steps: the dense sweep: exit %d: %s" % (r.returncode, r.stderr[-300:]))
    sweep = reader.load(fixture)
    first = classes.names(sweep)[0]
    for row in rows.curve(sweep.rows):
        l1 = classes.shares(sweep, row)[0]
        cls = row["ws_class"] or None
        want = None if cls == first and rows.ival(row, "ws_bytes") * 4 < l1 else cls
        if st.plateau(sweep, row) != want:
            fail("steps: %s at %s B of class %s is in plateau %s, want %s" % (
                row["kernel"], row["ws_bytes"], cls, st.plateau(sweep, row), want))
    found = st.steps(sweep)
    before = st.summary(found, 0.10)["all"]
    mids = [(a, b) for a, b in zip(found, found[1:])
            if (a.kernel, a.threads, a.ws_b) == (b.kernel, b.threads, b.ws_a)]
    if not mids:
        fail("steps: the fixture has no point with a plateau neighbour on each side")
    a, b = mids[0]
    lifted = [dict(r) for r in sweep.rows]
    for r in lifted:
        if (r["kernel"], rows.ival(r, "threads"), rows.ival(r, "ws_bytes")) == (a.kernel, a.threads, a.ws_b):
            r["gbps_median"] = str(3 * rows.num(r["gbps_median"]))
            r["quality"] = "cv"
    run2 = reader.Run(sweep.path, sweep.meta, sweep.columns, lifted)
    after = st.summary(st.steps(run2), 0.10)["all"]
    newly = (a.step <= 0.10) + (b.step <= 0.10)
    if after[1] - before[1] != newly:
        fail("steps: lifting %s at %d B 3x added %d steps over 10%%, want %d" % (
            a.kernel, a.ws_b, after[1] - before[1], newly))
    was_flagged = a.flagged + b.flagged
    if after[3] - before[3] != 2 - was_flagged:
        fail("steps: a flag on the lifted point marked %d more pairs, want %d" % (
            after[3] - before[3], 2 - was_flagged))
    r = run([os.path.join(src, "scripts/table"), "--section", "steps", fixture])
    line = [l.split() for l in r.stdout.splitlines() if l.startswith("all ")]
    want = [str(before[0]), str(before[1]), "%.1f%%" % (100.0 * before[1] / before[0]),
            "%.1f%%" % (100 * before[2]), str(before[3])]
    if r.returncode != 0 or not line or line[0][1:] != want:
        fail("steps: table's 'all' row %s, want %s (exit %d: %s)" % (
            line, want, r.returncode, r.stderr.strip()))
    r = run([os.path.join(src, "scripts/table"), "--section", "steps", "--step-limit", "0", fixture])
    if r.returncode != 2 or "--step-limit" not in r.stderr:
        fail("steps: --step-limit 0 exits %d: %s" % (r.returncode, r.stderr.strip()))
    print("ok: steps: %d pairs, %d over 10%%; a 3x point adds %d" % (before[0], before[1], newly))
    shutil.rmtree(tmp, ignore_errors=True)
    return 0


def cells(lines):
    """A text table's rows as cells: columns stand two or more spaces apart."""
    return [re.split(r"\s{2,}", ln.strip()) for ln in lines]


class Recorder:
    """A storebench.plots renderer that keeps what each plot would draw instead of drawing it."""

    def __init__(self):
        self.plots = []

    def render(self, script, name, title, series, markers=(), intervals=False, **vars_):
        self.plots.append((name, series, list(markers), intervals))
        return True


def overlay(src):
    """The per-CPU overlay (issue 42.5) of two paired runs, recorded: every GB/s point carries
    its row's 95 % interval as its bar, a cache mark both inputs share is drawn once and one of
    an input alone under its label, and the per-tick overlay, which has no interval, draws no
    bars."""
    sys.path.insert(0, os.path.join(src, "scripts"))
    from storebench import plots, reader
    first, second = (os.path.join(src, "results", "turin-vm", "20261206T%sZ.csv" % s)
                     for s in ("113627", "113748"))
    # the second as a CPU whose L3 share measured twice as large: its own L3 mark
    tmp = tempfile.mkdtemp(prefix="sb-overlay-")
    other = os.path.join(tmp, "other.csv")
    with open(second) as f, open(other, "w") as g:
        g.write(re.sub(r"^(# levels_t1_(?:used|measured)=L1d:\d+,L2:\d+,L3:)9915392", r"\g<1>19830784",
                       f.read(), flags=re.M))
    runs = [reader.load(first), reader.load(other)]
    shutil.rmtree(tmp)
    for normalise in ("none", "tsc"):
        rec, notes = Recorder(), []
        bad = plots.overlay(runs, ["A", "B"], rec, notes,
                            type("Args", (), {"normalise": normalise})())
        if bad or not rec.plots:
            fail("overlay %s: nothing drawn (%s)" % (normalise, bad))
        for name, series, marks, intervals in rec.plots:
            points = [(p, r) for s in series for r in s.rows for p in [s.point_of(r)] if p]
            if normalise == "none":
                ok = intervals and points and all(
                    p[2] == float(r["gbps_ci_low"]) and p[3] == float(r["gbps_ci_high"])
                    for p, r in points)
            else:
                ok = not intervals and all(p[2] is None for p, _ in points)
            if not ok:
                fail("overlay %s (%s): intervals %s, points %s" % (
                    name, normalise, intervals, [p for p, _ in points[:2]]))
            # the two share L1d and L2; their measured L3 shares differ
            shared = [m for m in marks if ":" not in m[1]]
            named = {m[1].split(":")[0] for m in marks if ":" in m[1]}
            if not any(m[1].startswith("L2") for m in shared) or named != {"A", "B"}:
                fail("overlay %s: cache marks %s, want the shared ones once and each input's "
                     "own under its label" % (name, marks))
    # bars go on each series whose every point has an interval, not on none because one lacks
    # them (a run of one round beside one of many)
    defs, stage = [], tempfile.mkdtemp(prefix="sb-bars-")

    def fake_gnuplot(scripts, d, folder):
        defs.extend(d)
        open(os.path.join(folder, "out.png"), "w").close()
    real, plots.gnuplot.run = plots.gnuplot.run, fake_gnuplot
    try:
        rows = [{"x": "1", "y": "2", "lo": "1.5", "hi": "2.5"}, {"x": "2", "y": "3", "lo": "",
                                                               "hi": ""}]
        with_ci = plots.Series("a", rows[:1], plots.col("x"), plots.col("y"), "#000000",
                               plots.col("lo"), plots.col("hi"))
        without = plots.Series("b", rows, plots.col("x"), plots.col("y"), "#ff0000",
                               plots.col("lo"), plots.col("hi"))
        plots.Renderer(stage, ["png"], False).render("bandwidth.gp", "bars", "t",
                                                     [with_ci, without], intervals=True)
    finally:
        plots.gnuplot.run = real
        shutil.rmtree(stage)
    if not {"errbars=1", "e1=1", "e2=0"} <= set(defs):
        fail("bars: a series with intervals beside one without: %s" % [
            d for d in defs if d.startswith(("errbars", "e1", "e2"))])
    print("overlay: intervals on every GB/s point, none per tick; shared and own cache marks; "
          "bars per series")
    return 0


def answer(src):
    """The answer section is the run's winners metadata, row for row; the winners table's '~'
    is storebench's verdict: absent only where best beat the runner-up (or memset) decided at
    every working set of the class, present everywhere in a one-round run."""
    sys.path.insert(0, os.path.join(src, "scripts"))
    from storebench import classes, reader
    paired = os.path.join(src, PAIRED)
    r = run([os.path.join(src, "scripts/table"), "--section", "winners,answer", paired])
    if r.returncode != 0:
        fail("answer: table exit %d: %s" % (r.returncode, r.stderr.strip()))
    data = reader.load(paired)
    lines = r.stdout.splitlines()
    for entry in data.meta["winners"].split(","):
        group, leader, verdict = entry.split()[:3]
        if not any(ln.split()[:3] == [group, leader, verdict] for ln in lines):
            fail("answer: no row '%s %s %s' in\n%s" % (group, leader, verdict, r.stdout))
    rows = [x for x in data.rows if x["rw_ratio"] == "100"]
    settled = 0
    for f in cells(lines):
        if len(f) != 10 or f[0] not in classes.names(data):
            continue
        cls, best, second, margin, vs = f[0], f[3], f[5], f[7], f[9]
        crows = [x for x in rows if classes.size_class(data, x) == cls and x["kernel"] == best]
        decided = all(x["group_rank"] == "1" and x["vs_next_kernel"] == second and
                      x["vs_next_verdict"] == "decided" for x in crows)
        if margin.endswith("~") == decided:
            fail("answer: %s margin '%s' but storebench's verdicts %s decided at every size"
                 % (cls, margin, "are" if decided else "are not"))
        if vs != "baseline" and vs.endswith("~") == all(x["vs_memset_verdict"] == "decided"
                                                         for x in crows):
            fail("answer: %s vs memset '%s' against storebench's verdicts" % (cls, vs))
        settled += not margin.endswith("~") or not vs.endswith("~")
    if not settled:
        fail("answer: no class settled in a paired run whose first groups were decided")
    one = run([os.path.join(src, "scripts/table"), "--section", "winners,answer",
               os.path.join(src, LEVELS)])
    margins = [f[7] for f in cells(one.stdout.splitlines())
               if len(f) == 10 and f[0] in classes.names(data)]
    if not margins or not all(m.endswith("~") for m in margins) or \
            "answer: skipped, the run claims no winner" not in one.stdout:
        fail("answer: a one-round run settles nothing and claims no winner:\n%s" % one.stdout)
    # a run with winner sets (2026-12-06): one row per group, its best, answer, in and open as
    # the winner_sets metadata says
    winners = len(data.meta["winners"].split(","))
    sets = reader.load(os.path.join(src, WINNER_SETS))
    r = run([os.path.join(src, "scripts/table"), "--section", "answer",
             os.path.join(src, WINNER_SETS)])
    got = {f[0]: f[1:] for f in cells(r.stdout.splitlines()) if len(f) == 6}
    best = {e.split()[0]: e.split()[1] for e in sets.meta["winners"].split(",")}
    entries = [e.split() for e in sets.meta["winner_sets"].split(",")]
    for group, verdict, ins, opens in entries:  # from before the edge set: none on its edge
        want = [best[group], verdict, ins.replace("+", ", "), "-", opens.replace("+", ", ")]
        if got.get(group) != want:
            fail("answer: %s: %s, want %s" % (group, got.get(group), want))
    # today's entries add the kernels on the band's edge between in and open
    tmp = tempfile.mkdtemp(prefix="sb-edge-")
    try:
        edged = os.path.join(tmp, "edge.csv")
        with open(os.path.join(src, WINNER_SETS)) as f, open(edged, "w") as out:
            for line in f:
                if line.startswith("# winner_sets="):
                    group = entries[0][0]
                    line = "# winner_sets=%s decided avx512_t_u8 avx2_t_u8+sse2_t_u4 -\n" % group
                out.write(line)
        r = run([os.path.join(src, "scripts/table"), "--section", "answer", edged])
        row = [f for f in cells(r.stdout.splitlines()) if len(f) == 6 and f[0] == group]
        if row != [[group, best[group], "decided", "avx512_t_u8", "avx2_t_u8, sse2_t_u4", "-"]]:
            fail("answer: an entry with an edge set: %s\n%s" % (row, r.stdout))
    finally:
        shutil.rmtree(tmp)
    print("ok: answer: %d winners rows as the metadata says, %d classes settled by storebench's "
          "verdicts; a one-round run settles none; %d winner sets as the run printed them, and "
          "one with an edge set" % (winners, settled, len(entries)))
    return 0


def outdir_faults(src):
    """A CSV whose name is not UTF-8 plots twice into its folder (its manifest keeps the name);
    a full disk is one line, exit 1, and the folder is left as the next run accepts it (issue
    21.6: tracebacks, and a folder without its manifest that plot then refused).  The full disk
    is a tiny tmpfs: skipped where mounting one is not allowed."""
    tmp = tempfile.mkdtemp(prefix="sb-outdir-")
    plot = os.path.join(src, "scripts", "plot")
    try:
        odd = os.path.join(tmp.encode(), b"x\xe9.csv")
        shutil.copy(os.path.join(src, FIXTURE), odd)
        for n in (1, 2):
            r = run([plot, "--only", "bandwidth", "--format", "svg", os.fsdecode(odd)],
                    errors="surrogateescape")  # it prints the file names it wrote
            if r.returncode != 0 or r.stderr:
                fail("plot of a non-UTF-8 CSV name, run %d: exit %d, %r" % (n, r.returncode,
                                                                           r.stderr[-300:]))
        full = os.path.join(tmp, "full")
        os.mkdir(full)
        if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=200k", "tmpfs", full],
                          capture_output=True).returncode != 0:
            print("ok: non-UTF-8 name; skip: cannot mount a tmpfs for the full disk")
            return SKIP
        try:
            csv = os.path.join(full, "a.csv")
            shutil.copy(os.path.join(src, FIXTURE), csv)
            r = run([plot, csv])
            lines = r.stderr.splitlines()
            if r.returncode != 1 or len(lines) != 1 or "No space left" not in lines[0]:
                fail("plot on a full disk: exit %d, stderr %r" % (r.returncode, r.stderr[-500:]))
            # room again: the folder the failed run left is accepted
            subprocess.run(["mount", "-o", "remount,size=32m", full], check=True)
            r = run([plot, csv])
            if r.returncode != 0:
                fail("plot after the disk had room again: exit %d, %r" % (r.returncode, r.stderr))
        finally:
            subprocess.run(["umount", full])
        print("ok: a non-UTF-8 CSV name plots twice; a full disk is one line, exit 1, and the "
              "folder is used again")
        return 0
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


@needs_gnuplot
def victim(storebench, src):
    """A tiny real run with victims and a chase at two delays: the victim and latency plots
    render (and the bandwidth ones leave those rows out), the victim section tabulates every
    victim row with its interval, and the other sections say the rows are the victim's."""
    tmp = tempfile.mkdtemp(prefix="sb-victim-")
    try:
        csv = os.path.join(tmp, "victim.csv")
        chase = ",chase:64KiB" if len(os.sched_getaffinity(0)) > 1 else ""
        r = run([storebench, "run", "--kernels", "memset,rep_stosb", "--call", "256KiB",
                 "--threads", "1", "--victim", "own:16KiB,own:64KiB" + chase, "--victim-delay",
                 "0,100000", "--min-time", "0.002", "--repetitions", "1", "--canary", "off",
                 "--csv", csv])
        if r.returncode != 0:
            fail("victim run failed (%d): %s" % (r.returncode, r.stderr.strip().splitlines()[-1:]))
        out = os.path.join(tmp, "plots")
        r = run([os.path.join(src, "scripts/plot"), "-o", out, csv])
        if r.returncode != 0 or r.stderr:
            fail("scripts/plot: exit %d, stderr: %s" % (r.returncode, r.stderr))
        files = [l for l in r.stdout.splitlines() if not l.startswith("note: ")]
        made = {os.path.splitext(os.path.basename(f))[0] for f in files}
        want = {"victim-own-16KiB-t1", "victim-own-64KiB-t1"} | \
            ({"latency-chase-64KiB-t1"} if chase else set())
        if made != want:
            fail("plots %s, want %s (the bandwidth plots hold no victim rows)" % (
                sorted(made), sorted(want)))
        for f in files:
            (check_png if f.endswith(".png") else check_svg)(f)
        r = run([os.path.join(src, "scripts/table"), csv])
        rows = [l for l in r.stdout.splitlines() if l.startswith(("memset ", "rep_stosb "))]
        if r.returncode != 0 or len(rows) != 2 * (2 + (2 if chase else 0)):
            fail("table: exit %d, %d kernel rows: %s" % (r.returncode, len(rows), r.stdout))
        if not all(re.search(r"\[\d+\.\d+, \d+\.\d+\]", l) for l in rows):
            fail("table: a victim row without its interval: %s" % rows)
        if chase and "100 us after each pass" not in r.stdout:
            fail("table: the delayed chase has no section of its own")
        if "in the victim section only" not in r.stdout:
            fail("table: the bandwidth sections do not say where the victim rows went")
        print("ok: %d plot files and %d table rows from a victim run" % (len(files), len(rows)))
        return 0
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


class Shares:
    """The two things storebench.victims reads of a run: its metadata and its cache sizes."""

    def __init__(self, l1d, l2, l3):
        self.meta = {"cache_l1d_shared_cpus": "1", "cache_l2_shared_cpus": "1"}
        self.sizes = {"l1d": l1d, "l2": l2, "l3": l3}

    def cache_bytes(self, level):
        return self.sizes.get(level)


@needs_gnuplot
def victim_cpus(storebench, src):
    """Two real victim runs side by side: compare-cpus pairs their rows by cache word (a victim of
    L2/2 is other bytes on another L2) and tabulates both inputs' slowdowns with intervals; the
    overlay draws one plot per victim and chase; a victim-only CSV is no error."""
    sys.path.insert(0, os.path.join(src, "scripts"))
    from storebench import victims
    row = {"l2_threads": "1", "l3_threads": "1", "threads": "1", "victim": "own"}
    small, big = Shares(48 << 10, 1 << 20, 32 << 20), Shares(48 << 10, 2 << 20, 96 << 20)
    for machine, size, word in ((small, 512 << 10, "L2/2"), (big, 1 << 20, "L2/2"),
                            (small, 128 << 20, "4LLC"), (big, 384 << 20, "4LLC"),
                                (small, 16 << 10, "16 KiB"), (big, (2 << 20) // 3 // 64 * 64,
                                                              "683 KiB"),
                                (Shares(32 << 10, 1 << 20, 32 << 20), 128 << 10, "L2/8")):
        got = victims.word(machine, dict(row, victim_bytes=str(size)))
        if got != word:
            fail("victims.word: %d bytes of L2 %d: %s, want %s" % (size, machine.sizes["l2"], got,
                                                                   word))
    tmp = tempfile.mkdtemp(prefix="sb-victim-cpus-")
    try:
        chase = ",chase:L2/2" if len(os.sched_getaffinity(0)) > 1 else ""
        csvs = []
        for name in ("a", "b"):
            csvs.append(os.path.join(tmp, name + ".csv"))
            r = run([storebench, "run", "--kernels", "memset,rep_stosb", "--call", "256KiB",
                     "--threads", "1", "--victim", "own:L2/8" + chase, "--min-time", "0.002",
                     "--repetitions", "1", "--canary", "off", "--csv", csvs[-1]])
            if r.returncode != 0:
                fail("victim run failed (%d): %s" % (r.returncode, r.stderr[-300:]))
        out = os.path.join(tmp, "cmp")
        r = run([os.path.join(src, "scripts/compare-cpus"), "-o", out, "--format", "text"] + csvs)
        if r.returncode != 0:
            fail("compare-cpus: exit %d: %s" % (r.returncode, r.stderr))
        for head in ["own:L2/8 beside 1 thread"] + (["chase:L2/2 beside 1 thread"] if chase else []):
            if head not in r.stdout:
                fail("compare-cpus: no section '%s': %s" % (head, r.stdout[-2000:]))
        rows = [l for l in r.stdout.splitlines() if re.match(r"\s*(memset|rep_stosb) .*\]", l)]
        want = 2 * (1 + bool(chase))
        if len(rows) != want or not all(
                len(re.findall(r"\[\d+\.\d+, \d+\.\d+\]", l)) == 2 and
                re.search(r"(A > B|B > A|undecided)\s*$", l) for l in rows):
            fail("compare-cpus: %d victim rows, want %d each with two intervals and a verdict: %s"
                 % (len(rows), want, rows))
        plots = sorted(f for f in os.listdir(os.path.join(out, "overlay")) if f.endswith(".png"))
        if not any(f.startswith("overlay-own-L2_8-t1-") for f in plots) or \
                bool(chase) != any(f.startswith("overlay-chase-L2_2-t1-") for f in plots):
            fail("compare-cpus overlay: %s" % plots)
        for f in plots:
            check_png(os.path.join(out, "overlay", f))
            check_svg(os.path.join(out, "overlay", f[:-4] + ".svg"))
        print("ok: %d victim rows side by side, overlays %s" % (len(rows), plots))
        return 0
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def tiny_run(storebench, tmp, name, *args):
    """A tiny real store-only run at 1 thread (one repetition of 2 ms, no canary) into
    tmp/name.csv: (csv path, the finished process)."""
    csv = os.path.join(tmp, name + ".csv")
    return csv, run([storebench, "run"] + list(args) + [
        "--threads", "1", "--min-time", "0.002", "--repetitions", "1", "--canary", "off",
        "--csv", csv])


def skipped_without(src, section, note):
    """table --section SECTION on the committed run without its rows: exit 0 and the note."""
    r = run([os.path.join(src, "scripts/table"), "--section", section, os.path.join(src, LEVELS)])
    if r.returncode != 0 or note not in r.stdout:
        fail("%s without its rows: exit %d: %s" % (section, r.returncode, r.stdout[-500:]))


def march(storebench, src):
    """A tiny real run of the cc_ rows beside hand-written temporal kernels: table --section march
    has one row per cc level this CPU runs, its -march, and beside it a hand-written kernel of the
    same store width with the ratio of the two medians; without cc rows a one-line note."""
    tmp = tempfile.mkdtemp(prefix="sb-march-")
    try:
        csv, r = tiny_run(storebench, tmp, "march", "--kernels",
                          "cc_*,sse2_t_u1,avx2_t_u1,avx512_t_u1,memset",
                          "--call", "16KiB,256KiB,4MiB")
        if r.returncode != 0:
            fail("march run failed (%d): %s" % (r.returncode, r.stderr[-300:]))
        with open(csv) as f:
            ran = {row["kernel"] for row in DictReader(l for l in f if not l.startswith("#"))
                   if row["kernel"].startswith("cc_")}
        r = run([os.path.join(src, "scripts/table"), "--section", "march", "--format", "md", csv])
        lines = [l for l in r.stdout.splitlines() if l.startswith("| cc_")]
        want = {"cc_x86_64": ("x86-64", "sse2_t_u1"), "cc_v2": ("x86-64-v2", "sse2_t_u1"),
                "cc_v3": ("x86-64-v3", "avx2_t_u1"), "cc_v4": ("x86-64-v4", "avx512_t_u1")}
        got = {}
        for l in lines:
            cells = [c.strip() for c in l.strip("|").split("|")]
            got[cells[0]] = cells
            march_, hand = want[cells[0]]
            if cells[1] != march_ or not cells[4].startswith(hand + " ") or \
                    not re.match(r"^\d+\.\d\d$", cells[5]):
                fail("march: row %s, want -march %s beside %s and a ratio" % (cells, march_, hand))
        if r.returncode != 0 or set(got) != ran or "cc_x86_64" not in got:
            fail("march: exit %d, rows %s: %s" % (r.returncode, sorted(got), r.stdout[-1500:]))
        print("ok: march table rows %s (ran %s)" % (sorted(got), sorted(ran)))
        skipped_without(src, "march", "march: skipped, no cc_ rows")
        return 0
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def mixes(storebench, src):
    """A tiny real run of a distribution file and a bundled one, hot and cold, beside a fixed
    size: table --section mixes has a table per distribution, a block per working set, a row
    per kernel with its ns per call, calls a second (1000 / ns at one thread), GB/s, ratio to
    memset and set, fastest first; the fixed size
    is in none of them (and the ticks plot and dpdk table have no row of a distribution); plot
    draws mixes-t1 (valid PNG and SVG); without distribution rows a note."""
    tmp = tempfile.mkdtemp(prefix="sb-mixes-")
    try:
        dist = os.path.join(tmp, "small.dist")
        with open(dist, "w") as f:
            f.write("# test\n16 3\n64 1\n")
        csv, r = tiny_run(storebench, tmp, "mixes", "--kernels", "memset,rep_stosb",
                          "--call", "4KiB,dist:%s,dist:gcc-cc1" % dist, "--ws", "hot,cold",
                          "--rounds", "6")
        if r.returncode != 0:
            fail("mixes run failed (%d): %s" % (r.returncode, r.stderr[-300:]))
        r = run([os.path.join(src, "scripts/table"), "--section", "mixes,dpdk", csv])
        heads = re.findall(r"\*\* size distribution (\S+): ns per call", r.stdout)
        blocks = re.findall(r"(hot|cold) working set of [^,]+, 1 thread; mean call (\d+) "
                            r"bytes =*", r.stdout)
        rows = [c for c in cells(r.stdout.splitlines()) if c[0] in ("memset", "rep_stosb")]
        ns = [float(c[1]) for c in rows if len(c) == 7]
        calls = [float(c[2]) for c in rows if len(c) == 7]
        if r.returncode != 0 or heads != ["small", "gcc-cc1"] or len(blocks) != 4 or \
                {b[1] for b in blocks if b[0] == "hot"} != {"28", "129"} or len(ns) != 8 or \
                any(ns[i] > ns[i + 1] for i in range(0, 8, 2)) or \
                any(abs(c * n - 1e3) > 0.02 * 1e3 for c, n in zip(calls, ns)) or \
                not all(c[6] in ("in", "out", "edge", "open") for c in rows if len(c) == 7):
            fail("mixes table: %s %s %s: %s" % (heads, blocks, rows, r.stdout[-2500:]))
        dpdk = r.stdout.split("** size distribution")[0]
        if re.search(r"^\s*(28|129)\s", dpdk, re.M) or "4096" not in dpdk:
            fail("the dpdk table has a distribution's mean as a size: %s" % dpdk[-1500:])
        out = os.path.join(tmp, "plots")
        r = run([os.path.join(src, "scripts/plot"), "--only", "mixes,ticks", "-o", out, csv])
        if r.returncode != 0 or r.stderr.strip():
            fail("plot mixes: exit %d: %s" % (r.returncode, r.stderr[-500:]))
        check_png(os.path.join(out, "mixes-t1.png"))
        check_svg(os.path.join(out, "mixes-t1.svg"))
        print("ok: mixes table (%s, %d rows, fastest first) and plot" % (",".join(heads),
                                                                        len(rows)))
        skipped_without(src, "mixes", "mixes: skipped, the CSV has no rows of a size "
                                      "distribution")
        return 0
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def libc_variants(storebench, src):
    """A tiny real run of memset, glibc's variants and two path kernels: table --section libc has
    memset first with the function the CSV names, one row per variant with its glibc function,
    the path kernels after them, a GB/s cell per working set; without libc_ rows a note."""
    tmp = tempfile.mkdtemp(prefix="sb-libc-")
    try:
        csv, r = tiny_run(storebench, tmp, "libc", "--kernels", "memset,libc_*,sse2_t_u4,rep_stosb",
                          "--call", "4KiB,256KiB")
        if r.returncode != 0:
            fail("libc run failed (%d): %s" % (r.returncode, r.stderr[-300:]))
        with open(csv) as f:
            text = f.read()
        variant = re.search(r"^# glibc_memset_variant=(\S+)$", text, re.M).group(1)
        ran = [k for k in dict.fromkeys(row["kernel"] for row in DictReader(
            l for l in text.splitlines() if not l.startswith("#")))]
        r = run([os.path.join(src, "scripts/table"), "--section", "libc", "--format", "md", csv])
        rows = [[c.strip() for c in l.strip("|").split("|")] for l in r.stdout.splitlines()
                if re.match(r"^\| (memset|libc_|sse2_t_u4|rep_stosb)", l)]
        names = [c[0] for c in rows]
        libc = [k for k in ran if k.startswith("libc_")]
        if r.returncode != 0 or names != ["memset"] + libc + ["sse2_t_u4", "rep_stosb"] or \
                rows[0][1] != "= " + variant:
            fail("libc: exit %d, rows %s (ran %s, memset %s): %s" % (
                r.returncode, names, ran, variant, r.stdout[-1500:]))
        for c in rows:
            want = "(path kernel)" if not (c[0].startswith("libc_") or c[0] == "memset") else \
                "__memset_erms" if c[0] == "libc_erms" else None
            if (want and c[1] != want) or (c[0].startswith("libc_") and c[0] != "libc_erms" and
                                           not re.match(r"__memset_%s_unaligned" %
                                                        c[0][5:].split("_")[0], c[1])) or \
                    len(c) != 4 or not all(re.match(r"^\d+(\.\d+)?\*?$", x) for x in c[2:]):
                fail("libc: row %s: its glibc function and one GB/s per working set" % c)
        print("ok: libc table, memset = %s, %d variants" % (variant, len(libc)))
        # many working sets: a row a size and a column a kernel, lines as wide as the kernels
        # are many (issue 40.12: 5000 sizes made lines of 44k characters)
        many, r = tiny_run(storebench, tmp, "libc-many", "--kernels", "memset,libc_*",
                           "--call", "4KiB..64KiB:x1.19")
        r = run([os.path.join(src, "scripts/table"), "--section", "libc", many])
        lines = r.stdout.splitlines()
        sized = [l for l in lines if re.match(r"^\s*(L1d |L2 |L3 |DRAM )?\d+(\.\d+)? [KMG]iB ", l)]
        if r.returncode != 0 or len(sized) < 13 or max(map(len, lines)) > 300 or \
                "glibc functions: memset = " + variant not in r.stdout:
            fail("libc with 17 sizes: exit %d, %d size rows, widest line %d: %s" % (
                r.returncode, len(sized), max(map(len, lines), default=0), r.stdout[-800:]))
        skipped_without(src, "libc", "libc: skipped, no libc_<variant> rows")
        return 0
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def dpdk_const(storebench, src):
    """memset_const in a tiny real run: rows only at its compile-time sizes (call_const 1, memset's
    0), the skipped size said on stderr, and the dpdk section's C table with one 'N C' row per
    size it measured."""
    tmp = tempfile.mkdtemp(prefix="sb-const-")
    try:
        csv, r = tiny_run(storebench, tmp, "const", "--kernels", "memset,memset_const",
                          "--call", "64,100,1536", "--ws", "hot")
        if r.returncode != 0 or "1 combinations skipped where a compile-time-size kernel" \
                not in r.stderr:
            fail("const run: exit %d: %s" % (r.returncode, r.stderr[-500:]))
        with open(csv) as f:
            rows = list(DictReader(l for l in f if not l.startswith("#")))
        got = sorted((x["kernel"], int(x["call_bytes"]), x["call_const"]) for x in rows)
        want = sorted([("memset", n, "0") for n in (64, 100, 1536)] +
                      [("memset_const", n, "1") for n in (64, 1536)])
        if got != want:
            fail("const rows %s, want %s" % (got, want))
        r = run([os.path.join(src, "scripts/table"), "--section", "dpdk", "--format", "md", csv])
        crow = [l.split("|")[1].strip() for l in r.stdout.splitlines() if " C |" in l]
        if r.returncode != 0 or crow != ["64 C", "1536 C"] or "compile-time constant" not in r.stdout:
            fail("dpdk C rows %s: %s" % (crow, r.stdout[-1500:]))
        print("ok: memset_const at %s, C rows %s" % ([g[1] for g in got if g[0] != "memset"], crow))
        return 0
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


@needs_gnuplot
def load_plot(storebench, src):
    """A tiny real `storebench load` plotted: one plot, load.png/.svg, valid; the stop's short
    interval left out with a note."""
    tmp = tempfile.mkdtemp(prefix="sb-load-")
    try:
        csv = os.path.join(tmp, "load.csv")
        r = run([storebench, "load", "--mem", "16MiB", "--rw", "50", "--duration", "1.2",
                 "--interval", "0.2", "--csv", csv])
        if r.returncode != 0:
            fail("load failed (%d): %s" % (r.returncode, r.stderr[-300:]))
        r = run([os.path.join(src, "scripts/plot"), "-o", os.path.join(tmp, "plots"), csv])
        files = [l for l in r.stdout.splitlines() if not l.startswith("note: ")]
        if r.returncode != 0 or r.stderr or sorted(os.path.basename(f) for f in files) != \
                ["load.png", "load.svg"]:
            fail("scripts/plot of a load: exit %d, %s, stderr %s" % (r.returncode, files, r.stderr))
        for f in files:
            (check_png if f.endswith(".png") else check_svg)(f)
        print("ok: a load time series plotted: %s" % files)
        return 0
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def main(argv):
    if len(argv) < 3:
        sys.stderr.write(__doc__ + "\n")
        return 2
    src, exe, part = argv[:3]
    parts = {"render": lambda: render(exe, src),
             "golden": lambda: golden(src, "--update" in argv[3:]),
             "badinput": lambda: badinput(src), "shared": lambda: shared(src),
             "shares": lambda: shares(src), "steps": lambda: steps(src, exe),
             "answer": lambda: answer(src), "outdir_faults": lambda: outdir_faults(src),
             "victim": lambda: victim(exe, src), "victim_cpus": lambda: victim_cpus(exe, src),
             "march": lambda: march(exe, src), "dpdk_const": lambda: dpdk_const(exe, src),
             "libc": lambda: libc_variants(exe, src), "overlay": lambda: overlay(src),
             "mixes": lambda: mixes(exe, src),
             "load": lambda: load_plot(exe, src)}
    if part not in parts:
        sys.stderr.write(__doc__ + "\n")
        return 2
    return parts[part]()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
