#!/usr/bin/env python3
# sweep_cli_test.py — `storebench run`'s sweep against a model of its documented rules written here
# (sweep.h, run --help, docs/rw.md): point order and names, skips, de-duplication, refusals, and
# the columns each kind of point fills.  Python 3 standard library.
# usage: sweep_cli_test.py STOREBENCH FIXTURES_MACHINES order|here|errors|columns

import itertools
import os
import re
import subprocess
import sys
import tempfile
from fractions import Fraction

from testlib import Checker, read_csv

SB, MACHINES, PART = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2]), sys.argv[3]
# a replayed 2-socket Genoa: thread counts this 2-vCPU test machine lacks, for --dry-run
GENOA = ["--topology", os.path.join(MACHINES, "topology", "genoa-2s-epyc-9654.xml"),
         "--cpuid", os.path.join(MACHINES, "cpuid", "amd-epyc-9654-96-core-processor-dual.test")]
check = Checker()


class Refused(Exception):
    """The options cannot be measured: the sweep's one stderr line (without 'storebench run: ')."""


def ratio(text):
    """A --rw element as the written share: a percent, or an Intel MLC read:write ratio."""
    if ":" in text:
        r, w = (int(x) for x in text.split(":"))
        return Fraction(w, r + w)
    return Fraction(text) / 100


def pct(r):
    """The written share as names and rw_ratio print it: two decimals rounded half up, no trailing
    zeros."""
    h = (r.numerator * 20000 + r.denominator) // (2 * r.denominator)
    whole, frac = divmod(h, 100)
    return str(whole) if not frac else f"{whole}.{frac // 10}" if not frac % 10 else \
        f"{whole}.{frac:02d}"


def ws_items(spec):
    """--ws as (mode, bytes); the tests give every size its own seq: or random: prefix."""
    out = []
    for item in spec.split(","):
        mode, _, size = item.partition(":")
        out.append((mode, int(size) if size else 0))
    return out


def model(opts, cold):
    """The points of a sweep as (name, columns) in order, and the skip counters, from the options
    dict (lists of the run's axis values) and cold(threads) = 4 x that count's LLC share.  Walk:
    threads, ws, call, misalign, rw, rw mode, layout, chunk, kernel, the last changing fastest."""
    threads = [int(x) for x in opts["threads"].split(",")]
    ws = ws_items(opts["ws"])
    calls = [int(x) for x in opts["call"].split(",")]
    misalign = [int(x) for x in opts.get("misalign", "0").split(",")]
    rws = [ratio(x) for x in opts.get("rw", "100").split(",")]
    modes = opts.get("rw-mode", "interleave").split(",")
    layouts = opts.get("rw-layout", "spread").split(",")
    chunks = [int(x) for x in opts.get("chunk", "4096").split(",")]
    kernels = opts["kernels"].split(",")
    points, seen, counts = [], set(), {"skipped": 0, "skipped_rw": 0, "rounded_split": 0}
    for t, (mode, size), call, mis, rw, (i_md, md), (i_lay, lay), (i_ch, chunk), k in \
            itertools.product(threads, ws, calls, misalign, rws, enumerate(modes),
                              enumerate(layouts), enumerate(chunks), kernels):
        cols = {"kernel": k, "threads": str(t), "misalign_bytes": str(mis)}
        if rw == 1:  # a store point: mode, layout and chunk do not change it
            if i_md or i_lay or i_ch:
                continue
            if mode in ("call", "hot"):
                nbytes = call
            elif mode == "cold":
                nbytes = max(cold(t), 4 * call)
            elif size < call:
                counts["skipped"] += 1
                continue
            else:
                nbytes = size // call * call
            shown = (call, mode, nbytes)
            cols.update(rw_ratio="100", rw_mode=modes[0], rw_layout=layouts[0],
                        chunk_bytes=str(call), read_kernel="")
            suffix = ""
        else:  # a mix point: its chunk is the call, its region a seq working set
            if i_lay and (md == "split" or rw == 0):
                continue
            if mode in ("cold", "random"):
                counts["skipped_rw"] += 1
                continue
            region = call if mode in ("call", "hot") else size
            if chunk > region:
                raise Refused(f"--chunk: {chunk} bytes is larger than the {region}-byte region "
                              "each thread walks")
            got = rw
            if md == "split":
                writers = (2 * t * rw.numerator + rw.denominator) // (2 * rw.denominator)
                if 0 < rw < 1:
                    if t < 2:
                        if "interleave" in modes:
                            counts["skipped_rw"] += 1
                            continue
                        raise Refused(f"--rw-mode split: rw {pct(rw)} needs at least 2 threads "
                                      f"(a reader and a writer), got {t}")
                    writers = min(max(writers, 1), t - 1)
                got = Fraction(writers, t)
                counts["rounded_split"] += got != rw
            shown = (chunk, "seq", region)
            cols.update(rw_ratio=pct(got), rw_mode=md, rw_layout="" if md == "split" else lay,
                        chunk_bytes=str(chunk))
            suffix = "/mode:split" if md == "split" else \
                "/layout:contiguous" if lay == "contiguous" else ""
        cols.update(call_bytes=str(shown[0]), ws_mode=shown[1], ws_bytes=str(shown[2]))
        ws_name = str(shown[2]) if shown[1] == "call" else f"{shown[1]}:{shown[2]}"
        name = (f"{k}/call:{shown[0]}/ws:{ws_name}/threads:{t}/rw:{cols['rw_ratio']}{suffix}" +
                (f"/misalign:{mis}" if mis else ""))
        if name not in seen:  # the first of a name is measured, once
            seen.add(name)
            points.append((name, cols))
    return points, counts


def args(opts):
    return [f"--{k}={v}" for k, v in opts.items()]


def run(argv, timeout=60):
    with tempfile.TemporaryDirectory() as d:
        return subprocess.run([SB, "run"] + argv, capture_output=True, text=True, cwd=d,
                              timeout=timeout)


def dry_run(argv):
    """(point names, {threads: LLC share}) of a --dry-run."""
    r = run(argv + ["--dry-run"])
    check(r.returncode == 0, f"--dry-run {argv}: exit {r.returncode}: {r.stderr.strip()}")
    names = re.findall(r"^  point=(\S+)", r.stdout, re.M)
    llc = {int(t): int(s) for t, s in
           re.findall(r"^threads=(\d+) .*share_llc=(\d+)", r.stdout, re.M)}
    return names, llc


def compare(what, got, want):
    names = [n for n, _ in want]
    if got != names:
        check(False, f"{what}: {len(got)} points, model {len(names)}; first difference: " +
              next((f"#{i} {a} vs {b}" for i, (a, b) in enumerate(zip(got, names)) if a != b),
                   f"lengths {len(got)} vs {len(names)}"))
        return
    print(f"ok: {what}: {len(got)} points in the model's order")


# Option sets: every axis longer than one somewhere, axes listed out of their natural order, each
# rule firing (call beyond a working set, cold/random mixes, layout of split and rw 0, split at one
# thread beside interleave, rounded split ratios asked twice, the call axis of mixes repeating).
SETS = [
    {"kernels": "memset,sse2_t_u1", "threads": "1,3,2", "call": "64,4096,2048",
     "ws": "call,hot,cold,seq:1024,seq:65536,random:8192", "misalign": "0,5"},
    {"kernels": "memset", "threads": "1,2,3,4", "call": "8192,65536", "chunk": "64,4096",
     "ws": "call,hot,seq:16384,cold,random:16384", "rw": "100,75,50,0,3:1",
     "rw-mode": "interleave,split", "rw-layout": "spread,contiguous"},
    {"kernels": "memset,sse2_t_u1", "threads": "4,2", "call": "16384", "chunk": "4096,128",
     "ws": "call,seq:32768", "rw": "0,12.5,100", "rw-mode": "split,interleave",
     "rw-layout": "contiguous,spread", "misalign": "3"},
    {"kernels": "memset", "threads": "2", "call": "4096,8192", "ws": "seq:65536,call",
     "rw": "50,100"},
    {"kernels": "memset", "threads": "2,3,5", "call": "16384", "ws": "call", "rw": "75,3:1,50,33.33",
     "rw-mode": "split"},
]


def order():
    for i, opts in enumerate(SETS):
        got, llc = dry_run(args(opts) + GENOA)
        compare(f"set {i} on a replayed Genoa", got, model(opts, lambda t: 4 * llc[t])[0])
    # --benchmark_filter after naming, before de-duplication
    opts = dict(SETS[1], threads="2,4")
    got, llc = dry_run(args(opts) + GENOA + ["--benchmark_filter=call:64/.*rw:(50|25)"])
    want = [p for p in model(opts, lambda t: 4 * llc[t])[0]
            if re.search(r"call:64/.*rw:(50|25)", p[0])]
    compare("set 1 through --benchmark_filter", got, want)


def allowed_cpus():
    return len(os.sched_getaffinity(0))


def here():
    """The same sweep on this machine, through --benchmark_list_tests."""
    threads = "1,2" if allowed_cpus() >= 2 else "1"
    for i, opts in enumerate(SETS[:2]):
        opts = dict(opts, threads=threads)
        _, llc = dry_run(args(opts))
        r = run(args(opts) + ["--benchmark_list_tests"])
        check(r.returncode == 0, f"set {i}: exit {r.returncode}: {r.stderr.strip()}")
        compare(f"set {i} at threads {threads} here", r.stdout.split(),
                model(opts, lambda t: 4 * llc[t])[0])


def errors():
    """Options the sweep refuses: exit 2, the model's one line, nothing listed."""
    cases = [
        {"kernels": "memset", "threads": "1", "call": "65536", "ws": "call", "rw": "50",
         "chunk": "131072"},
        # a later region too small for the chunk: refused, not skipped
        {"kernels": "memset", "threads": "1", "call": "65536,4096", "ws": "call", "rw": "100,50",
         "chunk": "8192"},
        {"kernels": "memset", "threads": "1", "call": "8192", "ws": "call", "rw": "50",
         "rw-mode": "split"},
        {"kernels": "memset", "threads": "1,2", "call": "8192", "ws": "call", "rw": "100,50",
         "rw-mode": "split"},
    ]
    for opts in cases:
        try:
            model(opts, lambda t: 0)
            check(False, f"the model refuses nothing in {opts}")
            continue
        except Refused as e:
            want = f"storebench run: {e}"
        r = run(args(opts) + ["--benchmark_list_tests"])
        check(r.returncode == 2 and r.stderr.splitlines() == [want] and not r.stdout,
              f"{opts}: exit {r.returncode}, stderr {r.stderr.strip()!r}, want {want!r}")
        print(f"ok: refused: {want}")
    # too many combinations: the message names the axes in the order of the walk
    r = run(["--kernels=all", "--threads=1", "--call=64..640000:+64", "--misalign=0..63:+1",
             "--benchmark_list_tests"])
    axes = ("--threads, --ws, --call, --misalign, --rw, --rw-mode, --rw-layout, --chunk, --victim, "
            "--victim-delay and --kernels")
    check(r.returncode == 2 and f"combinations of {axes}; use shorter lists" in r.stderr,
          f"combinations: exit {r.returncode}: {r.stderr.strip()}")
    print("ok: too many combinations, axes named in walk order")


def columns():
    """A tiny real sweep: each row's point columns are the model's (a mix point's chunk as
    call_bytes and chunk_bytes, its region as a seq ws_bytes; a store point's call as chunk_bytes,
    the first --rw-mode/--rw-layout), rows in sweep order, and the skip notes count the model's."""
    two = allowed_cpus() >= 2
    opts = {"kernels": "memset", "threads": "1,2" if two else "1", "call": "8192",
            "ws": "call,seq:16384,random:16384,seq:4096", "rw": "100,75,50,0",
            "rw-mode": "interleave,split" if two else "interleave",
            "rw-layout": "contiguous,spread", "chunk": "4096", "misalign": "0,3"}
    want, counts = model(opts, lambda t: 0)
    with tempfile.TemporaryDirectory() as d:
        csv = os.path.join(d, "s.csv")
        r = subprocess.run([SB, "run"] + args(opts) + ["--repetitions=1", "--min-time=0.000001",
                                                       "--canary=off", "--csv", csv],
                           capture_output=True, text=True, timeout=120)
        check(r.returncode == 0, f"real sweep: exit {r.returncode}: {r.stderr[-400:]}")
        _, rows = read_csv(csv)
    head, rows = rows[0], [dict(zip(rows[0], x)) for x in rows[1:]]
    check(len(rows) == len(want), f"{len(rows)} rows, model {len(want)}")
    for row, (name, cols) in zip(rows, want):
        bad = {k: (row[k], v) for k, v in cols.items() if row[k] != v}
        check(not bad, f"{name}: columns (got, model) {bad}")
        check(row["read_kernel"] or cols["rw_ratio"] == "100", f"{name}: a mix without read_kernel")
    notes = {"skipped_rw": r"(\d+) read/write combinations skipped",
             "skipped": r"(\d+) combinations skipped where", "rounded_split": r"(\d+) split points"}
    for key, pattern in notes.items():
        m = re.search(pattern, r.stderr)
        check((int(m.group(1)) if m else 0) == counts[key],
              f"{key}: note says {m.group(1) if m else 0}, model {counts[key]}")
    print(f"ok: {len(rows)} rows with the model's point columns; notes {counts}")


def victim():
    """--victim on the replayed 2-socket servers (docs/victim.md): each mode's CPU stands where
    its name says against the first writer, never on a writer's core; a machine without such a
    core skips the combination (run_test.victim sees its note); mixes take no victim."""
    machines = {
        # topology and cpuid, several L3 domains per package, cores per L3
        "genoa": (GENOA, True, 8),
        "turin": (["--topology", os.path.join(MACHINES, "topology", "synthetic-turin-2s-nps4.xml"),
                   "--cpuid", os.path.join(MACHINES, "cpuid",
                                           "amd-epyc-9965-192-core-processor-dual.test")], True, 8),
        "spr": (["--topology", os.path.join(MACHINES, "topology", "spr-2s-xeon-max-9460.xml"),
                 "--cpuid", os.path.join(MACHINES, "cpuid", "intel-xeon-w9-3475x.test")], False,
                40),
    }
    want = {"own": ("same", "same"), "shared": ("same", "same"), "remote": ("other", "same"),
            "socket": (None, "other")}
    for name, (replay, domains, per_l3) in machines.items():
        r = run(replay + ["--dry-run", "--kernels", "memset", "--call", "1MiB", "--threads", "1,8",
                          "--rw", "100,50", "--victim",
                          "none,own:L2/2,shared:L2/2,remote:LLC/2,socket:LLC/2,chase:4LLC"])
        check(r.returncode == 0, f"{name}: exit {r.returncode}: {r.stderr.strip()[-300:]}")
        seen = {}
        cpus = {}
        for line in r.stdout.splitlines():
            m = re.match(r"threads=(\d+) cpus=(\S+)", line)
            if m:
                threads, cpus = int(m.group(1)), set()
                for part in m.group(2).split(","):
                    a, _, b = part.partition("-")
                    cpus |= set(range(int(a), int(b or a) + 1))
            m = re.search(r"/victim:(\w+):\d+ .* victim=(\w+) victim_bytes=\d+ victim_cpu=(\d+) "
                          r"victim_node=\d+ victim_l3=(\w+) victim_package=(\w+)", line)
            if not m:
                check("/victim:" not in line, f"{name}: a victim without its placement: {line}")
                continue
            mode, cpu, l3, pkg = m.group(2), int(m.group(3)), m.group(4), m.group(5)
            check("/rw:100/" in line, f"{name}: a mix with a victim: {line}")
            seen[(threads, mode)] = cpu
            if mode == "own":
                check(cpu == min(cpus), f"{name}: own victim on CPU {cpu}, not the writer's")
            else:
                check(cpu not in cpus, f"{name}: {mode} victim on a writer's CPU {cpu}")
            exp_l3, exp_pkg = want.get(mode, (None, None))
            check(exp_l3 in (None, l3) and exp_pkg in (None, pkg),
                  f"{name}: {mode} victim at L3 {l3}, package {pkg}: {line}")
        for t in (1, 8):
            for mode in ("own", "socket", "chase"):
                check((t, mode) in seen, f"{name}: no {mode} victim at {t} threads")
            # compact writers fill their L3 first: at per_l3 threads no core of it is free
            check(((t, "shared") in seen) == (t < per_l3),
                  f"{name}: shared victim at {t} threads with {per_l3} cores an L3")
            check(((t, "remote") in seen) == domains,
                  f"{name}: remote victim at {t} threads {'missing' if domains else 'on one L3'}")
        print(f"ok: {name}: victims placed {sorted(seen.items())[:6]}...")


{"order": order, "here": here, "errors": errors, "columns": columns, "victim": victim}[PART]()
sys.exit(check.finish(f"sweep {PART}"))
