#!/usr/bin/env python3
# iosafe_test.py — what `storebench run` writes survives a hostile system (issue 9 items 1-4):
# a full disk (a real 12 KiB tmpfs when root, else a real file-size limit), closed stdout and
# stderr, a result path swapped for a symlink mid-run, and paths too long for the buffers.
# Real files and descriptors only; nothing is mocked.
# Usage: iosafe_test.py <storebench> diskfull|closedfds|symlink|longpath   (python3 stdlib)
import csv
import io
import json
import os
import resource
import signal
import subprocess
import sys
import tempfile
import time

SB, PART = os.path.abspath(sys.argv[1]), sys.argv[2]
TINY = ["--kernels", "memset", "--threads", "1", "--call", "4KiB", "--repetitions", "1",
        "--min-time", "0.001"]
# the reproduction: 27 points, more than a 12 KiB file system holds
MANY = ["--kernels", "memset,avx2_t_u4,sse2_t_u1", "--call", "4KiB..1MiB:x2", "--threads", "1",
        "--repetitions", "1", "--min-time", "0.001"]
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what)
    else:
        print("ok:", what)


def run(args, cwd, **kw):
    return subprocess.run([SB, "run"] + args, cwd=cwd, capture_output=True, text=True, **kw)


def rows_of(path):
    """(header, rows) of a storebench CSV; every row must have the header's field count."""
    text = open(path, encoding="utf-8").read()
    body = [line for line in text.splitlines(True) if not line.startswith("#")]
    table = list(csv.reader(io.StringIO("".join(body))))
    return text, table[0], table[1:]


def complete_pair(csv_path, json_path, what):
    """Both files whole: every CSV row complete and newline-ended, the JSON valid, and the same
    points in both.  Returns the number of rows."""
    text, head, rows = rows_of(csv_path)
    check(text.endswith("\n"), f"{what}: the CSV ends with a whole line")
    check(all(len(r) == len(head) for r in rows), f"{what}: every CSV row has {len(head)} fields")
    try:
        doc = json.load(open(json_path))
    except ValueError as e:
        check(False, f"{what}: the JSON is valid ({e})")
        return len(rows)
    names = [b["run_name"] for b in doc["benchmarks"] if b.get("run_type") == "iteration"]
    check(len(names) == len(rows), f"{what}: JSON has {len(names)} points, CSV {len(rows)} rows")
    return len(rows)


def small_fs(d):
    """Mount a 12 KiB tmpfs on d (root only); False where that is not allowed."""
    if os.geteuid() != 0:
        return False
    return subprocess.run(["mount", "-t", "tmpfs", "-o", "size=12k", "tmpfs", d],
                          capture_output=True).returncode == 0


def diskfull():
    with tempfile.TemporaryDirectory() as d:
        fs = os.path.join(d, "fs")
        os.mkdir(fs)
        mounted = small_fs(fs)
        limit = None
        if not mounted:
            # no mount here: a real per-file size limit (writes past it fail with EFBIG)
            limit = 8192
            print("note: not root, using RLIMIT_FSIZE", limit, "instead of a 12 KiB tmpfs")

        def limited():
            if limit:
                signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
                resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

        try:
            a = os.path.join(fs, "a.csv")
            r = run(MANY + ["--csv", a], d, preexec_fn=limited, timeout=120)
            err = [line for line in r.stderr.splitlines() if line.startswith("storebench run:")]
            check(r.returncode == 1, f"a full disk exits 1 (got {r.returncode})")
            check(len(err) == 1 and "writing " + fs in err[0] and
                  ("No space left" in err[0] or "too large" in err[0]),
                  f"one line names the file and why: {err}")
            if os.path.exists(a):
                n = complete_pair(a, os.path.join(fs, "a.json"), "disk full")
                check(0 < n < 27, f"some but not all 27 points kept ({n})")
                check(f"keep the {n} complete points" in r.stderr, "the line says what is kept")
            else:
                check(not os.listdir(fs) and "both files removed" in r.stderr,
                      "no point fitted: both files removed and said so")
            for f in os.listdir(fs):
                os.unlink(os.path.join(fs, f))
            # too small for even one point: nothing half-written is left
            if mounted:
                subprocess.run(["mount", "-o", "remount,size=4k", fs], check=True)
            else:
                limit = 3000
            r = run(MANY + ["--csv", a], d, preexec_fn=limited, timeout=120)
            check(r.returncode == 1 and os.listdir(fs) == [] and "both files removed" in r.stderr,
                  f"no room for one point: exit 1, both files removed ({r.returncode}, "
                  f"{os.listdir(fs)}, {r.stderr.strip().splitlines()[-1:]})")
        finally:
            if mounted:
                subprocess.run(["umount", fs])


def closedfds():
    def close(*fds):
        return lambda: [os.close(fd) for fd in fds]

    for fds, what in (((1,), "stdout"), ((2,), "stderr"), ((1, 2), "stdout and stderr"),
                      ((0, 1, 2), "stdin, stdout and stderr")):
        with tempfile.TemporaryDirectory() as d:
            a = os.path.join(d, "a.csv")
            r = subprocess.run([SB, "run"] + TINY + ["--csv", a], cwd=d, preexec_fn=close(*fds),
                               stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL, timeout=60)
            check(r.returncode == 0, f"{what} closed: exit {r.returncode}")
            if not os.path.exists(a):
                check(False, f"{what} closed: no CSV")
                continue
            text, head, rows = rows_of(a)
            check(len(rows) == 1 and all(len(x) == len(head) for x in rows),
                  f"{what} closed: the CSV holds exactly its one row")
            check("Benchmark" not in text and "storebench: point" not in text,
                  f"{what} closed: no console table or progress in the CSV")
            complete_pair(a, os.path.join(d, "a.json"), f"{what} closed")


def symlink():
    """Swap the JSON's path for a symlink to an unrelated file as soon as it exists: the run
    keeps writing its own file and the unrelated one is untouched."""
    with tempfile.TemporaryDirectory() as d:
        victim = os.path.join(d, "victim.txt")
        open(victim, "w").write("precious\n")
        j, a = os.path.join(d, "a.json"), os.path.join(d, "a.csv")
        p = subprocess.Popen([SB, "run"] + TINY + ["--csv", a], cwd=d, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
        swapped, t0 = False, time.monotonic()
        while p.poll() is None and time.monotonic() - t0 < 30:
            if os.path.lexists(j):
                os.symlink(victim, os.path.join(d, "link"))
                os.rename(os.path.join(d, "link"), j)
                swapped = True
                break
        out, err = p.communicate(timeout=60)
        check(swapped, "the JSON path was swapped for a symlink while the run went on")
        check(open(victim).read() == "precious\n", "the symlink's target is untouched")
        check(p.returncode == 0, f"the run itself completes (exit {p.returncode}: {err[-300:]})")

    # a clash after the CSV exists removes the CSV this run made, never a file put in its place
    with tempfile.TemporaryDirectory() as d:
        open(os.path.join(d, "taken.json"), "w").write("{}\n")
        r = run(TINY + ["--csv", "a.csv", "--json", "taken.json"], d)
        check(r.returncode == 2 and sorted(os.listdir(d)) == ["taken.json"],
              f"--json clash: exit 2, the new CSV removed, the old JSON kept ({os.listdir(d)})")
        check(open(os.path.join(d, "taken.json")).read() == "{}\n", "the existing JSON unchanged")


def longpath():
    with tempfile.TemporaryDirectory() as d:
        # folders of 200 characters until the path is past 1023 bytes, then a long file name:
        # the old 1024-byte buffers cut the name inside the last component
        base = d
        while len(base) < 900:
            base = os.path.join(base, "d" * 200)
            os.mkdir(base)
        name = "n" * (1100 - len(base)) + ".csv"
        a = os.path.join(base, name)
        cut = a[:1023]
        check(len(a) > 1023 and os.path.dirname(cut) == base, "the cut name lies beside the CSV")
        open(cut, "w").write("unrelated\n")
        open(os.path.join(d, "taken.json"), "w").write("{}\n")
        r = run(TINY + ["--csv", a, "--json", "taken.json"], d)
        check(r.returncode == 2, f"--json clash: exit 2 (got {r.returncode})")
        check(os.path.exists(cut) and open(cut).read() == "unrelated\n",
              "a file at the cut name survives the cleanup")
        check(not os.path.exists(a), "the long CSV this run created is removed")
        # fits: created and kept whole under its full name
        os.unlink(cut)
        r = run(TINY + ["--csv", a], d)
        check(r.returncode == 0 and os.path.exists(a) and os.path.exists(a[:-4] + ".json"),
              f"a 1100-byte path works whole (exit {r.returncode}: {r.stderr[-200:]})")
        check(sorted(os.listdir(base)) == sorted([name, name[:-4] + ".json"]),
              "nothing written under a cut name")
        # longer than PATH_MAX: refused whole, one line, no file
        deep = os.path.join(base, *(["x" * 200] * 16), "a.csv")
        before = sorted(os.listdir(base))
        r = run(TINY + ["--csv", deep], d)
        line = r.stderr.strip()
        check(r.returncode == 2 and len(line.splitlines()) == 1 and "--csv" in line and
              "4095" in line, f"a {len(deep)}-byte path: exit 2, one line: {line[:200]}")
        check(sorted(os.listdir(base)) == before, "the refused path wrote nothing")


{"diskfull": diskfull, "closedfds": closedfds, "symlink": symlink, "longpath": longpath}[PART]()
if failures:
    print(f"{len(failures)} failure(s)")
    sys.exit(1)
