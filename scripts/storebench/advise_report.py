# advise_report.py — what `advise` hands back: the text report (its last three lines are the ones to
# paste), a tidy CSV of the verification with provenance, and a gnuplot plot of the curves and thresholds.
# Python 3 standard library + gnuplot 5.4; the plot's data and labels reach gnuplot as data files only.
"""Writing advise's results.

advise.csv: `# key=value` provenance (the machine keys of `storebench info`, then advise_* keys:
command, UTC time, sweep CSV, loader, memset variant, path kernels, chosen thread count, rounds,
starting tunables, crossovers per thread count and pair, the recommendation, wall time), then
one row per verification size, setting and round:

    size_class   the class the size verifies (a changed region at one cache level, or a control)
    class_kind   changed | control
    call_bytes   bytes per memset call (= working set per thread)
    threads      threads of the child run
    setting      default | advised
    tunables     the GLIBC_TUNABLES the child ran with (empty: none)
    round        1.. ; rounds alternate which setting runs first
    order        default-first | advised-first
    gbps         the child's gbps_median for this size (GB/s, 1e9 B/s)
"""

import collections
import csv
import os
import shutil
import subprocess

from storebench import advise_measure as am
from storebench.units import fmt_bytes

GP = os.path.join(am.SCRIPTS, "gnuplot", "advise.gp")
COLUMNS = ("size_class", "class_kind", "call_bytes", "threads", "setting", "tunables", "round",
           "order", "gbps")
fb = fmt_bytes


def fmt_threshold(v):
    if v is None:
        return "unset"
    if isinstance(v, int) and v >= 1 << 60:
        return "%#x (never)" % v
    return "%d (%s)" % (v, fb(v)) if isinstance(v, int) else str(v)


def pct(x):
    return "%+.1f%%" % (100 * x) if x is not None else "n/a"


def sweep_heading(threads, sizes, total, reasons, used):
    """The line over one thread count's crossovers: its sizes, how many of its TOTAL points were
    flagged and why (REASONS: one 'shared_cpu;cv' string per flagged point), and whether they
    decide (USED) or count as ties."""
    why = collections.Counter(w for x in reasons for w in x.split(";"))
    return "  %d thread%s (%d sizes %s..%s; %d of %d points flagged%s%s):" % (
        threads, "" if threads == 1 else "s", len(sizes), fb(sizes[0]), fb(sizes[-1]),
        len(reasons), total,
        " (%s; results/README.md: Quality)" % ", ".join(
            "%s %d" % kv for kv in sorted(why.items(), key=lambda kv: (-kv[1], kv[0])))
        if why else "", ", used" if used else ", counted as ties")


def verification_lines(table, rounds, threads):
    out = ["verification: libc memset, %d thread%s, %d interleaved rounds (default/advised "
           "order alternating); change = advised/default - 1 of the GB/s shown; gain = the "
           "same, paired per round, median over rounds [range%s]; a verdict needs both to "
           "agree" % (threads, "" if threads == 1 else "s", rounds,
                      " without best and worst round" if rounds >= 5 else "")]
    out.append("  %-50s %-26s %10s %10s %8s %24s  %s" % (
        "size class", "sizes", "default", "advised", "change", "gain [spread]", "verdict"))
    for row in table:
        sizes = ",".join(fb(s).replace(" ", "") for s in row["sizes"])
        d = "%.2f GB/s" % row["default"] if row["default"] else "n/a"
        a = "%.2f GB/s" % row["advised"] if row["advised"] else "n/a"
        spread = "%s [%s..%s]" % (pct(row["gain"]), pct(row["low"]), pct(row["high"]))
        out.append("  %-50s %-26s %10s %10s %8s %24s  %s" % (
            row["name"][:50], sizes[:26], d, a, pct(row.get("change")), spread, row["verdict"]))
    return out


def write_csv(path, meta, table, measured, threads, advised, default):
    """One row per size, setting and round: the verification's raw paired numbers."""
    cls = {}
    for row in table:
        for s in row["sizes"]:
            cls.setdefault(s, (row["name"], row["kind"]))
    with open(path, "x", newline="") as f:
        for key, value in meta:
            f.write("# %s=%s\n" % (key, str(value).replace("\n", " ")))
        w = csv.writer(f, lineterminator="\n")
        w.writerow(COLUMNS)
        for k, rnd in enumerate(measured, 1):
            order = "default-first" if k % 2 == 1 else "advised-first"
            for setting in ("default", "advised"):
                for s in sorted(rnd[setting]):
                    name, kind = cls.get(s, ("", ""))
                    tun = advised if setting == "advised" else (default or "")
                    w.writerow((name, kind, s, threads, setting, tun, k, order,
                                "%.4f" % rnd[setting][s] if rnd[setting][s] else ""))


def _gp_str(text):
    """A gnuplot single-quoted string literal (a quote is doubled, nothing else is special)."""
    return "'" + str(text).replace("'", "''") + "'"


def write_plot(folder, base, title, series, lines, caches=()):
    """series: [(title, {size: gbps}, flagged sizes)]; lines: [(size, label)] thresholds;
    caches: [(size, label)] the cache shares to mark.  Writes <base>.dat (one block per series,
    its title as the block's first field; size, GB/s, flagged 0/1), <base>.lines.dat,
    <base>.caches.dat and <base>.png/.svg.  Returns the image paths, or raises RuntimeError with
    gnuplot's last line."""
    dat = os.path.join(folder, base + ".dat")
    ldat = os.path.join(folder, base + ".lines.dat")
    cdat = os.path.join(folder, base + ".caches.dat")
    # the data's top; the band above it holds the labels, so no label crosses a curve
    ymax = max([v for _, c, _ in series for v in c.values() if v] or [1]) * 1.05
    with open(dat, "x", newline="") as f:
        w = csv.writer(f, delimiter="\t", quoting=csv.QUOTE_NONNUMERIC, lineterminator="\n")
        for name, curve, flagged in series:
            w.writerow(("size_bytes", name, "flagged"))
            for s in sorted(curve):
                if curve[s]:
                    w.writerow((s, round(curve[s], 4), int(s in flagged)))
            f.write("\n\n")
    for path, rows in ((ldat, lines), (cdat, caches)):
        with open(path, "x", newline="") as f:
            w = csv.writer(f, delimiter="\t", quoting=csv.QUOTE_NONNUMERIC, lineterminator="\n")
            for s, label in rows:
                w.writerow((s, round(ymax, 4), label.replace('"', "'")))
    if shutil.which("gnuplot") is None:
        raise RuntimeError("gnuplot not found (Debian: apt-get install gnuplot-nox)")
    out = os.path.join(folder, base)
    defs = ["datafile=%s" % _gp_str(dat), "linesfile=%s" % _gp_str(ldat),
            "outbase=%s" % _gp_str(out), "ptitle=%s" % _gp_str(title),
            "nseries=%d" % len(series), "nlines=%d" % len(lines), "cachesfile=%s" % _gp_str(cdat),
            "ncaches=%d" % len(caches), "ymax=%.4f" % ymax,
            "nflagged=%d" % sum(len(fl) for _, _, fl in series)]
    proc = subprocess.run(["gnuplot", "-e", "; ".join(defs), GP], capture_output=True, text=True,
                          timeout=120)
    err = [l for l in proc.stderr.splitlines() if l.strip()]
    if proc.returncode != 0 or err:
        raise RuntimeError("gnuplot: %s" % (err[-1] if err else "exit %d" % proc.returncode))
    return [out + ".png", out + ".svg"]
