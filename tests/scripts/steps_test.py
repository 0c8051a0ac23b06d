#!/usr/bin/env python3
# steps_test.py — scripts/storebench/steps.py, the smoothness count of scripts/table --section
# steps, on a CSV written here: which plateau each working set lies in (per thread, from its
# cache shares), which neighbouring pairs count, their steps, the flagged pairs and the summary.
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
        "# cache_l1d_shared_cpus=1", "# cache_l2_shared_cpus=1"]
HEAD = ("kernel,call_bytes,ws_mode,ws_bytes,threads,l2_threads,l3_threads,rw_ratio,"
        "misalign_bytes,gbps_median,quality")


def row(ws, gbps, threads=1, quality="ok", kernel="memset"):
    """A curve point: ws bytes per thread (ws_bytes is per thread), threads on their own cores
    and sharing one L3."""
    return "%s,%d,call,%d,%d,%d,%d,100,0,%g,%s" % (kernel, ws, ws, threads, 1, threads, gbps,
                                                   quality)


def main():
    rows = [row(8 * KIB, 100), row(16 * KIB, 110),      # L1: 8 (L1d/4) .. 16 KiB (L1d/2)
            row(32 * KIB, 60),                           # the L1d's capacity: no plateau
            row(64 * KIB, 90), row(128 * KIB, 90, quality="cv"), row(512 * KIB, 81),  # L2
            row(1 * MIB, 70),                            # L2's capacity
            row(2 * MIB, 50), row(16 * MIB, 40),         # L3 (its 32 MiB at one thread)
            row(32 * MIB, 30),                           # L3's capacity
            row(64 * MIB, 20), row(128 * MIB, 22)]       # DRAM (2 x the L3 and beyond)
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "steps.csv")
        with open(path, "w") as f:
            f.write("\n".join(META + [HEAD] + rows) + "\n")
        run = reader.load(path)
    want = {8 * KIB: "L1", 16 * KIB: "L1", 32 * KIB: None, 64 * KIB: "L2", 128 * KIB: "L2",
            512 * KIB: "L2", MIB: None, 2 * MIB: "L3", 16 * MIB: "L3", 32 * MIB: None,
            64 * MIB: "DRAM", 128 * MIB: "DRAM"}
    got = {int(r["ws_bytes"]): steps.plateau(run, r) for r in run.rows}
    check(got == want, f"plateaus {got}, want {want}")
    found = steps.steps(run)
    pairs = [(s.plateau, s.ws_a, s.ws_b, round(s.step, 3), s.flagged) for s in found]
    check(pairs == [("L1", 8 * KIB, 16 * KIB, 0.1, False),
                    ("L2", 64 * KIB, 128 * KIB, 0.0, True),
                    ("L2", 128 * KIB, 512 * KIB, 0.1, True),
                    ("L3", 2 * MIB, 16 * MIB, 0.2, False),
                    ("DRAM", 64 * MIB, 128 * MIB, 0.1, False)],
          f"only neighbours inside one plateau count, with |ratio - 1|: {pairs}")
    summary = steps.summary(found, 0.15)
    l2 = summary["L2"]
    check(summary["all"][:2] == (5, 1) and l2[:2] == (2, 0) and abs(l2[2] - 0.05) < 1e-9 and
          l2[3] == 2 and summary["L3"][1] == 1,
          f"summary over the 15 % limit: {summary}")
    # at two threads each thread owns half the L3: 8 MiB per thread is then past its share
    two = [row(8 * MIB, 30, threads=2), row(16 * MIB, 20, threads=2)]
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "two.csv")
        with open(path, "w") as f:
            f.write("\n".join(META + [HEAD] + two) + "\n")
        run2 = reader.load(path)
    got = [steps.plateau(run2, r) for r in run2.rows]
    check(got == ["L3", None], f"per-thread shares at 2 threads (16 MiB of L3 each): {got}")
    return check.finish("steps")


sys.exit(main())
