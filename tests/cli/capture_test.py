#!/usr/bin/env python3
# capture_test.py — `storebench capture`: exact counts from a multithreaded program, its
# forked child and the program it execs, a program killed by SIGTERM or stopped by Ctrl-C, and its errors; the bundled
# distributions as `storebench list --distributions` describes them.
# Python 3 standard library.
# Why: a capture is what a user's own answer rests on: it must count every call of every
# thread and process, survive the ways programs end, and never leave half a file.
"""usage: capture_test.py STOREBENCH MEMSET_CALLS DISTRIBUTIONS_DIR counts|signals|errors|bundled"""

import os
import re
import signal
import subprocess
import sys
import tempfile
import time

from testlib import Checker

STOREBENCH, HELPER, BUNDLED = (os.path.abspath(p) for p in sys.argv[1:4])
check = Checker()


def capture(tmp, *args, **kw):
    return subprocess.run([STOREBENCH, "capture", *args], capture_output=True, text=True,
                          cwd=tmp, timeout=60, **kw)


def counts(path):
    """SIZE -> COUNT of a capture file, and its comment lines."""
    out, comments = {}, []
    with open(path) as f:
        for line in f:
            if line.startswith("#"):
                comments.append(line)
                continue
            size, n = map(int, line.split())
            check(size not in out, f"size {size} written once")
            out[size] = n
    return out, comments


def expected(threads, calls):
    want = {100 * (t + 1): calls for t in range(threads)}
    want[100000] = threads
    want[7] = 5
    return want


def counted(tmp):
    out = os.path.join(tmp, "eight.dist")
    r = capture(tmp, "-o", out, "--", HELPER, "8", "5000")
    got, comments = counts(out) if os.path.isfile(out) else ({}, [])
    want = expected(8, 5000)
    check(r.returncode == 0 and all(got.get(s) == n for s, n in want.items()),
          f"8 threads x 5000 calls and a forked child: every call counted "
          f"({r.returncode}, {r.stderr[-300:]}; {[(s, got.get(s), n) for s, n in want.items()]})")
    check(any("memset_calls 8 5000" in c for c in comments) and
          re.search(r"\d+ programs", "".join(comments)),
          f"the header names the command and its programs: {comments}")
    # an exec keeps the process but runs no exit handler: the image before it is counted too
    out = os.path.join(tmp, "exec.dist")
    r = capture(tmp, "-o", out, "--", HELPER, "2", "100", "exec")
    got = counts(out)[0] if os.path.isfile(out) else {}
    want = {100: 100 + 2, 200: 100, 100000: 2 + 1, 7: 5 + 5}
    check(r.returncode == 0 and all(got.get(s) == n for s, n in want.items()),
          f"a program that execs itself: both images counted ({r.returncode}, {r.stderr[-200:]};"
          f" {[(s, got.get(s), n) for s, n in want.items()]})")
    # more distinct sizes from 64 KiB up than the library's table holds: the rest said, not lost
    out = os.path.join(tmp, "many.dist")
    r = capture(tmp, "-o", out, "--", HELPER, "1", "1", "many")
    got, comments = counts(out) if os.path.isfile(out) else ({}, [])
    big = sum(n for s, n in got.items() if 65536 <= s < 65536 + 20000)
    lost = re.search(r"not counted: (\d+) calls", "".join(comments))
    check(r.returncode == 0 and lost and big + int(lost.group(1)) == 20000 and big > 10000 and
          "were not counted" in r.stderr,
          f"20000 large sizes: counted {big}, the rest said ({comments[:3]}, {r.stderr[-300:]})")
    check(re.search(r"sizes p50 \d+, p90 \d+, p99 \d+, max 100000 bytes", r.stderr),
          f"the quantiles said: {r.stderr[-300:]}")
    # the capture replays: storebench list reads files the run reads
    again = capture(tmp, "-o", out, "--", HELPER, "1", "1")
    check(again.returncode == 2 and "exists" in again.stderr and counts(out)[0] == got,
          f"an existing capture is never overwritten ({again.returncode}: {again.stderr!r})")
    default = capture(tmp, "--", HELPER, "1", "3")
    path = os.path.join(tmp, "memset_calls-memset.dist")
    check(default.returncode == 0 and os.path.isfile(path) and
          counts(path)[0].get(100) == 3, f"the default file name: {os.listdir(tmp)}")
    status = capture(tmp, "-o", os.path.join(tmp, "bad.dist"), "--", HELPER, "0", "1")
    check(status.returncode == 2 and "usage: memset_calls" in status.stderr,
          f"the command's exit status passed on ({status.returncode})")


def stopped(tmp, name, sig, to_capture):
    """The helper waiting after its calls, then sig to it (its pid from ps) or to capture."""
    out = os.path.join(tmp, name + ".dist")
    p = subprocess.Popen([STOREBENCH, "capture", "-o", out, "--", HELPER, "3", "1000", "wait"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp)
    ready = p.stdout.readline().strip()
    helper = subprocess.run(["pgrep", "-P", str(p.pid)], capture_output=True, text=True)
    pids = [int(x) for x in helper.stdout.split()]
    os.kill(p.pid if to_capture else pids[0], sig)
    _, err = p.communicate(timeout=30)
    got = counts(out)[0] if os.path.isfile(out) else {}
    want = expected(3, 1000)
    check(ready == "ready" and len(pids) == 1 and p.returncode == 128 + sig and
          all(got.get(s) == n for s, n in want.items()),
          f"{name}: the calls before the signal counted, exit {128 + sig} "
          f"({ready!r}, {pids}, {p.returncode}, {err[-300:]!r}, {got})")
    check(not [f for f in os.listdir(tmp) if f.endswith(".partial")], f"{name}: no partial file")


def signals(tmp):
    stopped(tmp, "sigterm", signal.SIGTERM, False)
    stopped(tmp, "ctrl-c", signal.SIGINT, True)


def errors(tmp):
    for args, want in ((["--", "/no/such/program"], "cannot run /no/such/program"),
                       (["--"], "no command to run"),
                       (["--bogus", "--", "true"], "unknown argument '--bogus'"),
                       (["-o", os.path.join(tmp, "nothing.dist"), "--", "/bin/true"],
                        "made no memset call"),
                       (["-o", os.path.join(tmp, "killed.dist"), "--", "sh", "-c",
                         "kill -9 $$"], "ended by signal 9 before any program wrote")):
        r = capture(tmp, *args)
        check(r.returncode in (2, 127) and want in r.stderr,
              f"{args}: exit 2 (127 for a command that cannot run) saying {want!r} "
              f"({r.returncode}: {r.stderr!r})")
    check(not os.path.exists(os.path.join(tmp, "nothing.dist")),
          "no file when nothing was counted")
    r = capture(tmp, "--help")
    check(r.returncode == 0 and r.stdout.startswith("usage: storebench capture"), "--help")


def quantile(sizes, q):
    """The smallest size s with P(size <= s) >= q of {size: count}."""
    total, run = sum(sizes.values()), 0
    for s in sorted(sizes):
        run += sizes[s]
        if run >= q * total:
            return s
    return None


def bundled(tmp):
    """Every file of bench/distributions listed once, its quantiles, largest size and mean
    those of its own counts, its source its first line."""
    r = subprocess.run([STOREBENCH, "list", "--distributions", "--tsv"], capture_output=True,
                       text=True)
    lines = r.stdout.splitlines()
    rows = {ln.split("\t")[0]: ln.split("\t") for ln in lines[1:]}
    files = sorted(f for f in os.listdir(BUNDLED) if f.endswith(".dist"))
    check(r.returncode == 0 and lines[0].split("\t") == [
        "name", "p50_bytes", "p90_bytes", "p99_bytes", "max_bytes", "mean_bytes", "source"] and
        sorted(rows) == [f[:-len(".dist")] for f in files],
        f"one row a bundled file: {sorted(rows)} vs {files} ({r.stderr!r})")
    for f in files:
        sizes, comments = counts(os.path.join(BUNDLED, f))
        row = rows.get(f[:-len(".dist")])
        mean = sum(s * n for s, n in sizes.items()) / sum(sizes.values())
        want = [quantile(sizes, 0.5), quantile(sizes, 0.9), quantile(sizes, 0.99), max(sizes)]
        check(row and [int(v) for v in row[1:5]] == want and
              abs(float(row[5]) - mean) < 0.05 and row[6] == comments[0][1:].strip(),
              f"{f}: p50, p90, p99, max {want}, mean {mean:.1f}, source its first line: {row}")


def main():
    parts = {"counts": counted, "signals": signals, "errors": errors, "bundled": bundled}
    if len(sys.argv) != 5 or sys.argv[4] not in parts:
        sys.exit(__doc__)
    with tempfile.TemporaryDirectory(prefix="sb-capture-test-") as tmp:
        parts[sys.argv[4]](tmp)
    return check.finish("capture: " + sys.argv[4])


sys.exit(main())
