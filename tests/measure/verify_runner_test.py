#!/usr/bin/env python3
# verify_runner_test.py — verification through the real runner: a memset kernel made faulty by an
# LD_PRELOAD (one byte short, one past, nothing) fails every working-set mode and misalignment,
# with verified=failed, empty numbers, one stderr line per point and exit status 1.
# Usage: verify_runner_test.py <storebench> <libbroken_memset.so>
import os
import subprocess
import sys
import tempfile

from testlib import Checker

SB, LIB = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
check = Checker()
# call, hot, cold (random 64-byte offsets), seq and random working sets; 21 = misaligned
WS = ["call", "hot", "cold", "8000", "random:8000"]
RATES = ("gbps_median", "ns_per_call_median", "ticks_per_call_median")


def run(mode, ws, tmp):
    csv = os.path.join(tmp, f"{mode}-{ws.replace(':', '_')}.csv")
    env = dict(os.environ, LD_PRELOAD=LIB, BROKEN_MEMSET=mode)
    # no drift canary: it verifies nothing here, and its buffers (4 x LLC, up to 1 GiB) cost
    # seconds a run where a guest reports a huge L3; THP pages: the cold working set (4 x LLC,
    # 2 GiB on a guest reporting a 508 MiB L3) faults in 2 MiB at a time, not 4 KiB (23 s -> 8 s)
    p = subprocess.run([SB, "run", "--kernels", "memset", "--fill", "0x3c", "--call", "1000",
                        "--ws", ws, "--pages", "thp", "--misalign", "0,21", "--threads", "1", "--repetitions", "1",
                        "--min-time", "0.001", "--canary", "off", "--csv", csv],
                       capture_output=True, text=True, env=env)
    lines = [x for x in open(csv).read().splitlines() if not x.startswith("#")] \
        if os.path.exists(csv) else []
    rows = [dict(zip(lines[0].split(","), x.split(","))) for x in lines[1:]] if lines else []
    return p, rows


with tempfile.TemporaryDirectory() as tmp:
    for ws in WS:
        # the control: the same runs with the preload but a correct memset pass
        p, rows = run("ok", ws, tmp)
        check(p.returncode == 0 and len(rows) == 2 and
              all(r["verified"] == "ok" and r["gbps_median"] for r in rows),
              f"ws {ws}: a correct memset under the preload did not verify: {p.stderr.strip()}")
        for mode in ("short", "past", "none"):
            if mode == "past" and ws in ("cold", "random:8000"):
                continue  # scattered calls overlap their neighbours: a byte past can land on one
            p, rows = run(mode, ws, tmp)
            check(p.returncode == 1, f"{mode} {ws}: exit status {p.returncode}, want 1")
            check(len(rows) == 2, f"{mode} {ws}: {len(rows)} rows, want 2 (misalign 0 and 21)")
            for r in rows:
                check(r["verified"] == "failed", f"{mode} {ws}: row verified={r['verified']}")
                check(all(r[c] == "" for c in RATES), f"{mode} {ws}: a failed point has numbers")
            check(p.stderr.count("verification failed") == 2,
                  f"{mode} {ws}: want one 'verification failed' line per point: {p.stderr}")

sys.exit(check.finish("faulty stores fail verification through storebench run"))
