#!/usr/bin/env python3
# readme_test.py — the figures README.md and docs/ci.md quote from committed runs, recomputed from
# the files they cite.  Python 3 standard library and storebench.reader (the one CSV reader).
# Why: a number in the README is a claim; it must be what the run it names measured (issue 21.20).
"""usage: readme_test.py REPO_ROOT

Each entry below is a piece of README.md (or docs/ci.md) text with figures in it, the committed
files it cites, and the function that recomputes those figures from the files: the test fails
when the text is no longer in the page, or when the files no longer give its figures.  Every
plot README embeds must be what today's scripts/plot draws from the CSV it was drawn from.
"""

import filecmp
import itertools
import os
import re
import statistics
import subprocess
import sys
import tempfile

ROOT = sys.argv[1]
sys.path.insert(0, os.path.join(ROOT, "scripts"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from storebench import reader  # noqa: E402
from testlib import Checker  # noqa: E402

check = Checker()
RUNS = os.path.join(ROOT, "results", "turin-vm")


def runs(*stamps):
    return [reader.load(os.path.join(RUNS, "20261202T%sZ.csv" % s)) for s in stamps]


def group(r):
    return (r["call_bytes"], r["ws_bytes"], r["threads"], r["rw_ratio"])


def claims(run):
    """(group, kernel a, kernel b) -> +1 when a beats b, for every pair the run decided."""
    out = {}
    for r in run.rows:
        for other, pre in ((r["vs_next_kernel"], "vs_next"), ("memset", "vs_memset")):
            if not other or other == r["kernel"] or r[pre + "_verdict"] != "decided":
                continue
            a, b = sorted((r["kernel"], other))
            win = float(r[pre + "_ratio"]) > 1
            out[(group(r), a, b)] = 1 if win == (a == r["kernel"]) else -1
    return out


def pairs_cell(rs):
    """'913, 896, 907 (2430)': pairs decided per run, and decided in two runs, summed over the
    pairs of runs; and the count of those that disagree."""
    c = [claims(r) for r in rs]
    both = [(k, x[k] == y[k]) for x, y in itertools.combinations(c, 2) for k in x if k in y]
    return "%s (%d)" % (", ".join(str(len(x)) for x in c), len(both)), sum(not s for _, s in both)


def answers_cell(rs):
    """'0/2/27, 1/1/27, 0/3/26 of 29': each run's groups decided / tie / undecided."""
    out = []
    for r in rs:
        verdicts = [e.split()[2] for e in r.meta["winners"].split(",") if len(e.split()) >= 3]
        out.append("/".join(str(verdicts.count(v)) for v in ("decided", "tie", "undecided")))
    return "%s of %d" % (", ".join(out), len(verdicts))


def coverage_cell(rs):
    """'59 %': the share of (row, other run) pairs whose interval holds the other run's median."""
    med = [{(r["kernel"],) + group(r): float(r["gbps_median"]) for r in x.rows} for x in rs]
    held = []
    for i, x in enumerate(rs):
        for r in x.rows:
            if r["gbps_ci_low"]:
                held += [float(r["gbps_ci_low"]) <= m[(r["kernel"],) + group(r)] <=
                         float(r["gbps_ci_high"]) for j, m in enumerate(med) if j != i]
    return "%.0f %%" % (100 * statistics.mean(held))


def flagged(rs):
    return [100 * sum(r["quality"] != "ok" for r in x.rows) / len(x.rows) for x in rs]


def night(name):
    with open(os.path.join(RUNS, "nights-20261202", name, "summary.md")) as f:
        head = f.read(4000)
    if "**No baseline**" in head and "Exit status 0." in head:
        return 0, 0  # the first night: nothing to gate against
    m = re.search(r"\*\*([A-Za-z ]+)\*\* \(exit status (\d)\)(?:: \d+ points ran, \d+ compared: "
                  r"(\d+) regressed)?", head)
    return (int(m.group(2)), int(m.group(3) or 0)) if m else (None, None)


def table_rows():
    quick = runs("221036", "221151", "221306")
    six = runs("221434", "221549", "221653")
    out = []
    for rs, label in ((quick, "quick"), (six, "6-kernel")):
        cell, contra = pairs_cell(rs)
        check(contra == 0, f"{label}: {contra} contradictions between the cited runs")
        out.append("| %s | **0** | %s | %s |" % (cell, answers_cell(rs), coverage_cell(rs)))
    f = flagged(quick)
    out.append("| %.0f %%, %.0f %%, %.1f %% (`drift` only) |" % tuple(f))
    f = flagged(six)
    out.append("| %.1f %% (`drift`), %.0f %%, %.0f %% |" % tuple(f))
    return out


def canary_sentence():
    rs = runs("224451", "224606", "224720")
    f = flagged(rs)
    cell, contra = pairs_cell(rs)
    check(contra == 0, f"regime canaries: {contra} contradictions between the cited runs")
    l3 = all("drift" == r["quality"] for x in rs for r in x.rows if r["quality"] != "ok")
    check(l3, "the regime-canary runs flag drift only")
    return ["%.0f %%, %.0f %% and %.0f %% of points flagged" % tuple(f),
            "0 contradictions over %s pairs decided in two runs; intervals held another run's "
            "median at\n%s." % (cell.split("(")[1].rstrip(")"), coverage_cell(rs))]


def nights_sentence():
    got = [night("2026-12-02" + ("" if n == 1 else "-%d" % n)) for n in range(1, 12)]
    check(all(g == (0, 0) for g in got[:10]), f"nights 1-10 exit 0 with no regression: {got}")
    check(got[10][0] == 1, f"night 11 exits 1: {got[10]}")
    return ["rep_stosb`, exited 1 with %d confirmed regressions" % got[10][1]]


def span(values, fmt):
    """'191-197': the range of VALUES in FMT, one number when both ends print the same."""
    lo, hi = fmt % min(values), fmt % max(values)
    return lo if lo == hi else "%s-%s" % (lo, hi)


def result_section():
    """The figures of "What a result looks like", from the run it shows."""
    run = reader.load(os.path.join(RUNS, "20261203T034314Z.csv"))
    one = {(r["kernel"], int(r["ws_bytes"])): r for r in run.rows
           if r["threads"] == "1" and r["rw_ratio"] == "100"}
    kib = lambda *n: [x * 1024 for x in n]  # noqa: E731
    gbps = lambda k, sizes: [float(one[(k, s)]["gbps_median"]) for s in sizes]  # noqa: E731
    ratio = lambda k, sizes: [float(one[(k, s)]["vs_memset_ratio"]) for s in sizes]  # noqa: E731
    verdicts = lambda k, sizes: {one[(k, s)]["vs_memset_verdict"] for s in sizes}  # noqa: E731
    l1, l2 = kib(12, 24), kib(192, 384)
    upto12m = [s for s in sorted({s for _, s in one}) if s <= 12 << 20]
    dram = kib(48 << 10, 96 << 10, 128 << 10)
    check(verdicts("avx512_t_u8", l1 + l2) == {"decided"}, "avx512_t_u8 in L1d/L2 decided")
    check(verdicts("rep_stosq", upto12m) == {"undecided"}, "rep_stosq to 12 MiB undecided")
    check(verdicts("avx512_nt_u1", dram) == {"undecided"}, "NT in DRAM undecided")
    check(one[("rep_stosq", 24 << 20)]["vs_memset_verdict"] == "decided", "rep_stosq 24 MiB")
    flagged = sum(r["quality"] != "ok" for r in run.rows)
    reasons = {r["quality"] for r in run.rows} - {"ok"}
    return ["quick preset, %d points" % len(run.rows),
            "%d points flagged (`%s`)" % (flagged, ", ".join(sorted(reasons))),
            "writes\n%s GB/s, %s x memset" % (span(gbps("avx512_t_u8", l1), "%.0f"),
                                             span(ratio("avx512_t_u8", l1), "%.2f")),
            "in L2 (192 and 384 KiB) %s GB/s, %s x" % (span(gbps("avx512_t_u8", l2), "%.0f"),
                                                      span(ratio("avx512_t_u8", l2), "%.2f")),
            "within %s of each other" % span(ratio("rep_stosq", upto12m), "%.2f"),
            "rep_stosq leads memset %.2f x" % float(one[("rep_stosq", 24 << 20)]["vs_memset_ratio"]),
            "match memset (%s, undecided) at %s GB/s" % (
                span(ratio("avx512_nt_u1", dram), "%.2f"),
                span(gbps("avx512_nt_u1", dram) + gbps("memset", dram), "%.0f")),
            "falls to %s of it" % span(ratio("avx512_t_u8", dram), "%.2f"),
            "run at %s of memset" % span(ratio("avx512_nt_u1", upto12m), "%.2f")]


def embedded_plots(readme):
    """Every plot README embeds is what today's scripts/plot draws from the CSV beside its folder
    (gnuplot's PNG is byte for byte the same from the same input on Debian 12): a change to the
    plots that leaves the README's picture behind fails here until it is drawn again."""
    for png in re.findall(r"!\[[^]]*\]\((results/[^)]+-plots/[^)]+\.png)\)", readme):
        folder, name = os.path.split(png)
        csv = os.path.join(ROOT, folder[:-len("-plots")] + ".csv")
        with tempfile.TemporaryDirectory() as tmp:
            r = subprocess.run([os.path.join(ROOT, "scripts", "plot"), csv, "-o", tmp, "--only",
                                name.split("-")[0], "--format", "png"],
                               capture_output=True, text=True)
            drawn = os.path.join(tmp, name)
            same = os.path.isfile(drawn) and filecmp.cmp(drawn, os.path.join(ROOT, png),
                                                         shallow=False)
        check(r.returncode == 0 and same,
              f"README's {png} is not what scripts/plot draws from {os.path.relpath(csv, ROOT)} "
              f"today: draw it again (exit {r.returncode}: {r.stderr.strip()[-200:]})")


def main():
    with open(os.path.join(ROOT, "README.md")) as f:
        readme = f.read()
    with open(os.path.join(ROOT, "docs", "ci.md")) as f:
        ci = f.read()
    embedded_plots(readme)
    for text, page, name in ([(t, readme, "README.md") for t in
                              table_rows() + canary_sentence() + result_section()] +
                             [(t, ci, "docs/ci.md") for t in nights_sentence()]):
        check(text in page, f"{name} does not say what its cited runs give: {text!r}")
    return check.finish("readme figures")


sys.exit(main())
