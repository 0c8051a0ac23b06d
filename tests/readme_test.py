#!/usr/bin/env python3
# readme_test.py — the figures README.md and docs/ci.md quote from committed runs, recomputed from
# the files they cite.  Python 3 standard library and storebench.reader (the one CSV reader).
# Why: a number in the README is a claim; it must be what the run it names measured (issue 21.20).
"""usage: readme_test.py REPO_ROOT

Each entry below is a piece of README.md (or docs/ci.md) text with figures in it, the committed
files it cites, and the function that recomputes those figures from the files: the test fails
when the text is no longer in the page, or when the files no longer give its figures.
"""

import itertools
import os
import re
import statistics
import sys

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


def main():
    with open(os.path.join(ROOT, "README.md")) as f:
        readme = f.read()
    with open(os.path.join(ROOT, "docs", "ci.md")) as f:
        ci = f.read()
    for text, page, name in ([(t, readme, "README.md") for t in table_rows() + canary_sentence()] +
                             [(t, ci, "docs/ci.md") for t in nights_sentence()]):
        check(text in page, f"{name} does not say what its cited runs give: {text!r}")
    return check.finish("readme figures")


sys.exit(main())
