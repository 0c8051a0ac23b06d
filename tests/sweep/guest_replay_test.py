#!/usr/bin/env python3
# guest_replay_test.py — the Emerald Rapids guest (2 vCPUs, a 300 MiB L3 reported, memory speed
# from about 64 MiB) replayed through the level rule and the quick preset's plan (issue 38).
# reported: its levels as reported leave the one-thread sweep without a DRAM-class size (the
# failure seen on that guest); measured: a levels file standing in for its scan (the Turin guest's
# real one: the same two CPUs) gives a DRAM class at every count, no size past 8 x the measured
# LLC share, and says which level is measured; refused: a replay is never scanned.
# Python 3 standard library.
"""usage: guest_replay_test.py STOREBENCH FIXTURES_DIR PART"""

import os
import subprocess
import sys

from testlib import Checker

STOREBENCH, FIXTURES, PART = sys.argv[1], sys.argv[2], sys.argv[3]
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "scripts"))
from storebench import dryrun  # noqa: E402

check = Checker()
GUEST = os.path.join(FIXTURES, "machines", "guests", "emerald-rapids-vm-2vcpu")
REPLAY = ["--topology", GUEST + ".xml", "--cpuid", GUEST + ".test"]
LEVELS = os.path.join(FIXTURES, "levels", "turin-vm-2vcpu.levels")
MIB = 1 << 20


def by_threads(points):
    out = {}
    for p in points:
        out.setdefault(p.threads, []).append(p)
    return out


def part_reported():
    counts = by_threads(dryrun.plan(STOREBENCH, [*REPLAY, "--levels", "reported"]))
    check(sorted(counts) == [1, 2], "the quick preset plans 1 and 2 threads: %s" % sorted(counts))
    one = counts.get(1, [])
    check(one and one[0].shares["l3"] == 300 * MIB and one[0].shares["llc"] == 300 * MIB,
          "as reported, a thread alone owns the 300 MiB L3: %s" % (one[0].shares if one else {}))
    check(one and not any(p.cls == "DRAM" for p in one) and max(p.ws_bytes for p in one) == 1024 * MIB,
          "so DRAM stops at its 1 GiB ceiling, below 4 x 300 MiB, and no size is DRAM-class")
    # auto on a replayed machine is the reported levels: nothing to measure
    auto = dryrun.plan(STOREBENCH, REPLAY)
    check([(p.ws_bytes, p.cls) for p in auto] == [(p.ws_bytes, p.cls) for c in (1, 2)
                                                   for p in counts.get(c, [])],
          "--levels auto on a replay plans as reported")


def measured_levels():
    """{threads: (L1d, L2, L3)} of the levels file's entries (tab-separated 'entry' lines)."""
    out = {}
    with open(LEVELS) as f:
        for line in f:
            field = line.rstrip("\n").split("\t")
            if field[0] == "entry":
                out[int(field[1])] = tuple(int(v) for v in field[4:7])
    return out


def part_measured():
    args = [*REPLAY, "--levels", LEVELS]
    found = measured_levels()
    counts = by_threads(dryrun.plan(STOREBENCH, args))
    r = subprocess.run([STOREBENCH, "run", "--dry-run", *args], capture_output=True, text=True)
    lines = [l for l in r.stdout.splitlines() if l.startswith("threads=")]
    for t in (1, 2):
        pts = counts.get(t, [])
        llc = pts[0].shares["llc"] if pts else 0
        check(pts and any(p.cls == "DRAM" for p in pts),
              "%d thread(s): a DRAM-class size with the measured levels" % t)
        check(pts and 0 < llc < 100 * MIB and max(p.ws_bytes for p in pts) <= 8 * llc,
              "%d thread(s): no size past 8 x the measured LLC share (%d MiB): largest %s" %
              (t, llc >> 20, max((p.ws_bytes for p in pts), default=None)))
        # the guest reports 48 KiB L1d and 2 MiB L2 a vCPU: a measured share replaces them only
        # when more than 2x away (the Turin scan's L2 at 2 threads is)
        l1d, l2, l3 = found.get(t, (0, 0, 0))
        want = (l1d if max(l1d, 48 << 10) > 2 * min(l1d, 48 << 10) else 48 << 10,
                l2 if max(l2, 2 * MIB) > 2 * min(l2, 2 * MIB) else 2 * MIB, l3)
        got = (pts[0].shares["l1d"], pts[0].shares["l2"], llc) if pts else None
        check(got == want, "%d thread(s): L1d, L2, LLC by the factor rule: %s, want %s"
              % (t, got, want))
        check(any(l.startswith("threads=%d " % t) and "L3:measured(reported:" in l
                  for l in lines), "%d thread(s): the plan says the L3 is measured" % t)


def part_refused():
    r = subprocess.run([STOREBENCH, "run", "--dry-run", *REPLAY, "--levels", "measure"],
                       capture_output=True, text=True)
    check(r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1 and
          "never measured" in r.stderr, "--levels measure on a replay: exit 2, one line: %s"
          % r.stderr.strip())
    empty = os.path.join(os.environ.get("TMPDIR", "/tmp"), "guest_replay_empty.levels")
    open(empty, "w").close()
    for bad in ("/dev/zero", os.path.join(FIXTURES, "machines", "README.md"), "/no/such/file",
                empty):
        r = subprocess.run([STOREBENCH, "run", "--dry-run", *REPLAY, "--levels", bad],
                           capture_output=True, text=True)
        check(r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1 and
              "--levels" in r.stderr and not r.stdout,
              "--levels %s: exit 2, one line, no plan: %s" % (bad, r.stderr.strip()))


{"reported": part_reported, "measured": part_measured, "refused": part_refused}[PART]()
sys.exit(check.finish("guest_replay_test." + PART))
