#!/usr/bin/env python3
# scripts_test.py — the scripts package and the commands on it, against real storebench output.
# Python 3 standard library + gnuplot; CSVs come from tiny real runs or the committed real fixture
# (a copy changed the way a real machine would write it: empty tick fields, one odd byte).
# Each part is one defect class of issues 9 and 11; every assertion can fail.
"""usage: scripts_test.py SRCDIR STOREBENCH PART

PART  run       scripts/run plots the CSV the binary reports: two runs in one second each get
                their own; a relative --csv is relative to the caller's folder (issue 9.10)
      odd       a quoted field with a comma (--placement cpus:0,1) and empty tick columns:
                plot and table work, and every section skipped says so (9.11)
      encoding  a non-UTF-8 byte in the metadata reads as U+FFFD; in a data row it is one line
                naming the line, exit 2 (9.20)
      escape    a machine folder and labels with " \\ ' and a gnuplot command in them: trend,
                plot and compare-cpus draw them as text and run nothing (9.22)
      outdir    one fresh folder per CSV: another CSV's folder or a user's file is refused, the
                same CSV's earlier plots are replaced and stale ones removed (9.23)
      shapes    no one-point bandwidth plot; per-kind legends below the plot (9 Plots)
      classes   size classes by per-thread share, quality marks from the quality column, the
                settings block of compare-cpus, argparse in trend and compare-cpus (11.8, 11.9)
      settings  two runs at storebench's defaults and one with --fill 0 --repetitions 2: table's
                settings line (values, NOT DEFAULT marks), compare-cpus lists fill and
                repetitions first among the settings that change numbers, trend and plot
                --overlay name them; runs at the same settings differ in nothing (10.6)
Exit 0 pass, 1 fail, 77 skip (no gnuplot)."""

import csv
import io
import os
import re
import shutil
import subprocess
import sys
import tempfile

from testlib import Checker

SRC, STOREBENCH, PART = sys.argv[1], os.path.abspath(sys.argv[2]), sys.argv[3]
SCRIPTS = os.path.join(SRC, "scripts")
FIXTURE = os.path.join(SRC, "tests", "fixtures", "zen5-2cpu-levels.csv")
# the same sweep by a storebench from before the point, quality and ws_class columns
OLD_FIXTURE = os.path.join(SRC, "tests", "fixtures", "zen5-2cpu-sweep.csv")
# the drift canary is tested elsewhere; here it would only add seconds to every run
TINY = ["--kernels", "memset,sse2_nt_u4", "--threads", "1", "--repetitions", "1",
        "--min-time", "0.001", "--canary", "off"]
check = Checker()


def run(cmd, **kw):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kw)


def tool(name, *args, **kw):
    return run([os.path.join(SCRIPTS, name)] + list(args), **kw)


def measure(csv, *args):
    r = run([STOREBENCH, "run"] + TINY + list(args) + ["--csv", csv])
    if r.returncode != 0:
        sys.exit("FAIL: storebench run %s: exit %d: %s" % (" ".join(args), r.returncode,
                                                           r.stderr.strip().splitlines()[-1:]))
    return csv


def one_line_exit2(r, word, what):
    lines = r.stderr.strip().splitlines()
    check(r.returncode == 2 and len(lines) == 1 and word in lines[0] and not r.stdout,
          "%s: want exit 2 and one stderr line naming %r, got exit %d, stderr %r" % (
              what, word, r.returncode, r.stderr[-300:]))


def edit_csv(src, dst, row_fn=None, meta_extra=b""):
    """Copy a real CSV, changing data rows through row_fn(dict) -> dict (a new key becomes a new
    column, a key dropped drops its column) and appending metadata lines.  The metadata after the header (the drift canary's
    sample lines and summary) follows the rows."""
    with open(src, "rb") as f:
        lines = f.read().split(b"\n")
    head = next(i for i, l in enumerate(lines) if not l.startswith(b"#"))
    cols = lines[head].decode().split(",")
    body = [l for l in lines[head + 1:] if l]
    tail = [l + b"\n" for l in body if l.startswith(b"#")]
    rows = [dict(zip(cols, next(csv.reader([l.decode()])))) for l in body if not l.startswith(b"#")]
    rows = [row_fn(r) if row_fn else r for r in rows]
    cols = [c for c in cols if c in rows[0]] + [c for c in rows[0] if c not in cols]
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\n").writerows([cols] + [[r[c] for c in cols] for r in rows])
    with open(dst, "wb") as f:
        f.write(b"\n".join(lines[:head] + ([meta_extra] if meta_extra else [])) + b"\n" +
                buf.getvalue().encode() + b"".join(tail))
    return dst


# ---- parts ---------------------------------------------------------------------------------

def part_run(tmp):
    # every script's --help: exit 0 and one usage line (table's docstring was a second one;
    # history lists each command's usage on purpose)
    for name in ("table", "plot", "compare-cpus", "trend", "nightly", "advise"):
        r = tool(name, "--help")
        usage = [ln for ln in r.stdout.splitlines() if ln.lower().startswith("usage:")]
        check(r.returncode == 0 and len(usage) == 1,
              "%s --help: exit %d, usage lines %s" % (name, r.returncode, usage))
    # Installed layout (scripts/ without a source tree around it): results under the caller's
    # ./results, so two runs started together share one results/<machine>/ folder.
    inst = os.path.join(tmp, "inst")
    shutil.copytree(SCRIPTS, os.path.join(inst, "scripts"),
                    ignore=shutil.ignore_patterns("__pycache__"))
    cwd = os.path.join(tmp, "caller")
    os.makedirs(cwd)
    env = dict(os.environ, STOREBENCH_BIN=STOREBENCH)
    cmd = [os.path.join(inst, "scripts", "run"), "--call", "4KiB"] + TINY
    for attempt in range(3):
        procs = [subprocess.Popen(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, text=True) for _ in range(2)]
        outs = [p.communicate() + (p.returncode,) for p in procs]
        written = sorted(os.path.join(dp, f) for dp, _, fs in os.walk(os.path.join(cwd, "results"))
                         for f in fs if f.endswith(".csv"))
        names = {os.path.basename(w) for w in written}
        if any(n.endswith("-2.csv") for n in names):
            break  # both started in one second: the case that went wrong
        shutil.rmtree(os.path.join(cwd, "results"))
    else:
        print("note: the two runs never started within one second; checked them apart")
    reported = []
    for out, err, rc in outs:
        check(rc == 0, "scripts/run exit %d: %s" % (rc, err[-300:]))
        csv = [l[5:] for l in out.splitlines() if l.startswith("CSV: ")]
        said = [l for l in err.splitlines() if " points in " in l or l.startswith("storebench: csv ")]
        check(len(csv) == 1 and said and os.path.basename(csv[0]) in said[-1],
              "scripts/run reported %s, storebench said %s" % (csv, said))
        reported += csv
    check(len(set(reported)) == 2, "two runs reported the same CSV: %s" % reported)
    # source-tree layout with a given binary: a relative --csv is the caller's, not the tree's
    r = run([os.path.join(SCRIPTS, "run"), "--call", "4KiB", "--csv", "rel.csv"] + TINY,
            cwd=cwd, env=env)
    check(r.returncode == 0 and os.path.isfile(os.path.join(cwd, "rel.csv")),
          "relative --csv: exit %d, want %s: %s" % (r.returncode, os.path.join(cwd, "rel.csv"),
                                                   r.stderr[-300:]))
    check(not os.path.exists(os.path.join(SRC, "rel.csv")), "relative --csv landed in the source tree")
    if os.path.exists(os.path.join(SRC, "rel.csv")):
        os.unlink(os.path.join(SRC, "rel.csv"))
    check(os.path.isdir(os.path.join(cwd, "rel-plots")), "scripts/run drew no plots of rel.csv")
    # on a terminal (util-linux script(1) gives one) storebench still sees one: its progress line
    # rewrites in place (ESC [K), and the CSV it reports is the one plotted
    if shutil.which("script"):
        line = " ".join("'%s'" % a for a in [os.path.join(SCRIPTS, "run"), "--call", "4KiB,8KiB",
                                             "--csv", "tty.csv"] + TINY)
        r = subprocess.run(["script", "-qec", line, "/dev/null"], cwd=cwd, env=env,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        out = r.stdout.replace(b"\r", b"")
        check(r.returncode == 0 and b"\x1b[K" in out and
              ("CSV: %s" % os.path.join(cwd, "tty.csv")).encode() in out,
              "scripts/run on a terminal: exit %d, progress rewritten in place: %s, output %r" % (
                  r.returncode, b"\x1b[K" in out, out[-300:]))


def part_odd(tmp):
    real = measure(os.path.join(tmp, "real.csv"), "--call", "4KiB,64KiB", "--ws", "call,hot,cold",
                   "--threads", "2", "--placement", "cpus:0,1")
    with open(real) as f:
        check('"cpus:0,1"' in f.read(), "the run did not write the quoted placement field")
    notsc = edit_csv(real, os.path.join(tmp, "notsc.csv"),
                     lambda r: dict(r, ticks_per_call_median="", ticks_per_line_median=""))
    for path in (real, notsc):
        r = tool("plot", "-o", os.path.join(tmp, os.path.basename(path) + "-plots"), path)
        check(r.returncode == 0 and not r.stderr and ".png" in r.stdout,
              "plot %s: exit %d, stderr %r" % (os.path.basename(path), r.returncode, r.stderr[-300:]))
        r = tool("table", path)
        check(r.returncode == 0 and not r.stderr, "table %s: exit %d %r" % (path, r.returncode,
                                                                           r.stderr[-300:]))
        for section in ("dpdk", "checksum", "winners"):
            drawn = {"dpdk": "TSC ticks per call", "checksum": "in cache and in memory",
                     "winners": "Best store strategy"}[section]
            check(drawn in r.stdout or "%s: skipped" % section in r.stdout or
                  "%s (" % section in r.stdout,
                  "table %s: section %s neither drawn nor noted" % (os.path.basename(path), section))
    r = tool("table", notsc)
    check("dpdk: skipped, the tick columns are empty" in r.stdout, "no note for the empty ticks")
    r = tool("plot", "-o", os.path.join(tmp, "notsc-2"), "--only", "ticks", notsc)
    check("ticks: skipped, the tick columns are empty" in r.stdout, "plot: no note for empty ticks")


def part_encoding(tmp):
    meta = edit_csv(FIXTURE, os.path.join(tmp, "meta.csv"),
                    meta_extra=b"# note=storebench run --csv lat\xe9.csv")
    r = tool("table", meta)
    check(r.returncode == 0 and not r.stderr, "table with a Latin-1 byte in the metadata: exit %d %r"
          % (r.returncode, r.stderr))
    r = tool("plot", "-o", os.path.join(tmp, "meta-plots"), "--only", "bandwidth", meta)
    check(r.returncode == 0, "plot with a Latin-1 byte in the metadata: %r" % r.stderr)
    with open(FIXTURE, "rb") as f:
        data = f.read()
    bad = os.path.join(tmp, "data.csv")
    with open(bad, "wb") as f:
        f.write(data.replace(b"\nmemset/", b"\nmem\xe9set/", 1))
    for name in ("table", "plot"):
        one_line_exit2(tool(name, bad), "not UTF-8", "%s with a Latin-1 byte in a data row" % name)


EVIL = 'm"a\\b\'c"; system("touch PWNED"); print "'


def part_escape(tmp):
    if shutil.which("gnuplot") is None:
        return 77
    machine = os.path.join(tmp, EVIL)
    for day in ("2026-11-29", "2026-11-30"):
        os.makedirs(os.path.join(machine, day))
        shutil.copy(FIXTURE, os.path.join(machine, day, "nightly.csv"))
        with open(os.path.join(machine, day, "gate.json"), "w") as f:
            f.write("{}\n")
    r = tool("trend", "--point", "t@l1d", machine, cwd=tmp)
    check(r.returncode == 0 and os.path.getsize(os.path.join(machine, "trend.png")) > 5000,
          "trend in a folder named %r: exit %d %r" % (EVIL, r.returncode, r.stderr[-300:]))
    # one malformed night is left out and named, not the end of every trend plot (issue
    # 21.10); --include takes a run folder of this machine only (issue 21.14)
    os.makedirs(os.path.join(machine, "2026-12-01"))
    with open(os.path.join(machine, "2026-12-01", "nightly.csv"), "w") as f:
        f.write("kernel,gbps_median\nmemset\n")
    with open(os.path.join(machine, "2026-12-01", "gate.json"), "w") as f:
        f.write("{}\n")
    r = tool("trend", "--point", "t@l1d", machine, cwd=tmp)
    check(r.returncode == 0 and "run 2026-12-01 left out" in r.stderr,
          "trend with one malformed night: exit %d %r" % (r.returncode, r.stderr[-300:]))
    # a night from before ws_class among classed ones, and a night of another storebench: the
    # first is named and why, the second marked (issue 40.9: both passed without a word)
    os.makedirs(os.path.join(machine, "2026-12-02"))
    shutil.copy(OLD_FIXTURE, os.path.join(machine, "2026-12-02", "nightly.csv"))
    os.makedirs(os.path.join(machine, "2026-12-03"))
    with open(FIXTURE) as f, open(os.path.join(machine, "2026-12-03", "nightly.csv"), "w") as g:
        g.write(re.sub(r"(?m)^# storebench_version=.*$", "# storebench_version=9.9.9", f.read()))
    for day in ("2026-12-02", "2026-12-03"):
        with open(os.path.join(machine, day, "gate.json"), "w") as f:
            f.write("{}\n")
    r = tool("trend", "--point", "t@l1d", machine, cwd=tmp)
    check(r.returncode == 0 and "run 2026-12-02 left out: the CSV has no size classes" in r.stderr
          and "2026-12-03 storebench_version 9.9.9" in r.stderr,
          "trend names a night without classes and marks a new storebench: %r" % r.stderr[-600:])
    with open(os.path.join(machine, "trend.tsv")) as f:
        check("new storebench" in f.read(), "the trend's x label marks the new storebench")
    # a history of nights from before ws_class only: one line saying so, not an empty plot
    old = os.path.join(tmp, "old-machine")
    for day in ("2026-11-29", "2026-11-30"):
        os.makedirs(os.path.join(old, day))
        shutil.copy(OLD_FIXTURE, os.path.join(old, day, "nightly.csv"))
        with open(os.path.join(old, day, "gate.json"), "w") as f:
            f.write("{}\n")
    one_line_exit2(tool("trend", old, cwd=tmp), "no size classes", "trend over old nights")
    elsewhere = os.path.join(tmp, "elsewhere", "2026-11-30")
    os.makedirs(elsewhere)
    shutil.copy(FIXTURE, os.path.join(elsewhere, "nightly.csv"))
    for inc in (elsewhere, os.path.join(machine, "2026-12-09")):
        r = tool("trend", "--point", "t@l1d", "--include", inc, machine, cwd=tmp)
        one_line_exit2(r, "--include", "trend --include %s" % inc)
    # a CSV whose path and CPU name carry the same text, plotted alone and overlaid
    folder = os.path.join(tmp, "csv " + EVIL)
    os.makedirs(folder)
    csv = edit_csv(FIXTURE, os.path.join(folder, "x.csv"),
                   meta_extra=("# cpu_codename=" + EVIL).encode())
    r = tool("plot", "--only", "bandwidth", "--format", "svg", csv, cwd=tmp)
    check(r.returncode == 0, "plot of a CSV under %r: exit %d %r" % (EVIL, r.returncode, r.stderr))
    svgs = [l for l in r.stdout.splitlines() if l.endswith(".svg")]
    if check(svgs, "plot wrote no SVG"):
        with open(svgs[0]) as f:
            check('touch PWNED' in f.read(), "the CPU name did not reach the title as text")
    r = tool("compare-cpus", "-o", os.path.join(tmp, "cmp"), "--label", EVIL, "--label", "plain",
             csv, FIXTURE, cwd=tmp)
    check(r.returncode == 0, "compare-cpus with a label %r: exit %d %r" % (EVIL, r.returncode,
                                                                          r.stderr[-300:]))
    pwned = [os.path.join(dp, f) for dp, _, fs in os.walk(tmp) for f in fs if f == "PWNED"]
    check(not pwned and not os.path.exists(os.path.join(SCRIPTS, "PWNED")),
          "gnuplot ran a command from a label: %s" % pwned)


def part_outdir(tmp):
    a = shutil.copy(FIXTURE, os.path.join(tmp, "a.csv"))
    b = shutil.copy(FIXTURE, os.path.join(tmp, "b.csv"))
    plot = ("--only", "bandwidth", "--format", "svg")
    r = tool("plot", *plot, a)
    check(r.returncode == 0, "plot a.csv: %r" % r.stderr)
    folder = os.path.join(tmp, "a-plots")
    first = sorted(os.listdir(folder))
    r = tool("plot", *plot, "-o", folder, b)
    one_line_exit2(r, "did not write", "plot b.csv into a.csv's folder")
    check(sorted(os.listdir(folder)) == first, "a refused plot changed the folder")
    # a.csv again, with fewer plots: the earlier ones are replaced, the ones not drawn removed
    r = tool("plot", "--only", "bandwidth", "--format", "svg", "--kernels", "memset,avx2_*", a)
    check(r.returncode == 0, "plot a.csv again: %r" % r.stderr)
    again = sorted(os.listdir(folder))
    check(set(again) < set(first), "stale plots of the earlier run stayed: %s vs %s" % (again, first))
    with open(os.path.join(folder, "mine.txt"), "w") as f:
        f.write("a user's file\n")
    one_line_exit2(tool("plot", *plot, a), "mine.txt", "plot into a folder holding a user's file")
    check(os.path.isfile(os.path.join(folder, "mine.txt")), "the user's file was touched")


def part_shapes(tmp):
    one = measure(os.path.join(tmp, "one.csv"), "--call", "64KiB")
    r = tool("plot", "-o", os.path.join(tmp, "one-plots"), one)
    check(r.returncode == 0, "plot of a one-size run: %r" % r.stderr)
    check(not any("bandwidth-" in l for l in r.stdout.splitlines()),
          "a one-point bandwidth plot was drawn: %s" % r.stdout)
    check("one working set" in r.stdout, "no note saying why the bandwidth plot is skipped")
    r = tool("plot", "-o", os.path.join(tmp, "fix"), "--only", "bandwidth", "--format", "svg", FIXTURE)
    svg = os.path.join(tmp, "fix", "bandwidth-t1-rw100-mis0-t.svg")
    check(os.path.isfile(svg), "no per-kind plot %s" % svg)
    if os.path.isfile(svg):
        # gnuplot's SVG places each text in <g transform="translate(x,y)"><text>...; the legend
        # entry must sit lower on the page than the x axis label (below the plot, not beside it)
        with open(svg) as f:
            placed = re.findall(r'translate\(([\d.]+),([\d.]+)\)[^>]*>\s*<text>([^<]*)</text>', f.read())
        key = [float(y) for _, y, t in placed if t == "avx2_t_u4"]
        xlabel = [float(y) for _, y, t in placed if t.startswith("working set per thread")]
        check(key and xlabel and min(key) > max(xlabel),
              "the legend is not below the plot (legend y %s, x label y %s)" % (key, xlabel))


def part_classes(tmp):
    sys.path.insert(0, SCRIPTS)
    from storebench import classes, quality, reader
    from storebench.units import fmt_bytes
    # The classes are the binary's (each row's ws_class, the run's level_names and level_rule):
    # a sweep from L1d/4 to DRAM at 1 and all threads, whose thread plots and checksum table must
    # show at each count the largest working set of its L2 class and of its DRAM class (on a
    # 1 MiB L2 the in-cache plot once sat at 768 KiB, by the L2's edge: issue 21.21).
    path = os.path.join(tmp, "levels.csv")
    run([STOREBENCH, "run", "--kernels", "memset", "--call", "L1d/4..DRAM:x2", "--threads",
         "1,all", "--repetitions", "1", "--min-time", "0.001", "--canary", "off", "--csv", path])
    sweep = reader.load(path)
    check(classes.names(sweep) == ("L1d", "L2", "L3", "DRAM") and
          "4 x the LLC share" in classes.rule(sweep),
          "the run names its levels and rule: %s; %s" % (classes.names(sweep),
                                                        classes.rule(sweep)))
    want = {}
    for t in sorted({r["threads"] for r in sweep.rows}):
        trows = [r for r in sweep.rows if r["threads"] == t]
        want[t] = [max((int(r["ws_bytes"]) for r in trows if r["ws_class"] == c), default=None)
                   for c in ("L2", "DRAM")]
    # a DRAM class exists at a count when its sizes reach 4 x the LLC share the run used (the
    # measured one where the guest reports an L3 it does not have); where DRAM stops at its
    # ceiling below that (a replay's or a machine's real, large LLC), there is none to look for
    for t, w in want.items():
        used = dict(item.split(":") for item in
                    sweep.meta.get("levels_t%s_used" % t, "").split(",") if ":" in item)
        llc = int(used.get("L3") or used.get("L2") or 0)
        largest = max(int(r["ws_bytes"]) for r in sweep.rows if r["threads"] == t)
        check(llc > 0, "the run records the LLC share it used at %s threads: %s" % (t, used))
        if llc and largest < 4 * llc:
            print("note: at %s threads the largest size (%s) is below 4 x the LLC share (%s): "
                  "no DRAM class to look for" % (t, fmt_bytes(largest), fmt_bytes(llc)))
            want[t] = [w[0], None]
        else:
            check(w[1], "%s threads: a DRAM-class size (largest %s, LLC share %s)" %
                  (t, fmt_bytes(largest), fmt_bytes(llc)))
    dram_class = all(w[1] for w in want.values())
    r = tool("plot", path, "-o", os.path.join(tmp, "thr"), "--only", "threads", "--format", "svg")
    titles = {}
    for where in ("cache", "dram"):
        svg = os.path.join(tmp, "thr", "threads-%s.svg" % where)
        titles[where] = open(svg).read() if os.path.isfile(svg) else ""
    dram = ", ".join("%s at %s thread%s" % (fmt_bytes(w[1]), t, "" if t == "1" else "s")
                     for t, w in want.items() if w[1])
    check(r.returncode == 0 and all(fmt_bytes(w[1]) in titles["dram"] for w in want.values()
                                    if w[1])
          and all(fmt_bytes(w[0]) in titles["cache"] for w in want.values() if w[0]),
          "thread plots at each count's largest L2- and DRAM-class size (%s; exit %d)"
          % (dram, r.returncode))
    r = tool("table", "--section", "checksum", path)
    got = re.findall(r"in-(?:cache|memory) (\d+(?:\.\d+)? [KMGT]?i?B)", r.stdout)
    cells = [fmt_bytes(v) for w in want.values() if w[0] for v in w if v]
    check(not dram_class or got[:len(cells)] == cells, "checksum at each count's L2- and DRAM-class sizes: %s, "
          "want %s" % (got, cells))
    old = edit_csv(path, os.path.join(tmp, "old-levels.csv"),
                   lambda r: {k: v for k, v in r.items() if k != "ws_class"})
    check(classes.size_class(reader.load(old), reader.load(old).rows[0]) is None and
          "no size classes" in tool("table", "--section", "winners", old).stdout,
          "a CSV from before ws_class has no classes, and the winners table says why")
    r = tool("plot", old, "-o", os.path.join(tmp, "old-thr"), "--only", "threads")
    check(r.returncode == 0 and "no size classes" in r.stdout + r.stderr,
          "the thread plots of a CSV without classes say which sizes they show instead: %s"
          % (r.stdout + r.stderr)[-300:])
    check(quality.quality_of({"quality": "ok", "cpu_share_min": "0.1"}) == (),
          "the quality column decides over cpu_share_min")
    check(quality.quality_of({"quality": "cv;drift"}) == ("cv", "drift"), "reasons not split")
    check(quality.quality_of({"cpu_share_min": "0.5"}) == ("shared_cpu",), "old rule lost")
    # the table marks what the quality column flags, and names the reason
    flagged = edit_csv(FIXTURE, os.path.join(tmp, "q.csv"), lambda r: dict(
        r, quality="cv" if (r["kernel"], r["call_bytes"], r["ws_mode"], r["threads"]) ==
        ("memset", "262144", "call", "1") else "ok"))
    r = tool("table", "--section", "checksum", flagged)
    starred = [l for l in r.stdout.splitlines() if "*" in l and not l.startswith("*")]
    check(len(starred) == 1 and starred[0].startswith("memset"), "want one starred memset row: %s"
          % starred)
    check(re.search(r"flagged by storebench's quality check: cv[ ;]", r.stdout),
          "the note does not name the cv reason")
    # a run that names its reasons: the note says what the CSV says a reason means, not a copy
    named = edit_csv(flagged, os.path.join(tmp, "qn.csv"), meta_extra=(
        b"# quality_reasons=shared_cpu,cv\n# quality_why_cv=the words of the run's own binary"))
    r = tool("table", "--section", "checksum", named)
    check("cv (the words of the run's own binary)" in r.stdout,
          "the note does not take cv's meaning from the CSV: %s" % r.stdout[-400:])
    # compare-cpus: the settings that differ, the quality mark, argparse errors
    other = edit_csv(FIXTURE, os.path.join(tmp, "fill.csv"), meta_extra=b"# fill_byte=0")
    r = tool("compare-cpus", "--format", "text", flagged, other)
    check(r.returncode == 0 and "fill_byte" in r.stdout.split("## Best")[0],
          "compare-cpus: no settings block naming fill_byte: %r" % r.stdout[:600])
    check("*" in r.stdout and "quality check" in r.stdout, "compare-cpus: no quality mark")
    for name in ("trend", "compare-cpus"):
        one_line_exit2(tool(name, "--no-such-option", FIXTURE), "--no-such-option",
                       "%s --no-such-option" % name)
        r = tool(name, "--help")
        check(r.returncode == 0 and "usage:" in r.stdout, "%s --help" % name)


def settings_block(text):
    """compare-cpus' '## Settings that differ' block: [(section, setting)] in order."""
    block = text.split("## Settings that differ", 1)[-1].split("\n## ", 1)[0]
    out, section = [], ""
    for ln in block.splitlines():
        m = re.match(r"=+ (.+?) =+$", ln)
        if m:
            section = m.group(1)
        elif re.match(r"\S+  ", ln) and not ln.startswith(("setting ", "---")):
            out.append((section, ln.split()[0]))
    return out


def part_settings(tmp):
    sys.path.insert(0, SCRIPTS)
    from storebench import settings
    env = {k: v for k, v in os.environ.items() if k != "GLIBC_TUNABLES"}  # the default: unset
    runs = {}
    for name, extra in (("dflt", []), ("dflt2", []), ("fill0", ["--fill", "0", "--repetitions", "2"])):
        path = os.path.join(tmp, name + ".csv")
        r = run([STOREBENCH, "run", "--kernels", "memset", "--call", "4KiB", "--threads", "1"] +
                extra + ["--csv", path], env=env)
        if r.returncode != 0:
            sys.exit("FAIL: storebench run %s: exit %d: %s" % (extra, r.returncode, r.stderr[-300:]))
        runs[name] = path
    want = "settings, all the quick preset's defaults: fill 0xa5, prefill 0x5a, pages 4k, " \
        "placement compact, membind local, GLIBC_TUNABLES unset, rounds 6, repetitions 6, " \
        "min-time 0.002 s, profile "
    line = tool("table", runs["dflt"]).stdout.splitlines()[1:2]
    check(line and line[0].startswith(want) and line[0].split()[-1] in ("vm", "metal"),
          "table, default run: want its settings line\n  %s...\n  got %s" % (want, line))
    for fmt, bold in (("text", "NOT DEFAULT"), ("md", "**NOT DEFAULT**")):
        out = tool("table", "--format", fmt, runs["fill0"]).stdout
        line = [ln for ln in out.splitlines()[:4] if ln.startswith("settings")]
        changed, _, rest = line[0].partition("; default ") if line else ("", "", "")
        check(changed == "settings: %s fill 0x00 (default 0xa5), repetitions 2 (default 6)"
              % bold and rest.startswith("prefill 0xff, pages 4k"),
              "table --format %s, --fill 0 --repetitions 2: want fill and repetitions marked "
              "not default, the prefill that follows fill as default: %s" % (fmt, line))
    # compare-cpus: the number-changing differences first and in their own section
    out = tool("compare-cpus", "--format", "text", runs["dflt"], runs["fill0"]).stdout
    rows = settings_block(out)
    check(rows[:2] == [("settings that change numbers", "fill_byte"),
                       ("settings that change numbers", "repetitions")] and
          all(sec == "other metadata" for sec, _ in rows[2:]),
          "compare-cpus: want fill_byte and repetitions first, as settings that change numbers, "
          "then the other keys: %s" % rows)
    check("different settings that change numbers (fill_byte, repetitions)" in out,
          "compare-cpus: no note naming the differing settings")
    out = tool("compare-cpus", "--format", "text", runs["dflt"], runs["dflt2"]).stdout
    check(settings_block(out) == [] and "none: every metadata key is the same" in out,
          "compare-cpus, two runs at the same settings: want nothing listed, got %s"
          % settings_block(out))
    metas = [reader_meta(runs[n]) for n in ("dflt", "dflt2")]
    check(settings.differences(metas) == ([], []) and settings.note(metas, ["a", "b"]) == "",
          "settings.differences of two runs at the same settings: %s" % (settings.differences(metas),))
    # issue 21.22: a run whose defaults are unknown was "all storebench's defaults" (and a
    # nightly one so, with repetitions 12 beside quick's 6); the batch rule and the call sizes
    # sat among "other metadata"; a CSV without a quality column read as clean; the class note
    # named the first input's caches only
    line = settings.line({"fill_byte": "165", "repetitions": "9"})
    check(line.startswith("settings (whether fill, repetitions are the default is not known)"),
          "settings of unknown defaults (no command line, no recorded defaults): %s" % line)
    line = settings.line(dict(reader_meta(runs["dflt"]), preset="nightly"))
    check(line.startswith("settings, all the nightly preset's defaults") or "NOT DEFAULT" in line,
          "a nightly run's defaults are the nightly preset's: %s" % line)
    other = edit_csv(runs["dflt"], os.path.join(tmp, "other.csv"),
                     lambda r: {k: v for k, v in r.items() if k != "quality"},
                     meta_extra=b"# batch_rule=another rule\n# call_spec=1MiB\n"
                                b"# cache_l2_bytes=2097152")
    out = tool("compare-cpus", "--format", "text", runs["dflt"], other).stdout
    rows = settings_block(out)
    check(("settings that change numbers", "batch_rule") in rows and
          ("settings that change numbers", "call_spec") in rows,
          "compare-cpus: batch_rule and call_spec among the settings that change numbers: %s"
          % rows)
    check("quality: unknown (the CSV has no quality column" in out,
          "compare-cpus: no 'quality: unknown' for a CSV without the column")
    l1d = "B: L1d %d KiB, L2 2 MiB" % (int(reader_meta(runs["dflt"])["cache_l1d_bytes"]) // 1024)
    check("A: L1d" in out and l1d in out.split("Classes by")[-1],
          "compare-cpus: the class note names both inputs' caches (%s): %s" % (l1d, out[-500:]))
    # the defaults are the run's own records, and no script keeps a copy of the binary's facts:
    # its presets' values, its option defaults, its profiles' limits, its quality reasons, its
    # cache levels' names and the arithmetic of their rule
    meta = reader_meta(runs["fill0"])
    check(meta.get("default_fill_byte") == "165" and meta.get("default_repetitions") and
          "default_prefill_byte" not in meta and "fill_byte" in meta.get("settings_keys", ""),
          "the run records fill's and repetitions' defaults, and prefill follows its fill: %s"
          % {k: v for k, v in meta.items() if k.startswith(("default_", "settings_keys"))})
    presets = [ln.split("\t") for ln in run([STOREBENCH, "list", "--presets", "--tsv"]).stdout
               .splitlines()]
    reasons = meta.get("quality_reasons", "").split(",")
    # the option defaults `list --options` gives (three characters or more: "0" and "on" are
    # everywhere, and so is "none", --victim's: any option's word for nothing), the fill's as its
    # metadata records it, and the vm profile's drift band
    options = [ln.split("\t") for ln in run([STOREBENCH, "list", "--options", "--tsv"]).stdout
               .splitlines()]
    defaults = {'"%s"' % o[2] for o in options[1:] if len(o[2]) >= 3 and o[2] != "none"} | \
        {'"165"', '"0.25"'}
    check('"100000"' in defaults and '"0xa5"' in defaults, "list --options gives the defaults: "
          "%s" % sorted(defaults))
    levels = [n for n in meta.get("level_names", "").split(",") if n]
    check(len(levels) == 4, "the run names its cache levels: %s" % levels)
    copies = []
    for root, _, files in os.walk(SCRIPTS):
        for f in files:
            path = os.path.join(root, f)
            with open(path, errors="replace") as fh:
                text = fh.read()
            if not (f.endswith(".py") or text.startswith("#!/usr/bin/env python3")):
                continue
            listed = [r for r in reasons if re.search(r"[\"']%s[\"']" % r, text)]
            if len(listed) >= 3:
                copies.append("%s: the quality reasons %s" % (path, listed))
            for row in presets[1:]:
                for col, v in zip(presets[0][1:], row[1:]):
                    if re.search(r"[\"']%s[\"']\s*:\s*[\"']%s[\"']" % (re.escape(col), re.escape(v)),
                                 text):
                        copies.append("%s: preset %s's %s %s" % (path, row[0], col, v))
            for m in re.finditer(r"\b(cv_max|cpu_share_min|drift_band|skew_max|batch_ns_min)"
                                 r"[\"']?\s*[=:]\s*[\"']?\d", text):
                copies.append("%s: a quality limit %s" % (path, m.group(0)))
            # a list of the levels (three or more quoted; the size grammar's words, "L3/2" or a
            # lone "DRAM" passed to storebench, are its input, not a copy)
            named = [n for n in levels if re.search(r"[\"']%s[\"']" % re.escape(n), text)]
            if len(named) >= 3:
                copies.append("%s: the level names %s" % (path, named))
            for m in re.finditer(r"(?:\b[24] ?\* ?\(?\w*(?:l1d?|l2|l3|llc|below|share)\w*\b|"
                                 r"\b\w*(?:l1d?|l2|l3|llc|share)\w* ?//? ?2\b)", text):
                copies.append("%s: the level rule's arithmetic %r" % (path, m.group(0)))
            for v in defaults:
                if re.search(r"(?:default|Setting)\b[^\n]*%s" % re.escape(v), text):
                    copies.append("%s: a default value %s" % (path, v))
    check(not copies, "scripts keep copies of storebench's facts: %s" % copies)
    if shutil.which("gnuplot") is None:
        return 0
    # trend over a history whose last night ran at --fill 0: that night is marked, no other
    machine = os.path.join(tmp, "m")
    runs["diag"] = edit_csv(runs["dflt2"], os.path.join(tmp, "diag.csv"),
                            meta_extra=b"# diagnostic=inject-slowdown")
    for day, name in (("2026-12-01", "dflt"), ("2026-12-02", "dflt2"), ("2026-12-03", "fill0"),
                      ("2026-12-04", "diag")):
        os.makedirs(os.path.join(machine, day))
        shutil.copyfile(runs[name], os.path.join(machine, day, "nightly.csv"))
        with open(os.path.join(machine, day, "gate.json"), "w") as f:
            f.write("{}")
    r = tool("trend", "--point", "memset@l1d", machine)
    with open(os.path.join(machine, "trend.tsv")) as f:
        cols = [ln.split("\t") for ln in f.read().splitlines() if ln]
    labels = [c[4] for c in cols]
    check(r.returncode == 0 and labels == ["2026-12-01 #1", "2026-12-02 #1",
                                           "2026-12-03 #1 [other: fill, repetitions]",
                                           "2026-12-04 #1 [inject-slowdown]"],
          "trend: want the --fill 0 night marked: %s %s" % (labels, r.stderr))
    # issue 21.23: the line joined the diagnostic night to the real ones, and the marks made
    # rotated tick labels that filled half a panel: the line skips it (missing, "?"), it is
    # ringed, and the tick is the run's date and number alone
    check([c[6] == "?" for c in cols] == [False, False, False, True] and
          [c[7] for c in cols] == ["2026-12-0%d #1" % d for d in (1, 2, 3, 4)] and
          [c[8] for c in cols] == ["0", "0", "0", "1"],
          "trend: the diagnostic night off the line, short ticks: %s" % [c[5:] for c in cols])
    check("2026-12-03 fill 0x00, repetitions 2" in r.stderr, "trend: stderr lacks the values: %s"
          % r.stderr)
    for pair, want in (((runs["dflt"], runs["fill0"]), True), ((runs["dflt"], runs["dflt2"]), False)):
        r = tool("plot", "--overlay", "-o", os.path.join(tmp, "ov%d" % want), *pair)
        noted = [ln for ln in r.stdout.splitlines() if "settings that change numbers" in ln]
        check(r.returncode == 0 and bool(noted) == want and
              (not want or "fill 0xa5 in " in noted[0] and ", 0x00 in " in noted[0]),
              "plot --overlay: want %s settings note: %s" % ("a" if want else "no", noted))
    # each CPU's line of an overlay's title names the storebench that measured it (issue 21.22)
    svg = os.path.join(tmp, "ov1", "overlay-libc.svg")
    version = reader_meta(runs["dflt"])["storebench_version"]
    text = open(svg).read() if os.path.isfile(svg) else ""
    check(text.count("storebench %s" % version) >= 2,
          "plot --overlay: the title names each run's storebench version %s" % version)
    return 0


def reader_meta(path):
    from storebench import reader
    return reader.load(path).meta


def main():
    parts = {"run": part_run, "odd": part_odd, "encoding": part_encoding, "escape": part_escape,
             "outdir": part_outdir, "shapes": part_shapes, "classes": part_classes,
             "settings": part_settings}
    if PART not in parts:
        sys.exit(__doc__)
    if shutil.which("gnuplot") is None and PART not in ("classes", "settings"):
        print("SKIP: gnuplot not installed")
        return 77
    tmp = tempfile.mkdtemp(prefix="sb-scripts-")
    try:
        rc = parts[PART](tmp)
        if rc:
            return rc
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return check.finish("scripts %s" % PART)


if __name__ == "__main__":
    sys.exit(main())
