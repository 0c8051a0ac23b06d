#!/usr/bin/env python3
# crosscpu_test.py — the one rule of cross-CPU figures (scripts/storebench/crosscpu.py) and
# scripts/compare-cpus with pooled runs, on constructed rows and on copies of a committed run
# whose GB/s are scaled by known factors.
# Python 3 standard library.  Why: a ratio between two CPUs must carry the spread of each side's
# runs, and say where the two are not told apart (issue 42).
"""usage: crosscpu_test.py REPO_ROOT STOREBENCH

Constructed rows: a run's figure is the geometric mean over its sizes, its interval that of
the rows' interval ends; pooled runs: the geometric mean of the runs, the envelope of their
intervals, how far they moved; a ratio's interval [B low / A high, B high / A low], apart only
when it excludes 1, none where a side has no interval.  Through compare-cpus: a committed
6-kernel run (A) against two copies scaled by 2 and 2.2 pooled as one CPU (B): every ratio is
the pooled figure's, its interval the one the rule gives from the rows, none marked; A against
an exact copy: every ratio 1.00 and marked ~; a copy without intervals: "(no interval)"; runs
of two CPUs pooled: exit 2 with one line.  The answer: a class's winners are the kernels in
every decided group, none where none decided; against an exact copy the same in every class,
against a copy with memset alone in at L1d they differ there alone, a copy without winner sets
has no answer; a CSV from before ws_class is classed by `storebench class` (or, without a
binary, named at the top of the report as classless).
"""

import os
import re
import subprocess
import sys
import tempfile

from testlib import Checker

ROOT, STOREBENCH = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
sys.path.insert(0, os.path.join(ROOT, "scripts"))
from storebench import crosscpu, reader  # noqa: E402

RUN = os.path.join(ROOT, "results", "turin-vm", "20261206T055017Z.csv")
COMPARE = os.path.join(ROOT, "scripts", "compare-cpus")
GBPS = ("gbps_median", "gbps_mean", "gbps_min", "gbps_max", "gbps_ci_low", "gbps_ci_high",
        "write_gbps", "total_gbps")
check = Checker()


def rows(*triples):
    return [dict(gbps_median=str(m), gbps_ci_low=str(lo) if lo else "",
                 gbps_ci_high=str(hi) if hi else "") for m, lo, hi in triples]


def unit():
    v, lo, hi = crosscpu.run_value(rows((100, 90, 110), (400, 300, 500)))
    check((round(v, 6), round(lo, 6), round(hi, 6)) ==
          (200.0, round((90 * 300) ** 0.5, 6), round((110 * 500) ** 0.5, 6)),
          f"a run's figure: geometric means of the medians and of the ends ({v}, {lo}, {hi})")
    check(crosscpu.run_value(rows((100, 90, 110), (400, None, None)))[1:] == (None, None),
          "a row without an interval: the run's figure has none")
    f = crosscpu.pool([(100, 95, 105), (121, 110, 130)], False)
    check((round(f.value, 6), f.low, f.high, f.runs) == (110.0, 95, 130, 2),
          f"pooled: the runs' geometric mean, the envelope of their intervals ({f})")
    g = crosscpu.pool([(100, None, None), (120, None, None)], True)
    check((g.low, g.high, g.flagged) == (100, 120, True),
          f"pooled runs without intervals: their range ({g})")
    one = crosscpu.pool([(100, None, None)], False)
    check(one.low is None and crosscpu.apart(f, one) is None and
          crosscpu.fmt_ratio(f, one) == "1.10 (no interval)",
          "one run without an interval: no interval, never apart")
    a = crosscpu.pool([(100, 95, 105)], False)
    b = crosscpu.pool([(200, 190, 210)], False)
    r = crosscpu.ratio(b, a)
    check(abs(r[0] - 2) < 1e-12 and abs(r[1] - 190 / 105) < 1e-12 and
          abs(r[2] - 210 / 95) < 1e-12 and crosscpu.apart(b, a) and
          crosscpu.fmt_ratio(b, a) == "2.00 [1.81, 2.21]",
          f"B/A and its interval [B low / A high, B high / A low]: {r}")
    near = crosscpu.pool([(102, 97, 107)], False)
    check(crosscpu.apart(near, a) is False and crosscpu.fmt_ratio(near, a).endswith(" ~"),
          "overlapping intervals: not apart, marked ~")
    m = crosscpu.moved([f, a])
    check(m and abs(m[0] - 0.21) < 1e-9 and abs(m[1] - 0.21) < 1e-9 and
          crosscpu.moved([a]) is None,
          f"how far the runs moved: 121/100 - 1, over the figures of several runs only ({m})")


def answers():
    """class_answer and same_answer on constructed groups."""
    a = crosscpu.class_answer([{"x": "in", "y": "in", "z": "out"}, {"x": "in", "y": "edge"},
                               {"x": "in", "y": "open"}])
    check(a == crosscpu.Answer(["x"], 2, 3),
          f"winners: in in every decided group (an open kernel leaves a group undecided): {a}")
    none = crosscpu.class_answer([{"x": "in", "y": "open"}])
    cross = crosscpu.class_answer([{"x": "in", "y": "out"}, {"x": "out", "y": "in"}])
    check(none == crosscpu.Answer(None, 0, 1) and cross == crosscpu.Answer([], 2, 2),
          f"no group decided: no answer ({none}); a crossover inside the class: none ({cross})")
    b = crosscpu.class_answer([{"x": "in", "w": "in"}])
    c = crosscpu.class_answer([{"w": "in", "x": "out"}])
    check(crosscpu.same_answer(b, a) == ("same", ["x"]) and
          crosscpu.same_answer(c, a) == ("differ", []) and
          crosscpu.same_answer(none, a) is None and crosscpu.same_answer(cross, a) is None,
          "two CPUs: the same winner, different winners, no answer on one side")


def answer_rows(text):
    """{(class, threads): (A cell, B cell, comparison)} of compare-cpus' answer table."""
    block = text.split("## The answer on each CPU", 1)[1].split("###", 1)[0]
    return {(m.group(1), m.group(2)): (m.group(3), m.group(4), m.group(5)) for m in
            re.finditer(r"^\| (\w+) \| (1|all) \| ([^|]+) \| ([^|]+) \| ([^|]+) \|$",
                        block, re.M)}


def scaled(src, dst, factor, drop_ci=False):
    """A copy of src with every GB/s column times factor (the interval's ends emptied with
    drop_ci); metadata and header as they were."""
    def scale(r):
        for c in GBPS:
            if r.get(c):
                r[c] = "" if drop_ci and c.startswith("gbps_ci") else \
                    "%.6g" % (float(r[c]) * factor)
    reader.rewrite(src, dst, scale)


def l1d_rows(text):
    """{kernel: B/A cell} of the '### L1d, threads 1' table of compare-cpus' Markdown."""
    block = text.split("### L1d, threads 1", 1)[1].split("###", 1)[0]
    return {m.group(1): m.group(2) for m in
            re.finditer(r"^\| (\w+) \| [^|]+ \| [^|]+ \| ([^|]+) \|$", block, re.M)
            if m.group(1) != "kernel"}


def cli(tmp):
    b1, b2, same, bare = (os.path.join(tmp, n) for n in ("b1.csv", "b2.csv", "same.csv",
                                                          "bare.csv"))
    scaled(RUN, b1, 2.0)
    scaled(RUN, b2, 2.2)
    scaled(RUN, same, 1.0)
    scaled(RUN, bare, 1.0, drop_ci=True)
    r = subprocess.run([COMPARE, RUN, b1 + "," + b2], capture_output=True, text=True)
    got = l1d_rows(r.stdout)
    run = reader.load(RUN)
    want = {}
    for k in {x["kernel"] for x in run.rows}:
        krows = [x for x in run.rows if x["kernel"] == k and x.get("ws_class") == "L1d" and
                 x["threads"] == "1" and x["ws_mode"] == "call"]
        if not krows:
            continue
        a = crosscpu.pool([crosscpu.run_value(krows)], False)
        v, lo, hi = crosscpu.run_value(krows)
        b = crosscpu.pool([(v * 2, lo * 2, hi * 2), (v * 2.2, lo * 2.2, hi * 2.2)], False)
        want[k] = crosscpu.fmt_ratio(b, a)
    check(r.returncode == 0 and got and got == want and
          all(c.startswith("2.10 [") and not c.endswith("~") for c in got.values()) and
          "runs: 2 pooled" in r.stdout and "moved by 10 % (median)" in r.stdout,
          f"A against two copies x2 and x2.2 pooled: {got} (want {want}; {r.stderr[-300:]})")
    r = subprocess.run([COMPARE, RUN, same], capture_output=True, text=True)
    got = l1d_rows(r.stdout)
    check(got and all(c.startswith("1.00 [") and c.endswith(" ~") for c in got.values()),
          f"A against an exact copy: 1.00, not told apart: {got}")
    r = subprocess.run([COMPARE, RUN, bare], capture_output=True, text=True)
    got = l1d_rows(r.stdout)
    check(got and all(c == "1.00 (no interval)" for c in got.values()),
          f"a copy without intervals: no interval: {got}")
    # the answer: an exact copy gives the same winners; a copy in which every L1d group at one
    # thread is won by memset alone differs there; a copy without winner sets has no answer
    run = reader.load(RUN)
    l1d = {(r["kernel"], r["ws_bytes"]) for r in run.rows
           if r.get("ws_class") == "L1d" and r["threads"] == "1" and r["ws_mode"] == "call"}
    flipped, unpaired = os.path.join(tmp, "flipped.csv"), os.path.join(tmp, "unpaired.csv")

    def flip(r):
        if (r["kernel"], r["ws_bytes"]) in l1d:
            r["winner_set"] = "in" if r["kernel"] == "memset" else "out"

    def unpair(r):
        r["winner_set"] = ""
    reader.rewrite(RUN, flipped, flip)
    reader.rewrite(RUN, unpaired, unpair)
    ans = answer_rows(subprocess.run([COMPARE, RUN, same], capture_output=True,
                                     text=True).stdout)
    mine = ans.get(("L1d", "1"), ("", "", ""))
    check(mine[0] == mine[1] and "decided" in mine[0] and mine[2].startswith("same: ") and
          all(x[2].startswith("same") or x[2] == "—" for x in ans.values()),
          f"an exact copy: the same winners in every class: {ans}")
    ans = answer_rows(subprocess.run([COMPARE, RUN, flipped], capture_output=True,
                                     text=True).stdout)
    l1 = ans.get(("L1d", "1"), ("", "", ""))
    check(l1[1].startswith("memset (") and l1[2] == "differ" and
          all(v[2] != "differ" for k, v in ans.items() if k != ("L1d", "1")),
          f"memset alone in every L1d group of one copy: the answers differ there alone: {ans}")
    r = subprocess.run([COMPARE, RUN, unpaired], capture_output=True, text=True)
    ans = answer_rows(r.stdout)
    check(r.returncode == 0 and ans and all(v[1] == "—" and v[2] == "—" for v in ans.values()),
          f"a copy without winner sets: no answer on its side: {ans}")
    # a CSV from before ws_class: classed by the binary's rule from its metadata, said at the
    # top; without a binary to ask, "classes: none" there and one line on stderr
    old = os.path.join(ROOT, "results", "turin-vm", "20261203T034314Z.csv")
    r = subprocess.run([COMPARE, old, RUN], capture_output=True, text=True,
                       env={**os.environ, "STOREBENCH_BIN": STOREBENCH})
    top = r.stdout.split("## Settings that differ", 1)[0]
    l1d = l1d_rows(r.stdout)
    check(r.returncode == 0 and "`20261203T034314Z.csv` classed by `storebench class`" in top and
          l1d.get("memset", "—") != "—" and not r.stderr,
          f"an old CSV classed by storebench class, said at the top: {top[:900]!r}, L1d {l1d}")
    r = subprocess.run([COMPARE, old, RUN], capture_output=True, text=True,
                       env={**os.environ, "STOREBENCH_BIN": os.path.join(tmp, "none")})
    top = r.stdout.split("## Settings that differ", 1)[0]
    check(r.returncode == 0 and "**classes: none** in `20261203T034314Z.csv`" in top and
          "left without classes" in r.stderr and len(r.stderr.strip().splitlines()) == 1,
          f"no binary to ask: classes none, named at the top: {top[-400:]!r} {r.stderr!r}")
    other = os.path.join(tmp, "other.csv")
    with open(b1) as f, open(other, "w") as g:
        g.write(re.sub(r"^# cpu_brand=.*$", "# cpu_brand=Another CPU", f.read(), flags=re.M))
    r = subprocess.run([COMPARE, RUN, b1 + "," + other], capture_output=True, text=True)
    lines = r.stderr.strip().splitlines()
    check(r.returncode == 2 and len(lines) == 1 and "name 2 CPUs" in lines[0],
          f"runs of two CPUs pooled: exit 2, one line ({r.returncode}: {r.stderr!r})")


def main():
    unit()
    answers()
    with tempfile.TemporaryDirectory() as tmp:
        cli(tmp)
    return check.finish("crosscpu")


sys.exit(main())
