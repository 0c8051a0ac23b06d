#!/usr/bin/env python3
# steps_test.py — scripts/storebench/steps.py, the smoothness count of scripts/table --section
# steps, on a CSV written here: the plateaus are the rows' classes (ws_class, the binary's), the
# first class only from a quarter of a thread's L1d share, which neighbouring pairs count, their
# steps, the flagged pairs and the summary in the run's level order.
# Python 3 standard library.  Why: the count compares ways of measuring; a pair counted across
# a capacity would read a cache edge as host drift.
"""usage: steps_test.py REPO_ROOT"""

import os
import sys
import tempfile

ROOT = sys.argv[1]
sys.path.insert(0, os.path.join(ROOT, "scripts"))
from storebench import reader, steps  # noqa: E402
from testlib import Checker  # noqa: E402

check = Checker()
KIB, MIB = 1024, 1024 * 1024
# one thread's caches: L1d 32 KiB and L2 1 MiB per core, L3 32 MiB shared by 2 threads' CPUs
META = ["# cache_l1d_bytes=32768", "# cache_l2_bytes=1048576", "# cache_l3_bytes=33554432",
        "# cache_l1d_shared_cpus=2", "# cache_l2_shared_cpus=2", "# level_names=L1d,L2,L3,DRAM"]
HEAD = ("kernel,call_bytes,ws_mode,ws_bytes,threads,l2_threads,l3_threads,ws_class,rw_ratio,"
        "misalign_bytes,gbps_median,quality")


def row(ws, gbps, cls, threads=1, quality="ok", kernel="memset"):
    """A curve point: ws bytes per thread of class cls as the binary would write it, threads
    sharing one core (its L1d and L2) and one L3."""
    return "%s,%d,call,%d,%d,%d,%d,%s,100,0,%g,%s" % (kernel, ws, ws, threads, threads, threads,
                                                      cls, gbps, quality)


def main():
    rows = [row(4 * KIB, 50, "L1d"),                    # below L1d/4: still amortising
            row(8 * KIB, 100, "L1d"), row(16 * KIB, 110, "L1d"),  # L1d: 8 (L1d/4) .. 16 KiB
            row(32 * KIB, 60, ""),                       # the L1d's capacity: no plateau
            row(128 * KIB, 90, "L2"), row(256 * KIB, 90, "L2", quality="cv"),
            row(512 * KIB, 81, "L2"),                    # L2
            row(1 * MIB, 70, ""),                        # L2's capacity
            row(4 * MIB, 50, "L3"), row(16 * MIB, 40, "L3"),  # L3
            row(32 * MIB, 30, ""),                       # L3's capacity
            row(128 * MIB, 20, "DRAM"), row(256 * MIB, 22, "DRAM")]  # DRAM
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "steps.csv")
        with open(path, "w") as f:
            f.write("\n".join(META + [HEAD] + rows) + "\n")
        run = reader.load(path)
    want = {4 * KIB: None, 8 * KIB: "L1d", 16 * KIB: "L1d", 32 * KIB: None, 128 * KIB: "L2",
            256 * KIB: "L2", 512 * KIB: "L2", MIB: None, 4 * MIB: "L3", 16 * MIB: "L3",
            32 * MIB: None, 128 * MIB: "DRAM", 256 * MIB: "DRAM"}
    got = {int(r["ws_bytes"]): steps.plateau(run, r) for r in run.rows}
    check(got == want, f"plateaus {got}, want {want}")
    found = steps.steps(run)
    pairs = [(s.plateau, s.ws_a, s.ws_b, round(s.step, 3), s.flagged) for s in found]
    check(pairs == [("L1d", 8 * KIB, 16 * KIB, 0.1, False),
                    ("L2", 128 * KIB, 256 * KIB, 0.0, True),
                    ("L2", 256 * KIB, 512 * KIB, 0.1, True),
                    ("L3", 4 * MIB, 16 * MIB, 0.2, False),
                    ("DRAM", 128 * MIB, 256 * MIB, 0.1, False)],
          f"only neighbours inside one plateau count, with |ratio - 1|: {pairs}")
    summary = steps.summary(found[::-1], 0.15, ("L1d", "L2", "L3", "DRAM"))
    l2 = summary["L2"]
    check(summary["all"][:2] == (5, 1) and l2[:2] == (2, 0) and abs(l2[2] - 0.05) < 1e-9 and
          l2[3] == 2 and summary["L3"][1] == 1 and
          list(summary) == ["L1d", "L2", "L3", "DRAM", "all"],
          f"summary over the 15 % limit, in the levels' order: {summary}")
    # at two threads on one core each thread owns half the L1d: 8 KiB is then a quarter of it
    two = [row(4 * KIB, 30, "L1d", threads=2), row(8 * KIB, 20, "L1d", threads=2)]
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "two.csv")
        with open(path, "w") as f:
            f.write("\n".join(META + [HEAD] + two) + "\n")
        run2 = reader.load(path)
    got = [steps.plateau(run2, r) for r in run2.rows]
    check(got == ["L1d", "L1d"], f"the L1d quarter at 2 threads per core (16 KiB each): {got}")
    # a CSV from before ws_class has no classes, so no plateaus and no steps
    old = [",".join(f for i, f in enumerate(r.split(",")) if i != 7)
           for r in [HEAD] + rows[1:3]]
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "old.csv")
        with open(path, "w") as f:
            f.write("\n".join(META[:-1] + old) + "\n")
        run3 = reader.load(path)
    check(steps.steps(run3) == [], "no steps without the ws_class column")
    return check.finish("steps")


sys.exit(main())
