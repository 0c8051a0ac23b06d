#!/usr/bin/env python3
# iosafe_test.py — what `storebench run` writes survives a hostile system (issue 9 items 1-4):
# a full disk (a real 12 KiB tmpfs when root, else a real file-size limit), closed stdout and
# stderr, a result path swapped for a symlink mid-run, and paths too long for the buffers.
# Real files and descriptors only; nothing is mocked.
# Items 12-13: SIGHUP, SIGQUIT and SIGPIPE (a closed progress pipe) stop a sweep like SIGINT with
# complete files; a signal before the first point, or too few descriptors, leaves both files
# complete or neither.
# Item 20: bytes that are not UTF-8 in an argument leave both files valid UTF-8.
# paths: results/README.md "Layout", one `storebench: csv|json <absolute path>` line each.
# output: by default one progress line per point (rewritten in place on a terminal), warnings and a
# short summary on stderr, nothing on stdout; --verbose or a --benchmark_* flag brings Google
# Benchmark's table back.
# Usage: iosafe_test.py <storebench> diskfull|closedfds|symlink|longpath|signals|early|utf8|paths|
#        output
#        (python3 standard library)
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

from testlib import Checker, signal_at_point

SB, PART = os.path.abspath(sys.argv[1]), sys.argv[2]
# the drift canary is not what these tests are about, and on a guest claiming a 508 MiB L3 its
# 1.3 GiB of buffers cost 4 s a run: every run here that does not test the canary leaves it off
TINY = ["--kernels", "memset", "--threads", "1", "--call", "4KiB", "--repetitions", "1",
        "--min-time", "0.001", "--canary", "off"]
# the reproduction: 27 points, more than a 12 KiB file system holds
MANY = ["--kernels", "memset,avx2_t_u4,sse2_t_u1", "--call", "4KiB..1MiB:x2", "--threads", "1",
        "--repetitions", "1", "--min-time", "0.001", "--canary", "off"]
check = Checker(say_ok=True)


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
    names = {b["run_name"] for b in doc["benchmarks"]}
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
            err = [line for line in r.stderr.splitlines() if line.startswith("storebench run:") and
               ": note: " not in line]
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
    json_full()


def json_full():
    """With the drift canary the JSON is written when the sweep ends, after the CSV's rows are
    kept: when only the JSON does not fit (a real per-file size limit), the run fails naming it
    and removes both files, never keeping a CSV whose points the JSON lacks."""
    limit = 8192  # the CSV of 3 points fits, their JSON (9 runs each) does not

    def limited():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    with tempfile.TemporaryDirectory() as d:
        a = os.path.join(d, "a.csv")
        r = run(["--kernels", "memset", "--call", "4KiB,8KiB,16KiB", "--threads", "1",
                 "--repetitions", "3", "--min-time", "0.001", "--canary", "off", "--csv", a], d,
                preexec_fn=limited,
                timeout=120)
        err = [line for line in r.stderr.splitlines() if line.startswith("storebench run:") and
               ": note: " not in line]
        check(r.returncode == 1 and len(err) == 1 and "writing " + os.path.join(d, "a.json") in
              err[0] and "both files removed" in err[0] and os.listdir(d) == [],
              f"only the JSON past its limit: exit 1, one line naming it, both files removed "
              f"({r.returncode}, {err}, {os.listdir(d)})")


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


SWEEP = ["--kernels", "memset", "--call", "4KiB..1MiB", "--threads", "1", "--min-time", "0.05",
         "--repetitions", "2"]


def stopped(sig, status):
    """A sweep stopped by sig in its third point: that exit status, and both files complete.
    The progress line says when (with the drift canary a row is written at the next sample)."""
    with tempfile.TemporaryDirectory() as d:
        a = os.path.join(d, "a.csv")
        p = subprocess.Popen([SB, "run"] + SWEEP + ["--csv", a], cwd=d,
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        err = signal_at_point(p, sig)
        check(p.returncode == status, f"signal {sig}: exit {p.returncode}, want {status}")
        n = complete_pair(a, os.path.join(d, "a.json"), f"signal {sig}")
        check(2 <= n < 11, f"signal {sig}: stopped mid-sweep with complete files ({n} rows)")
        check(f"stopped by signal {int(sig)} after {n} points; both files are complete" in err,
              f"signal {sig}: the last line says so: {err.strip().splitlines()[-1:]}")


def signals():
    stopped(signal.SIGHUP, 129)
    stopped(signal.SIGQUIT, 131)
    # `storebench run ... 2>&1 | head -1`: the reader goes away after the first line; the next
    # progress line raises SIGPIPE, and the point in hand still ends in both files
    with tempfile.TemporaryDirectory() as d:
        a = os.path.join(d, "a.csv")
        p = subprocess.Popen([SB, "run"] + SWEEP + ["--csv", a], cwd=d,
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        # the first line of the run itself: notes about the machine (an implausible LLC) come first
        while p.stderr.readline().startswith(b"storebench run: note: "):
            pass
        p.stderr.close()
        p.wait(timeout=120)
        check(p.returncode == 141, f"closed progress pipe: exit {p.returncode}, want 141")
        n = complete_pair(a, os.path.join(d, "a.json"), "closed progress pipe")
        check(1 <= n < 11, f"closed progress pipe: the point in hand finished ({n} rows)")
    # `... 2>&1 | head -1` where the first line is a note (or a level scan's), written before the
    # files exist: the run still ends with one point whole in both files (issue 40.15: 141 and
    # no file)
    with tempfile.TemporaryDirectory() as d:
        a = os.path.join(d, "a.csv")
        p = subprocess.Popen([SB, "run"] + SWEEP + ["--csv", a], cwd=d,
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        p.stderr.readline()
        p.stderr.close()
        p.wait(timeout=120)
        check(p.returncode == 141, f"pipe closed after the first line: exit {p.returncode}")
        n = complete_pair(a, os.path.join(d, "a.json"), "pipe closed after the first line")
        check(n >= 1, f"pipe closed after the first line: {n} rows kept")


def early():
    """SIGINT the moment the files exist: whatever point it lands before, the files are both
    complete (and say so) or both gone (and say so).  It lands while the drift canary first
    touches its buffers (1.3 GiB where a guest reports a 508 MiB L3: 4.5 s of page faults),
    which look at the request every 64 MiB, so the run ends within a second or two, not after
    the whole buffer."""
    outcomes, waits = set(), []
    for attempt in range(6):
        with tempfile.TemporaryDirectory() as d:
            a, j = os.path.join(d, "a.csv"), os.path.join(d, "a.json")
            p = subprocess.Popen([SB, "run"] + SWEEP + ["--csv", a], cwd=d,
                                 stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
            while not os.path.exists(j) and p.poll() is None:
                pass
            p.send_signal(signal.SIGINT)
            t = time.monotonic()
            err = p.communicate(timeout=120)[1]
            waits.append(time.monotonic() - t)
            check(p.returncode == 130, f"early SIGINT: exit {p.returncode}")
            if os.path.exists(a) or os.path.exists(j):
                n = complete_pair(a, j, "early SIGINT")
                check(n >= 1 and "both files are complete" in err, f"early SIGINT kept {n} rows")
                outcomes.add("kept")
            else:
                check("before the first point finished; both files removed" in err,
                      f"early SIGINT: both removed and said so: {err.strip().splitlines()[-1:]}")
                outcomes.add("removed")
    print("outcomes:", sorted(outcomes), "seconds from SIGINT to exit:",
          " ".join(f"{w:.2f}" for w in waits))
    check("removed" in outcomes, "at least one signal landed before the first point")
    check(max(waits) < 3, f"every early SIGINT ended the run within 3 s: {max(waits):.2f} s")
    # too few descriptors for Google Benchmark's sysfs reads (the issue's `ulimit -n 6`)
    for n in range(4, 9):
        with tempfile.TemporaryDirectory() as d:
            a, j = os.path.join(d, "a.csv"), os.path.join(d, "a.json")
            lim = (lambda n: lambda: resource.setrlimit(resource.RLIMIT_NOFILE, (n, n)))(n)
            r = run(TINY + ["--csv", a], d, preexec_fn=lim, timeout=60)
            if r.returncode == 0:
                complete_pair(a, j, f"ulimit -n {n}")
            else:
                check(os.listdir(d) == [], f"ulimit -n {n}: exit {r.returncode} and no file "
                      f"({os.listdir(d)}: {r.stderr.strip()[-200:]})")


def utf8():
    """--csv $'lat\xe9.csv' (Latin-1) and a broken sequence in --machine's neighbour --json:
    the files decode strictly as UTF-8 and show the bytes as \\xHH."""
    with tempfile.TemporaryDirectory() as d:
        a, j = b"lat\xe9.csv", b"caf\xc3\xa9-\xed\xa0\x80-\xf0\x9f\x98\x80.json"
        r = subprocess.run([SB.encode(), b"run"] + [x.encode() for x in TINY] +
                           [b"--csv", a, b"--json", j], cwd=d, capture_output=True, timeout=60)
        check(r.returncode == 0, f"non-UTF-8 names: exit {r.returncode}: {r.stderr[-300:]}")
        raw_csv = open(os.path.join(d.encode(), a), "rb").read()
        raw_json = open(os.path.join(d.encode(), j), "rb").read()
        for what, raw in (("CSV", raw_csv), ("JSON", raw_json)):
            try:
                raw.decode("utf-8", errors="strict")
                check(True, f"the {what} is valid UTF-8")
            except UnicodeDecodeError as e:
                check(False, f"the {what} is valid UTF-8 ({e})")
        text = raw_csv.decode("utf-8", errors="replace")
        line = [x for x in text.splitlines() if x.startswith("# command_line=")]
        check(line and "--csv lat\\xE9.csv" in line[0],
              f"command_line shows the Latin-1 byte as \\xE9: {line[:1]}")
        # valid multi-byte characters stay as they are; a surrogate's bytes are escaped
        check(line and "caf\u00e9-\\xED\\xA0\\x80-\U0001F600.json" in line[0],
              f"valid UTF-8 kept, the surrogate escaped: {line[:1]}")
        doc = json.loads(raw_json.decode("utf-8"))
        check("lat\\xE9.csv" in doc["context"].get("command_line", ""),
              "the JSON context carries the same escaped command line")


def reported(stderr):
    """The paths of the `storebench: csv PATH` and `storebench: json PATH` lines."""
    lines = stderr.splitlines()
    return ([x[len("storebench: csv "):] for x in lines if x.startswith("storebench: csv ")],
            [x[len("storebench: json "):] for x in lines if x.startswith("storebench: json ")])


def paths():
    with tempfile.TemporaryDirectory() as d:
        sub = os.path.join(d, "sub")
        os.mkdir(sub)
        for args, want in (([], None), (["--csv", "x.csv"], os.path.join(sub, "x.csv")),
                           (["--csv", "../y.csv", "--json", "j.json"],
                            os.path.join(d, "y.csv"))):
            r = run(TINY + args, sub)
            c, j = reported(r.stderr)
            check(r.returncode == 0 and len(c) == 1 and len(j) == 1,
                  f"{args}: one csv and one json line ({c}, {j})")
            if len(c) != 1 or len(j) != 1:
                continue
            check(os.path.isabs(c[0]) and os.path.isabs(j[0]) and os.path.isfile(c[0]) and
                  os.path.isfile(j[0]), f"{args}: absolute paths of files that exist")
            if want:
                check(os.path.realpath(c[0]) == os.path.realpath(want), f"{args}: csv is {want}")
            complete_pair(c[0], j[0], f"{args}")
        # the same second twice: each run names its own files
        a, b = (subprocess.Popen([SB, "run"] + TINY, cwd=sub, stdout=subprocess.DEVNULL,
                                 stderr=subprocess.PIPE, text=True) for _ in range(2))
        ca, cb = reported(a.communicate(timeout=60)[1])[0], reported(b.communicate(timeout=60)[1])[0]
        check(len(ca) == 1 and len(cb) == 1 and ca != cb, f"two runs, two CSVs: {ca} {cb}")
        # a failed run reports no path
        r = run(TINY + ["--csv", "x.csv"], sub)
        check(r.returncode == 2 and reported(r.stderr) == ([], []), "a refused run names no file")


def output():
    ten = ["--kernels", "memset,rep_stosb", "--threads", "1", "--call", "4KiB..64KiB",
           "--repetitions", "2", "--min-time", "0.001", "--canary", "off"]
    with tempfile.TemporaryDirectory() as d:
        r = run(ten, d)
        err = r.stderr.splitlines()
        check(r.returncode == 0 and r.stdout == "", f"default: exit 0, nothing on stdout "
              f"({r.returncode}, {r.stdout[:200]!r})")
        progress = [x for x in err if x.startswith("storebench: point ")]
        check(len(progress) == 10, f"default: one progress line per point ({len(progress)})")
        check(not any("Library was built as DEBUG" in x or x.startswith("Benchmark") or
                      x.startswith("----") or x.startswith("Run on") for x in err),
              "default: no Google Benchmark context, warning or table")
        rest = [x for x in err if x not in progress and not x.startswith("storebench run: note")]
        check(len(rest) <= 7, f"default: start line, plan, summary, flagged, the answer, csv, "
              f"json only: {rest}")
        check(sum(x.startswith("storebench: plan: 1 round of 10 points, estimated ")
                  for x in rest) == 1, f"default: one plan line: {rest}")
        check(sum(x.startswith("storebench: no winner claimed") for x in rest) == 1,
              f"default (one round): the answer is one line saying no winner is claimed: {rest}")
        check(any(x.startswith("storebench: 10 of 10 points in ") for x in err),
              "default: the summary says how many points")
        flagged = [x for x in err if "flagged in the quality column" in x]
        with open(reported(r.stderr)[0][0]) as f:
            body = [x for x in f if not x.startswith("#")]
        head = body[0].rstrip("\n").split(",")
        q = [row[head.index("quality")] for row in csv.reader(body[1:])]
        bad = sum(1 for x in q if x != "ok")
        check((bad == 0 and not flagged) or (flagged and flagged[0].startswith(
              f"storebench: warning: {bad} of 10 points flagged")),
              f"default: the flagged line matches the quality column ({bad}, {flagged})")
    for extra in (["--verbose"], ["--benchmark_counters_tabular=false"]):
        with tempfile.TemporaryDirectory() as d:
            r = run(ten + extra, d)
            table = [x for x in r.stdout.splitlines() if x.startswith(("memset/", "rep_stosb/"))]
            check(r.returncode == 0 and len(table) == 10,
                  f"{extra}: Google Benchmark's table on stdout, a line per point ({len(table)})")
    # a terminal: the progress line is rewritten in place, not one line per point
    import pty
    with tempfile.TemporaryDirectory() as d:
        master, slave = pty.openpty()
        p = subprocess.Popen([SB, "run"] + ten, cwd=d, stdout=subprocess.DEVNULL, stderr=slave)
        os.close(slave)
        data = b""
        while True:
            try:
                chunk = os.read(master, 65536)
            except OSError:
                break
            if not chunk:
                break
            data += chunk
        p.wait(timeout=60)
        os.close(master)
        text = data.decode("utf-8", "replace").replace("\r\n", "\n")
        lines = text.split("\n")
        check(p.returncode == 0 and text.count("storebench: point ") == 10 and
              not any(x.startswith("storebench: point ") for x in lines),
              f"terminal: ten updates, none on a line of its own ({len(lines)} lines)")
        check("\r\x1b[K" in text or "\x1b[Kstorebench: point" in text,
              "terminal: each update rewrites the line")


{"diskfull": diskfull, "closedfds": closedfds, "symlink": symlink, "longpath": longpath,
 "signals": signals, "early": early, "utf8": utf8, "paths": paths, "output": output}[PART]()
sys.exit(check.finish(f"iosafe {PART}"))
