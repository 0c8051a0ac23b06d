#!/usr/bin/env python3
# load_test.py — `storebench load` end to end: real threads, real clocks, nothing mocked.
# Python 3 standard library.  Asserts what a user relies on, never a speed: the rows add up to
# the workers' own totals, a stop leaves a valid file, a kill loses only the current interval,
# a write cap is never exceeded, bad input is one line and exit 2 with no file.
"""usage: load_test.py STOREBENCH sums|signals|rate|once|errors|stall|full|ratio

sums     2 threads at rw 50 for 1.5 s in 0.25 s intervals: six whole intervals (and at most the
         stop's remainder, complete=0), every row's bytes are whole chunks,
         read and written alternate (as many of each, +-1 chunk a thread), and the rows' sums
         equal the workers' totals the summary reports (the rows come from the same counters).
signals  SIGINT and SIGTERM mid-load: exit 130 / 143, the last shorter interval (complete=0) and
         the summary written, sums equal; SIGINT during a 4 GiB first touch: exit 130 within
         2.5 s and no file; SIGKILL: every row written so far is whole and parses, and nothing
         else is in the file (no half row).
rate     --write-rate 0.2: the achieved rate never exceeds the cap by more than one chunk a
         thread over the run, and is not zero.
once     --once: the first touch timed, no data rows, exit 0.
errors   bad values, an unknown option or kernel, a chunk above --mem, too many --threads, an
         existing --csv, more memory than is available (--mem 20TiB, hugetlb without huge
         pages): exit 2, one printable stderr line naming the option or the memory, no new file.
stall    SIGSTOP for 1 s at 0.2 s intervals: one stretched row, complete=0, no catch-up rows.
full     a file size limit of 8 KiB: exit 1 naming the file, whole rows only, no summary.
ratio    --rw 3:1 (run's grammar): a chunk in four stored, load_rw_ratio 25.
"""

import csv
import os
import re
import resource
import signal
import subprocess
import sys
import tempfile
import time

from testlib import Checker

SB, PART = os.path.abspath(sys.argv[1]), sys.argv[2]
COLS = ["t_s", "interval_s", "read_bytes", "write_bytes", "read_gbps", "write_gbps", "total_gbps",
        "thread_min_gbps", "thread_min", "complete"]
SMALL = ["--mem", "16MiB", "--chunk", "4KiB", "--placement", "compact"]
check = Checker()


def read(path):
    """(metadata dict, rows, raw data lines) of a load CSV."""
    meta, lines = {}, []
    with open(path) as f:
        text = f.read()
    for line in text.splitlines():
        if line.startswith("# "):
            k, _, v = line[2:].partition("=")
            meta[k] = v
        elif line:
            lines.append(line)
    check(text.endswith("\n"), f"{path}: the file ends inside a line")
    return meta, list(csv.DictReader(lines)), lines


def load(d, name, args, during=None, timeout=60):
    path = os.path.join(d, name + ".csv")
    p = subprocess.Popen([SB, "load", "--csv", path] + args, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True)
    if during:
        during(p)
    out, err = p.communicate(timeout=timeout)
    return p.returncode, path, err


def sums_equal(name, meta, rows):
    for kind in ("read", "write"):
        got = sum(int(r[kind + "_bytes"]) for r in rows)
        want = int(meta.get("workers_%s_bytes" % kind, -1))
        check(got == want == int(meta.get("summary_%s_bytes" % kind, -2)),
              f"{name}: rows' {kind} bytes {got}, workers' {want}, summary "
              f"{meta.get('summary_%s_bytes' % kind)}")


def test_sums(d):
    rc, path, err = load(d, "sums", SMALL + ["--threads", "2", "--rw", "50", "--duration", "1.5",
                                              "--interval", "0.25"])
    check(rc == 0, f"sums: exit {rc}: {err}")
    meta, rows, lines = read(path)
    check(lines[0].split(",") == COLS, f"sums: header {lines[0]}")
    # six whole intervals, then at most the bytes between the last sample and the workers' stop
    whole = [r["complete"] for r in rows]
    check(whole[:6] == ["1"] * 6 and whole[6:] in ([], ["0"]),
          f"sums: complete flags {whole} (want 6 whole, then at most the stop's remainder)")
    for r in rows:
        for kind in ("read", "write"):
            check(int(r[kind + "_bytes"]) % 4096 == 0, f"sums: {kind} bytes not whole chunks: {r}")
        check(float(r["thread_min_gbps"]) <= float(r["total_gbps"]) and
              r["thread_min"] in ("0", "1"), f"sums: thread minimum {r}")
    reads = int(meta["workers_read_bytes"]) // 4096
    writes = int(meta["workers_write_bytes"]) // 4096
    check(writes > 0 and abs(reads - writes) <= 2, f"sums: rw 50 gave {reads} reads, {writes} writes")
    sums_equal("sums", meta, rows)
    for k in ("storebench_version", "cpu_codename", "command_line", "load_kernel", "load_cpus",
              "load_rw_ratio", "first_touch_s", "summary_write_gbps_mean"):
        check(k in meta, f"sums: metadata {k} missing")
    check(f"csv {path}" in err and "intervals" in err, f"sums: stderr {err!r}")


def test_signals(d):
    for sig, code in ((signal.SIGINT, 130), (signal.SIGTERM, 143)):
        def stop(p, sig=sig):
            time.sleep(1.2)
            p.send_signal(sig)

        rc, path, err = load(d, "sig%d" % sig, SMALL + ["--rw", "50", "--interval", "0.2"], stop)
        meta, rows, _ = read(path)
        check(rc == code, f"{sig.name}: exit {rc}, want {code}: {err}")
        check(rows and rows[-1]["complete"] == "0" and all(r["complete"] == "1" for r in rows[:-1]),
              f"{sig.name}: complete flags {[r['complete'] for r in rows]}")
        sums_equal(sig.name, meta, rows)

    # a signal during the first touch (4 GiB: seconds on a guest) stops it within a chunk, and
    # a load stopped before its first interval leaves no file (issue 40.5: 6.5 s to stop)
    def early(p):
        time.sleep(0.5)
        p.send_signal(signal.SIGINT)

    t0 = time.monotonic()
    rc, path, err = load(d, "early", ["--mem", "4GiB"], early)
    took = time.monotonic() - t0
    check(rc == 130 and took < 2.5 and not os.path.exists(path) and "no file" in err,
          f"SIGINT during the first touch: exit {rc} after {took:.1f} s, file left: "
          f"{os.path.exists(path)}: {err.strip()}")

    def kill(p):
        time.sleep(1.5)
        p.kill()

    rc, path, err = load(d, "kill", SMALL + ["--rw", "50", "--interval", "0.2"], kill)
    meta, rows, lines = read(path)
    check(rc == -signal.SIGKILL, f"SIGKILL: exit {rc}")
    check(len(rows) >= 2 and all(len(l.split(",")) == len(COLS) for l in lines) and
          all(r["complete"] == "1" for r in rows), f"SIGKILL: {len(rows)} rows: {lines[-2:]}")
    check("summary_intervals" not in meta, "SIGKILL: a summary nobody could write")


def test_stall(d):
    """Issue 40.6: after SIGSTOP/SIGCONT one stretched row, not complete, and no catch-up rows of
    a few microseconds and no bytes; the summary's minimum is a real interval's."""
    def stall(p):
        time.sleep(0.9)
        p.send_signal(signal.SIGSTOP)
        time.sleep(1.0)
        p.send_signal(signal.SIGCONT)

    rc, path, err = load(d, "stall", SMALL + ["--interval", "0.2", "--duration", "2.5"], stall)
    meta, rows, _ = read(path)
    check(rc == 0, f"stall: exit {rc}: {err}")
    dts = [float(r["interval_s"]) for r in rows]
    stretched = [r for r in rows if float(r["interval_s"]) > 0.5]
    check(len(stretched) == 1 and stretched[0]["complete"] == "0",
          f"stall: one stretched interval, not complete: {dts}")
    check(all(dt > 0.05 for dt in dts[:-1]), f"stall: no catch-up rows: {dts}")
    check(all(0.1 < float(r["interval_s"]) < 0.4 for r in rows if r["complete"] == "1"),
          f"stall: every complete row is about one interval: {dts}")
    check(all(float(r["write_gbps"]) > 0 for r in rows if r["complete"] == "1") and
          float(meta["summary_write_gbps_min"]) > 0,
          f"stall: the summary's minimum is a real interval's ({meta.get('summary_write_gbps_min')})")


def test_full(d):
    """Issue 40.1: a write that fails (here the file size limit, 8 KiB) is exit 1 naming the file,
    and the CSV keeps its preamble and whole rows only, no summary."""
    def limit():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (8 << 10, 8 << 10))

    path = os.path.join(d, "full.csv")
    r = subprocess.run([SB, "load", "--csv", path] + SMALL + ["--duration", "2", "--interval",
                                                              "0.01"],
                       capture_output=True, text=True, timeout=30, preexec_fn=limit)
    with open(path) as f:
        text = f.read()
    lines = [l for l in text.split("\n") if l and not l.startswith("#")]
    check(r.returncode == 1 and path in r.stderr and "storebench: csv" not in r.stderr,
          f"full: exit {r.returncode}, naming the file: {r.stderr.strip()}")
    check(text.endswith("\n") and len(lines) > 2 and
          all(len(l.split(",")) == len(COLS) for l in lines) and "summary_" not in text,
          f"full: whole rows only, no summary ({len(text)} bytes, last {lines[-1:]!r})")


def test_ratio(d):
    """--rw by run's grammar (issue 40.16: load refused 3:1 and 50.5): 3:1 stores one chunk in
    four, recorded as 25."""
    rc, path, err = load(d, "ratio", SMALL + ["--rw", "3:1", "--duration", "0.5",
                                               "--interval", "0.25"])
    meta, rows, _ = read(path)
    chunk = 4096
    rd, wr = int(meta.get("workers_read_bytes", 0)), int(meta.get("workers_write_bytes", 0))
    check(rc == 0 and meta.get("load_rw_ratio") == "25" and wr > 0 and
          abs(rd - 3 * wr) <= 4 * chunk, f"--rw 3:1: exit {rc}, ratio "
          f"{meta.get('load_rw_ratio')}, read {rd} vs 3 x written {3 * wr}: {err.strip()}")


def test_rate(d):
    rc, path, err = load(d, "rate", SMALL + ["--threads", "2", "--write-rate", "0.2",
                                              "--duration", "1.5", "--interval", "0.5"])
    meta, rows, _ = read(path)
    check(rc == 0, f"rate: exit {rc}: {err}")
    written, steady = int(meta["workers_write_bytes"]), float(meta["summary_steady_s"])
    cap = 0.2e9 * steady * 1.001 + 2 * 4096  # the workers pace on the RAW clock: 0.1 % slew
    check(0 < written <= cap, f"rate: {written} bytes in {steady} s, cap {cap:.0f}")
    check("write rate asked 0.200, achieved" in err, f"rate: stderr {err!r}")


def test_once(d):
    rc, path, err = load(d, "once", SMALL + ["--once"])
    meta, rows, _ = read(path)
    check(rc == 0 and not rows and float(meta["first_touch_s"]) > 0 and
          meta["summary_intervals"] == "0", f"once: exit {rc}, {len(rows)} rows, {meta.get('first_touch_s')}")
    # a relative --csv: the file line is absolute, as run's (issue 40.16: load printed it as
    # given)
    r = subprocess.run([SB, "load", "--csv", "rel.csv", "--once"] + SMALL, cwd=d,
                       capture_output=True, text=True, timeout=60)
    line = [l for l in r.stderr.splitlines() if l.startswith("storebench: csv ")]
    check(r.returncode == 0 and line == ["storebench: csv " + os.path.join(os.path.realpath(d),
                                                                            "rel.csv")],
          f"once: the csv line is the absolute path: {line}")


def test_errors(d):
    existing = os.path.join(d, "exists.csv")
    open(existing, "w").close()
    cases = [(["--rw", "101"], "--rw"), (["--interval", "0"], "--interval"),
             (["--threads", "x"], "--threads"), (["--mem", "1X"], "--mem"),
             (["--write-rate", "-1"], "--write-rate"), (["--bogus"], "--bogus"),
             (["--kernel", "nosuch"], "--kernel"), (["--chunk", "2MiB", "--mem", "1MiB"], "--chunk"),
             (["--duration"], "--duration"), (["--pages", "2m"], "--pages"),
             (["--interval", "0x10"], "--interval"), (["--machine", "../up"], "--machine"),
             (["--threads", str(len(os.sched_getaffinity(0)) + 1)], "CPUs are allowed here"),
             (["--mem", "20TiB"], "MemAvailable"), (["--once", "--duration", "2"], "--once"),
             (["--once", "--write-rate", "1"], "--write-rate"), (["--chunk", "63"], "--chunk"),
             (["--csv", ""], "--csv"), (["--csv", "x" * 5000], "--csv")]
    for args, name in cases:
        before = set(os.listdir(d))
        r = subprocess.run([SB, "load", "--csv", os.path.join(d, "e.csv")] + args,
                           capture_output=True, text=True, timeout=30)
        lines = r.stderr.strip().splitlines()
        check(r.returncode == 2 and len(lines) == 1 and name in lines[0] and
              lines[0].isprintable() and set(os.listdir(d)) == before,
              f"errors {args}: exit {r.returncode}, {lines}")
    # a load that cannot start leaves no header-only CSV (issue 40.11); no huge pages here
    with open("/proc/meminfo") as f:
        huge = re.search(r"HugePages_Total:\s*(\d+)", f.read())
    if huge and huge.group(1) == "0":
        r = subprocess.run([SB, "load", "--csv", os.path.join(d, "huge.csv"), "--pages",
                            "hugetlb"] + SMALL, capture_output=True, text=True, timeout=30)
        check(r.returncode == 2 and "huge pages" in r.stderr and
              not os.path.exists(os.path.join(d, "huge.csv")),
              f"errors: a load whose memory cannot be had leaves no file: exit {r.returncode}, "
              f"{os.listdir(d)}: {r.stderr.strip()}")
    r = subprocess.run([SB, "load", "--csv", existing, "--once"] + SMALL, capture_output=True,
                       text=True, timeout=30)
    check(r.returncode == 2 and os.path.getsize(existing) == 0 and "never overwritten" in r.stderr,
          f"errors: existing --csv: exit {r.returncode}, {r.stderr.strip()}")


if __name__ == "__main__":
    parts = {"sums": test_sums, "signals": test_signals, "rate": test_rate, "once": test_once,
             "errors": test_errors, "stall": test_stall, "full": test_full,
             "ratio": test_ratio}
    if PART not in parts:
        sys.exit(__doc__)
    with tempfile.TemporaryDirectory() as tmp:
        parts[PART](tmp)
    sys.exit(check.finish("load " + PART))
