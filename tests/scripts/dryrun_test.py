#!/usr/bin/env python3
# dryrun_test.py — scripts/storebench/dryrun.py, the one reader of `storebench run --dry-run`, on
# the replayed 2-socket Genoa (32 KiB L1d, 1 MiB L2 per core, 32 MiB L3 per 8-core CCD): every
# point with its class and its thread count's shares, the shares at 1 and 2 threads, and a plan
# storebench refuses as one error.  Python 3 standard library.
"""usage: dryrun_test.py STOREBENCH MACHINES_DIR"""

import os
import sys

from testlib import Checker

STOREBENCH, MACHINES = sys.argv[1], sys.argv[2]
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "scripts"))
from storebench import dryrun  # noqa: E402

check = Checker()
GENOA = ["--topology", os.path.join(MACHINES, "topology", "genoa-2s-epyc-9654.xml")]
KIB, MIB = 1024, 1024 * 1024


def main():
    pts = dryrun.plan(STOREBENCH, ["--kernels", "memset", "--call", "4KiB,L2/2,L2,DRAM",
                                   "--threads", "1,2", *GENOA])
    got = [(p.threads, p.ws_bytes, p.cls) for p in pts]
    want = [(1, 4 * KIB, "L1d"), (1, 512 * KIB, "L2"), (1, MIB, "between"),
            (1, 128 * MIB, "DRAM"), (2, 4 * KIB, "L1d"), (2, 512 * KIB, "L2"),
            (2, MIB, "between"), (2, 64 * MIB, "DRAM")]
    check(got == want, f"points (threads, ws, class): {got}, want {want}")
    check(all(p.name.startswith("memset/call:") for p in pts), "each point has its name")
    one = dryrun.shares(STOREBENCH, 1, GENOA)
    two = dryrun.shares(STOREBENCH, 2, GENOA)
    check(one == dict(l1d=32 * KIB, l2=MIB, l3=32 * MIB, llc=32 * MIB) and
          two == dict(one, l3=16 * MIB, llc=16 * MIB),
          f"shares at 1 and 2 threads on one CCD: {one}, {two}")
    try:
        dryrun.plan(STOREBENCH, ["--kernels", "no_such_kernel", *GENOA])
        check(False, "a plan storebench refuses raises DryRunError")
    except dryrun.DryRunError as e:
        check("no_such_kernel" in str(e) and "\n" not in str(e), f"one line naming it: {e}")
    return check.finish("dryrun")


sys.exit(main())
