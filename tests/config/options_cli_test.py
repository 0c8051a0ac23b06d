#!/usr/bin/env python3
# options_cli_test.py — `storebench run` option parsing through the binary: bad values exit 2 with
# one line naming the option, the value and what is accepted, and leave no file; lists are never
# cut.
# passthrough: Google Benchmark's flags as an allow-list with checked values (issue 9 items
# 15, 17-19) and sweeps too large to enumerate (items 14, 16).
# Usage: options_cli_test.py <storebench> errors|lists|presets|passthrough
# (python3 standard library)
import os
import subprocess
import sys
import tempfile
import time

from testlib import Checker

SB, PART = os.path.abspath(sys.argv[1]), sys.argv[2]
LIST = "--benchmark_list_tests"
check = Checker()


def run(args, cwd, timeout=60):
    return subprocess.run([SB, "run"] + args, cwd=cwd, capture_output=True, text=True,
                          timeout=timeout)


def refused(args, option, *says, timeout=60):
    """Exit 2, one stderr line that names the option and contains says, nothing on stdout and no
    file left in the working directory."""
    with tempfile.TemporaryDirectory() as d:
        r = run(args, d, timeout)
        line = r.stderr.strip()
        check(r.returncode == 2, f"{args[:6]}: exit {r.returncode}, want 2 ({line[:300]})")
        check(len(r.stderr.splitlines()) == 1, f"{args[:6]}: want one stderr line: {line[:300]}")
        check(r.stdout == "", f"{args[:6]}: wrote to stdout: {r.stdout[:200]}")
        check(os.listdir(d) == [], f"{args[:6]}: left {os.listdir(d)}")
        for s in (option,) + says:
            check(s in line, f"{args[:6]}: message lacks {s!r}: {line[:300]}")
        print(f"ok: {' '.join(args)[:60]}: {line[:160]}")


def names(args):
    """The point names `run ... --benchmark_list_tests` prints (exit 0 expected)."""
    with tempfile.TemporaryDirectory() as d:
        r = run(args + [LIST], d)
        check(r.returncode == 0, f"{args}: exit {r.returncode}: {r.stderr.strip()[:300]}")
        check(os.listdir(d) == [], f"{args}: listing points wrote {os.listdir(d)}")
        return r.stdout.split()


def allowed_cpus():
    return len(os.sched_getaffinity(0))


def errors():
    small = ["--kernels", "memset", "--threads", "1"]
    # issue 9 item 5: one safe path component, bounded, never truncated
    for m in ("..", ".", "a/b", "../x", "", "a b", "x" * 101, "caf\u00e9"):
        refused(small + ["--machine", m, LIST], "--machine", "A-Z a-z 0-9")
    # item 7: two ratios that print alike would name one row twice
    refused(small + ["--rw", "2:1,33.33", LIST], "--rw", "2:1", "33.33", "both print as 33.33")
    # item 8: cache multipliers, divisors and every size overflow-checked
    refused(small + ["--call", "549755813889LLC", LIST], "--call", "549755813889LLC", "128TiB")
    refused(small + ["--call", "L1d/0", LIST], "--call", "L1d/0", "zero")
    refused(small + ["--ws", "4LLC/0", LIST], "--ws", "4LLC/0", "zero")
    refused(small + ["--call", "64..1T:x99999999999999999999", LIST], "--call", "64 bits")
    # item 9: decimal and hex only; a leading 0 is not octal
    for v in ("010", "0255", "09", "00", "0x100", "1e2", "-1"):
        refused(small + ["--fill", v, LIST], "--fill", f"'{v}'", "0x00..0xff")
    refused(small + ["--prefill", "010", LIST], "--prefill", "'010'", "0x00..0xff")
    # item 14: sizes near 2^64 and the cold working set's 4 x call
    refused(small + ["--call", "18446744073709551615", LIST], "--call", "18446744073709551615",
            "128TiB")
    refused(small + ["--call", "4194304T", "--ws", "cold", LIST], "--call", "4194304T", "128TiB")
    refused(small + ["--chunk", "18446744073709551616", "--rw", "50", LIST], "--chunk", "128TiB")
    # item 16: a list longer than the stated limit is refused at once (not parsed for seconds,
    # not "Cannot allocate memory" with exit 1)
    refused(small + ["--call", "1..100000:+1,100001..200000:+1,200001..300000:+1", LIST],
            "--call", "100000", timeout=20)
    refused(small + ["--call", "1..1000000000000:+1", LIST], "--call", "100000", timeout=20)
    # item 21: each message says something true about the input and what is accepted
    refused(small + ["--ws", "", LIST], "--ws", "''", "empty", "call, hot, cold")
    refused(small + ["--ws=", LIST], "--ws", "''", "empty")
    refused(small + ["--call", "1.5L1d", LIST], "--call", "'1.5L1d'", "whole numbers", "3L1d/2")
    for mode in ("hot", "cold", "call"):
        refused(small + ["--ws", f"random:{mode}", LIST], "--ws", f"random:{mode}", "only apply "
                "to sizes")
    refused(small + ["--ws", "seq:", LIST], "--ws", "empty element")
    refused(small + ["--repetitions", "100001", LIST], "--repetitions", "'100001'", "1..100000")
    refused(small + ["--repetitions", "2.5", LIST], "--repetitions", "1..100000")
    refused(small + ["--min-time", "0x10", LIST], "--min-time", "'0x10'", "seconds")
    refused(small + ["--inject-slowdown", "nan", LIST], "--inject-slowdown", "0..1000")
    refused(small + ["--csv", "f.csv", "--json", "f.csv", LIST], "--json", "'f.csv'", "--csv")
    refused(small + ["--misalign", "64", LIST], "--misalign", "'64'", "63")
    refused(small + ["--threads", "0", LIST], "--threads", "'0'")
    refused(small + ["--kernels", "", LIST], "--kernels", "empty list")
    refused(small + ["--kernels", "memset,,avx2_*", LIST], "--kernels", "empty element")
    refused(small + ["--rw-mode", "interleave,", LIST], "--rw-mode", "empty element")
    refused(small + ["--pages", "2m", LIST], "--pages", "'2m'", "4k, thp or hugetlb")
    refused(small + ["--membind", "node:x", LIST], "--membind", "'node:x'", "local, interleave")
    refused(small + ["--placement", "cpus:" + ",".join(["0"] * 200), LIST], "--placement",
            "cpus:")
    # the parser itself
    refused(["--thread", "2"], "--thread", "did you mean --threads")
    refused(["--min_time", "1"], "--min_time", "did you mean --min-time")
    refused(["--preset", "quik"], "--preset", "'quik'", "quick, nightly")
    refused(["--call"], "--call", "needs a value")
    refused(["--call", "--ws", "hot"], "--call", "needs a value", "--call=")
    refused(["--help=yes"], "--help", "takes no value")
    refused(["64KiB"], "'64KiB'", "options start with --")


def lists():
    small = ["--kernels", "memset", "--ws", "call"]
    # item 6: nothing is cut.  Before, --threads kept only its first ~240 characters: this list's
    # offending count sits after 800 characters of 1s, and must still be seen.
    refused(small + ["--threads", ",".join(["1"] * 400 + ["99999"]), "--call", "64", LIST],
            "--threads", "99999 threads but only")
    n = allowed_cpus()
    seq = ",".join(str(i) for i in range(1, 385))
    with tempfile.TemporaryDirectory() as d:
        r = run(small + ["--call", "64", "--threads", seq, LIST], d)
        if n >= 384:
            check(r.returncode == 0 and len(r.stdout.split()) == 384,
                  f"--threads 1..384 on {n} CPUs: exit {r.returncode}")
        else:
            want = f"{n + 1} threads but only {n} CPUs"
            check(r.returncode == 2 and want in r.stderr and len(r.stderr.splitlines()) == 1,
                  f"--threads $(seq -s, 1 384): want '{want}', got {r.stderr.strip()[-200:]}")
        print(f"ok: --threads $(seq -s, 1 384) on {n} CPUs: exit {r.returncode}")
    # --opt=value and --opt value are one thing; the last value given wins
    a = names(small + ["--call", "4KiB", "--threads", "1"])
    b = names(small + ["--call=64", "--call=4KiB", "--threads=1"])
    check(a and a == b, f"--opt value {a} differs from --opt=value {b}")
    # duplicates dropped in O(n log n), first occurrence kept, across ranges and working sets
    got = names(small + ["--call", "128,64,128,64..256", "--threads", "1"])
    check([x.split("/")[1] for x in got] == ["call:128", "call:64", "call:256"],
          f"duplicates: {got}")
    got = names(["--kernels", "memset", "--call", "64", "--threads", "1", "--ws",
                 "hot,hot,4KiB,seq:4KiB,random:4KiB,4KiB"])
    check([x.split("/")[2] for x in got] == ["ws:hot:64", "ws:seq:4096", "ws:random:4096"],
          f"working-set duplicates: {got}")
    with tempfile.TemporaryDirectory() as d:
        r = run(small + ["--call", "1..100000:+1", "--threads", "1", LIST], d, timeout=20)
        got = r.stdout.split()
        check(r.returncode == 0 and len(got) == 100000 and got[-1].startswith(
            "memset/call:100000/"), f"100000-value list: exit {r.returncode}, {len(got)} points")
    # fractional factors: A x F^k rounded to the nearest byte, both ends included
    got = names(small + ["--call", "256..4KiB:x1.19", "--threads", "1"])
    check([int(x.split("/")[1][5:]) for x in got] ==
          [256, 305, 363, 431, 513, 611, 727, 865, 1029, 1225, 1458, 1735, 2064, 2457, 2923,
           3479, 4096], f"256..4KiB:x1.19: {got}")
    got = names(small + ["--threads", "1..all:x2", "--call", "64"])
    check(len(got) >= 1 and got[-1].endswith(f"threads:{allowed_cpus()}/rw:100"),
          f"1..all:x2 does not end at all: {got}")


def presets():
    r = subprocess.run([SB, "list", "--presets", "--tsv"], capture_output=True, text=True)
    check(r.returncode == 0, f"list --presets --tsv: exit {r.returncode}")
    lines = r.stdout.splitlines()
    head = lines[0].split("\t")
    rows = [dict(zip(head, ln.split("\t"))) for ln in lines[1:]]
    check(head[:1] == ["name"] and {"kernels", "call", "ws", "threads", "repetitions", "min-time",
                                    "rw", "rw-mode", "rw-layout", "chunk"} <= set(head),
          f"preset columns: {head}")
    check(all(len(ln.split("\t")) == len(head) for ln in lines[1:]), "ragged preset rows")
    check([x["name"] for x in rows][:1] == ["quick"] and len(rows) >= 4, f"presets: {rows}")
    help_text = subprocess.run([SB, "run", "--help"], capture_output=True, text=True).stdout
    for row in rows:
        check(row["name"] in help_text, f"preset {row['name']} not in run --help")
        # every column is a run option, and the preset's values pass the same parser (exit 0, or
        # the memory check that comes after every option is parsed, on a small machine)
        with tempfile.TemporaryDirectory() as d:
            r = run(["--preset", row["name"], LIST], d)
            check(r.returncode == 0 or (r.returncode == 2 and "MemAvailable" in r.stderr),
                  f"--preset {row['name']}: exit {r.returncode}: {r.stderr.strip()[:300]}")
        for col in head[1:]:
            check(f"--{col} " in help_text, f"column {col} is not a run option")
    people = subprocess.run([SB, "list", "--presets"], capture_output=True, text=True)
    check(people.returncode == 0 and all(x["name"] in people.stdout for x in rows),
          "list --presets misses a preset")
    # the cascade: the preset's fields unless the command line gives them
    mt = ["--preset", "memtouch", "--kernels", "memset", "--ws", "64KiB", "--threads", "1"]
    got = names(mt)
    check(any("/rw:50/" in x for x in got) and any("/rw:100" in x for x in got) and
          all("layout:contiguous" in x for x in got if "/rw:50" in x),
          f"memtouch's rw and layout fields not applied: {got}")
    got = names(mt + ["--rw", "100"])
    check(got and all(x.endswith("/rw:100") for x in got), f"--rw 100 did not win: {got}")
    got = names(["--preset", "nightly", "--kernels", "memset", "--call", "64", "--threads", "1"])
    check(got == ["memset/call:64/ws:64/threads:1/rw:100"], f"nightly + overrides: {got}")


def passthrough():
    """Issue 9 items 14-19: Google Benchmark flags are an allow-list with checked values, and
    sweeps too large to enumerate are refused before anything is allocated."""
    small = ["--kernels", "memset", "--threads", "1", "--call", "4KiB", "--repetitions", "1",
             "--min-time", "0.001", "--canary", "off"]  # the canary is not tested here
    # item 15: a negative count aborted with std::length_error; item 18: 0 measured nothing
    for v in ("-3", "0", "x", "100001"):
        refused(small + [f"--benchmark_repetitions={v}"], f"--benchmark_repetitions={v}",
                "1..100000")
    # item 17: values Google Benchmark answered with its usage text and exit 0
    refused(small + ["--benchmark_format=xyz"], "--benchmark_format=xyz", "console json csv")
    refused(small + ["--benchmark_time_unit=xx"], "--benchmark_time_unit=xx", "ns us ms s")
    refused(small + ["--benchmark_out_format=xml"], "--benchmark_out_format=xml", "--json")
    refused(small + ["--benchmark_out=x.json"], "--benchmark_out=x.json", "--json")
    refused(small + ["--benchmark_min_time=0.5s"], "--benchmark_min_time=0.5s", "seconds")
    refused(small + ["--benchmark_color=maybe"], "--benchmark_color=maybe", "auto")
    refused(small + ["--benchmark_nonsense=1"], "--benchmark_nonsense=1", "accepted:",
            "--benchmark_filter")
    refused(small + ["--v=x"], "--v=x", "0..99")
    # item 19: booleans by their value
    refused(small + ["--benchmark_report_aggregates_only=true"],
            "--benchmark_report_aggregates_only=true", "compare.py", "=false")
    refused(small + ["--benchmark_display_aggregates_only=yes"],
            "--benchmark_display_aggregates_only=yes", "=false")
    refused(small + ["--benchmark_list_tests=perhaps"], "--benchmark_list_tests=perhaps",
            "true or false")
    for flag in ("--benchmark_display_aggregates_only=false",
                 "--benchmark_report_aggregates_only=0", "--benchmark_list_tests=false",
                 "--benchmark_list_tests=off", "--benchmark_repetitions=2"):
        with tempfile.TemporaryDirectory() as d:
            r = run(small + ["--csv", "a.csv", flag], d)
            check(r.returncode == 0 and sorted(os.listdir(d)) == ["a.csv", "a.json"],
                  f"{flag}: measured (exit {r.returncode}, {os.listdir(d)}: {r.stderr[-200:]})")
            print(f"ok: {flag} measures")
    for flag in ("--benchmark_list_tests", "--benchmark_list_tests=true",
                 "--benchmark_list_tests=1"):
        with tempfile.TemporaryDirectory() as d:
            r = run(small + [flag], d)
            check(r.returncode == 0 and r.stdout.split() == ["memset/call:4096/ws:4096/threads:1/"
                                                               "rw:100"] and os.listdir(d) == [],
                  f"{flag}: lists and writes nothing ({r.stdout[:100]}, {os.listdir(d)})")
            print(f"ok: {flag} lists")
    # item 14: a product of axis lengths that overflowed calloc's count, and one merely too big
    # ("Cannot allocate memory", exit 1): refused at once
    refused(["--kernels", "all", "--threads", "1", "--call", "64..6400000:+64", "--ws",
             "64..6400000:+64", "--misalign", "0..63:+1", LIST], "--call", "1000000",
            timeout=20)
    refused(["--kernels", "all", "--threads", "1", "--call", "64..640000:+64", "--misalign",
             "0..63:+1", LIST], "--misalign", "1000000", timeout=20)
    # item 16, sweep side: 100000 distinct read/write points are checked for repeats in
    # O(n log n) (the old pairwise check took minutes)
    t0 = time.monotonic()
    got = names(["--kernels", "memset", "--threads", "1", "--call", "64..6400000:+64", "--rw",
                 "50", "--chunk", "64"])
    took = time.monotonic() - t0
    check(len(got) == 100000 and took < 20, f"100000 rw points listed in {took:.1f} s")


{"errors": errors, "lists": lists, "presets": presets, "passthrough": passthrough}[PART]()
sys.exit(check.finish(f"opts {PART}"))
