#!/usr/bin/env python3
# run_test.py — `storebench run` end to end: bad input exits 2, one line, no file; a tiny sweep
# writes verified rows and valid JSON; SIGINT leaves complete files; rw mixes account for each byte;
# victims beside store points fill their columns and only theirs; a size distribution's calls.
# Usage: run_test.py <storebench> <csv_columns.def> errors|sweep|sigint|rw|victim|dist
import json
import os
import re
import signal
import subprocess
import sys
import tempfile

from testlib import NO_CANARY, Checker, read_csv, signal_at_point

SB, DEF, PART = os.path.abspath(sys.argv[1]), sys.argv[2], sys.argv[3]
COLUMNS = [m.group(1) for m in re.finditer(r"^COLUMN\(\s*([a-z0-9_]+)", open(DEF).read(), re.M)]
check = Checker()
COMPARE = "/usr/share/benchmark/compare.py"
# sweep, rw and victim run without the drift canary (NO_CANARY); the signals keep it (a row then
# waits for a sample)


def run(args, cwd, **kw):
    return subprocess.run([SB, "run"] + args, cwd=cwd, capture_output=True, text=True, **kw)


def kernels():
    """name -> True when this CPU can run it, from `storebench list --tsv`."""
    out = subprocess.run([SB, "list", "--tsv"], capture_output=True, text=True, check=True).stdout
    lines = out.splitlines()
    head = lines[0].split("\t")
    rows = [dict(zip(head, line.split("\t"))) for line in lines[1:]]
    return {r["name"]: r["available"] == "yes" for r in rows}


def vector_kernel(avail):
    for k in ("avx2_t_u4", "sse2_t_u4", "scalar_t_u4"):
        if avail.get(k):
            return k
    return "rep_stosb"


def errors():
    avail = kernels()
    with open("/proc/meminfo") as f:
        huge = int(re.search(r"HugePages_Total:\s+(\d+)", f.read()).group(1))
    cases = [
        (["--call", "0"], "zero size"),
        (["--call", "-4"], "negative size"),
        (["--call", "4XB"], "unparsable size"),
        (["--call", "64..32"], "reversed range"),
        (["--ws", "0"], "zero working set"),
        (["--call", "64TiB"], "buffers beyond MemAvailable"),
        (["--call", "4KiB", "--victim", "own:20TiB"], "a victim beyond MemAvailable"),
        (["--threads", "100000"], "more threads than allowed CPUs"),
        (["--threads", "0"], "zero threads"),
        (["--kernels", "avx2_t_u5"], "unknown kernel"),
        (["--kernels", "zz*"], "glob matching nothing"),
        (["--membind", "63"], "absent NUMA node"),
        (["--fill", "256"], "fill out of range"),
        (["--misalign", "64"], "misalignment out of range"),
        (["--preset", "bogus"], "unknown preset"),
        (["--bogus"], "unknown option"),
        (["--benchmark_out=x.json"], "benchmark_out refused"),
        (["--csv", "/nonexistent/dir/x.csv"], "unwritable output path"),
        (["--rw", "101"], "rw ratio above 100"),
        (["--rw", "-5"], "negative rw ratio"),
        (["--rw", "abc"], "unparsable rw ratio"),
        (["--rw", "3:1:1"], "unparsable read:write ratio"),
        (["--rw", "50,1:1"], "two rw elements naming one share"),
        (["--rw-mode", "mixed"], "unknown rw mode"),
        (["--rw-layout", "striped"], "unknown rw layout"),
        (["--rw", "50", "--rw-mode", "split", "--threads", "1"], "split with one thread"),
        (["--rw", "50", "--chunk", "100"], "chunk not a multiple of 64"),
        (["--rw", "50", "--call", "64KiB", "--chunk", "128KiB"], "chunk larger than the region"),
        (["--victim", "nearby:4KiB"], "unknown victim mode"),
        (["--victim", "own:32"], "victim smaller than a line"),
        (["--victim", "chase"], "victim without a size"),
        (["--victim-delay", "2000000000"], "victim delay above a second"),
    ]
    if not huge:
        cases.append((["--pages", "hugetlb"], "hugetlb with none reserved"))
    unrunnable = [k for k, ok in avail.items() if not ok]
    if unrunnable:
        cases.append((["--kernels", unrunnable[0]], "exactly named kernel the CPU cannot run"))
    if avail.get("clzero"):
        cases.append((["--kernels", "clzero"], "zero-only kernel with a non-zero fill"))
    for args, what in cases:
        with tempfile.TemporaryDirectory() as d:
            r = run(args, d)
            lines = r.stderr.strip().splitlines()
            check(r.returncode == 2, f"{what}: exit {r.returncode}, want 2 ({r.stderr.strip()})")
            check(len(lines) == 1, f"{what}: want one stderr line, got {lines}")
            check(os.listdir(d) == [], f"{what}: left files behind: {os.listdir(d)}")
            if what == "unknown kernel":
                check("did you mean avx2_t_u" in r.stderr and "avx2_t_u4" in r.stderr,
                      f"unknown kernel: no close-name suggestion in {r.stderr.strip()}")
            print(f"ok: {what}: {r.stderr.strip()}")
    # every combination skipped: the note that says why comes before "nothing to measure"
    # (issue 40.14: memset_const has no row for a 100-byte call; the error alone named neither)
    with tempfile.TemporaryDirectory() as d:
        r = run(["--kernels", "memset_const", "--call", "100", "--threads", "1"], d)
        err = r.stderr
        check(r.returncode == 2 and "compile-time-size" in err and "nothing to measure" in err
              and err.index("compile-time-size") < err.index("nothing to measure") and
              os.listdir(d) == [], f"nothing to measure: the skip note first, exit 2: {err}")
    # existing files are never overwritten, and the other file is not left behind
    with tempfile.TemporaryDirectory() as d:
        old, new_csv, new_json = (os.path.join(d, n) for n in ("old", "new.csv", "new.json"))
        with open(old, "w") as f:
            f.write("keep\n")
        for args, what in ((["--csv", old, "--json", new_json], "existing CSV"),
                           (["--csv", new_csv, "--json", old], "existing JSON")):
            r = run(["--kernels", "memset", "--call", "64"] + args, d)
            check(r.returncode == 2, f"{what}: exit {r.returncode}")
            check(len(r.stderr.strip().splitlines()) == 1, f"{what}: {r.stderr}")
            check(open(old).read() == "keep\n", f"{what}: the existing file was modified")
            check(sorted(os.listdir(d)) == ["old"], f"{what}: left {os.listdir(d)}")
            print(f"ok: {what}: {r.stderr.strip()}")


def sweep():
    avail = kernels()
    vk = vector_kernel(avail)
    # groups of one kernel: the answer line says there was nothing to compare (issue 40.16:
    # "0 decided, 0 tie, 0 undecided" alone)
    with tempfile.TemporaryDirectory() as d:
        r = run(["--kernels", "memset", "--call", "4KiB,8KiB", "--threads", "1", "--rounds", "2",
                 "--min-time", "0.002", "--repetitions", "2", *NO_CANARY], d)
        check(r.returncode == 0 and "2 groups with nothing to compare (one kernel)" in r.stderr,
              f"single-kernel groups named in the answer line: {r.stderr[-400:]}")
    # a budget that cannot act is said to have no effect (issue 40.16: ignored without a note)
    with tempfile.TemporaryDirectory() as d:
        r = run(["--kernels", "memset", "--call", "4KiB", "--threads", "1", "--rounds", "1",
                 "--budget", "5", "--min-time", "0.002", "--repetitions", "1", *NO_CANARY], d)
        check(r.returncode == 0 and "--budget 5 s adds rounds" in r.stderr and
              "no effect" in r.stderr, f"--rounds 1 --budget 5: a note: {r.stderr[-400:]}")
    with tempfile.TemporaryDirectory() as d:
        args = ["--kernels", f"memset,{vk}", "--call", "4KiB,64KiB", "--threads", "1,all",
                "--min-time", "0.002", "--repetitions", "2", *NO_CANARY]
        r = run(args, d)
        check(r.returncode == 0, f"sweep exit {r.returncode}: {r.stderr[-2000:]}")
        folders = os.listdir(os.path.join(d, "results"))
        check(len(folders) == 1, f"one machine folder, got {folders}")
        files = sorted(os.listdir(os.path.join(d, "results", folders[0])))
        check(len(files) == 2 and files[0].endswith(".csv") and files[1].endswith(".json"),
              f"CSV + JSON beside it, got {files}")
        csv = os.path.join(d, "results", folders[0], files[0])
        meta, rows = read_csv(csv)
        for key in ("storebench_version", "git_sha", "utc_time", "command_line", "host",
                    "cpu_codename", "cpu_microcode", "kernel", "glibc_version", "thp_enabled",
                    "compiler", "benchmark_version", "tsc_hz", "cycles", "preset", "threads",
                    "placement_cpus", "fill_byte", "prefill_byte", "inject_slowdown_pct"):
            check(key in meta, f"metadata key {key} missing")
        check(float(meta.get("tsc_hz", 0)) > 1e8, f"tsc_hz {meta.get('tsc_hz')}")
        version = subprocess.run([SB, "--version"], capture_output=True, text=True).stdout
        check(meta.get("storebench_version") == version.split("\n", 1)[0].split(" ", 1)[-1],
              "metadata storebench_version is not `storebench --version`'s version (issue 14.5)")
        check(rows and rows[0] == COLUMNS, "header differs from csv_columns.def")
        data = [dict(zip(COLUMNS, r)) for r in rows[1:]]
        nthreads = len(set(x["threads"] for x in data))
        check(len(data) == 2 * 2 * nthreads, f"{len(data)} rows, want {4 * nthreads}")
        for r, x in zip(rows[1:], data):
            check(len(r) == len(COLUMNS), f"row has {len(r)} fields: {r}")
            check(x["verified"] == "ok", f"row not verified: {r}")
            check(float(x["gbps_median"]) > 0 and int(x["write_bytes"]) > 0, f"empty rate: {r}")
            check(x["repetitions"] == "2", f"repetitions {x['repetitions']}")
            check(int(x["write_bytes"]) == int(x["call_bytes"]) * int(x["calls_per_batch"]) *
                  int(x["threads"]), f"write_bytes accounting: {r}")
        doc = json.load(open(os.path.join(d, "results", folders[0], files[1])))
        names = {b["run_name"] for b in doc["benchmarks"]}
        check(len(names) == len(data), f"{len(names)} JSON benchmarks for {len(data)} rows")
        check(doc["context"].get("git_sha") == meta.get("git_sha"), "JSON context lacks metadata")
        # the other plans: hot, cold, seq and random working sets, misaligned, all verified
        r = run(["--kernels", vk, "--call", "64,4KiB", "--ws", "hot,cold,seq:256KiB,random:256KiB",
                 "--misalign", "0,7", "--threads", "1", "--min-time", "0.002",
                 "--repetitions", "1", "--pages", "thp", "--placement", "spread",
                 "--membind", "interleave", *NO_CANARY, "--csv", "ws.csv"], d)
        check(r.returncode == 0, f"working-set sweep exit {r.returncode}: {r.stderr[-2000:]}")
        meta, rows = read_csv(os.path.join(d, "ws.csv"))
        data = [dict(zip(COLUMNS, r)) for r in rows[1:]]
        check(len(data) == 2 * 4 * 2, f"working-set sweep: {len(data)} rows, want 16")
        check(all(x["verified"] == "ok" for x in data), "working-set sweep: unverified rows")
        check(all((x["pages"], x["placement"], x["membind"]) == ("thp", "spread", "interleave")
                  for x in data), "page, placement and membind settings not in the rows")
        check({x["ws_mode"] for x in data} == {"hot", "cold", "seq", "random"}, "ws modes")
        # the LLC share the run used at its one thread: the L3 as measured or as reported
        used = dict(i.split(":") for i in meta.get("levels_t1_used", "").split(",") if ":" in i)
        llc = int(used.get("L3") or used.get("L2") or 0)
        check(llc and all(int(x["ws_bytes"]) >= 4 * llc for x in data if x["ws_mode"] == "cold"),
              f"cold working set >= 4 x the LLC share used ({llc})")
        # a second run of the same sweep: compare.py must accept the pair (it needs scipy)
        r = run(args + ["--csv", "again.csv"], d)
        check(r.returncode == 0, f"second sweep exit {r.returncode}")
        py = [p for p in (sys.executable, "/usr/bin/python3") if os.path.exists(p) and
              subprocess.run([p, "-c", "import scipy"], capture_output=True).returncode == 0]
        if py and os.path.exists(COMPARE):
            cmp = subprocess.run([py[0], COMPARE, "benchmarks",
                                  os.path.join(d, "results", folders[0], files[1]),
                                  os.path.join(d, "again.json")], capture_output=True, text=True)
            check(cmp.returncode == 0, f"compare.py rejected the JSON: {cmp.stderr[-500:]}")
            check(all(n in cmp.stdout for n in names), "compare.py output lacks a point")
            print("ok: compare.py accepts two runs")
        else:
            print("note: no python with scipy or no compare.py: compare.py not exercised")


def point_names(path):
    """The benchmark names in a JSON file, without Google Benchmark's /min_time... suffixes."""
    return {re.sub(r"/(min_time|repeats|manual_time).*", "", b["run_name"])
            for b in json.load(open(path))["benchmarks"]}


def rw_rows(path):
    meta, rows = read_csv(path)
    check(rows and rows[0] == COLUMNS, f"{path}: header differs from csv_columns.def")
    return meta, [dict(zip(COLUMNS, r)) for r in rows[1:]]


def rw():
    """Read/write mixes through the real runner: exact byte accounting per pass, the written share
    within one chunk, rw 0 writes nothing, rw 100 is the store-only row, split's roles."""
    avail = kernels()
    nt = next((k for k in ("avx512_nt_u4", "avx2_nt_u4", "sse2_nt_u4") if avail.get(k)), None)
    ks = "memset" + ("," + nt if nt else "")
    nk = 1 + (nt is not None)
    region = 65536
    common = ["--kernels", ks, "--call", "64KiB", "--min-time", "0.002", "--repetitions", "1",
              *NO_CANARY]
    with tempfile.TemporaryDirectory() as d:
        r = run(common + ["--threads", "1", "--csv", "store.csv"], d)
        check(r.returncode == 0, f"store-only run exit {r.returncode}: {r.stderr[-1000:]}")
        r = run(common + ["--threads", "1", "--rw", "100,75,50,0", "--rw-layout",
                          "spread,contiguous", "--chunk", "4KiB,3KiB", "--csv", "mix.csv"], d)
        check(r.returncode == 0, f"rw run exit {r.returncode}: {r.stderr[-1000:]}")
        _, store = rw_rows(os.path.join(d, "store.csv"))
        meta, mix = rw_rows(os.path.join(d, "mix.csv"))
        # per kernel: rw 100 once, rw 75 and 50 per layout and chunk, rw 0 per chunk
        check(len(mix) == nk * (1 + 2 * 2 * 2 + 2), f"{len(mix)} rw rows, want {nk * 11}")
        shape = lambda x: {c for c, v in x.items() if v != ""}
        same = ("kernel", "call_bytes", "ws_mode", "ws_bytes", "threads", "rw_ratio", "rw_mode",
                "rw_layout", "chunk_bytes", "read_kernel", "read_bytes", "verified")
        for s in store:
            m = [x for x in mix if x["kernel"] == s["kernel"] and x["rw_ratio"] == "100"]
            check(len(m) == 1, f"{s['kernel']}: {len(m)} rw 100 rows, want 1")
            for x in m:
                check(shape(x) == shape(s), f"rw 100 row differs in shape: {shape(x) ^ shape(s)}")
                check(all(x[c] == s[c] for c in same), f"rw 100 row differs from store-only: {x}")
                check(int(x["write_bytes"]) == int(x["call_bytes"]) * int(x["calls_per_batch"]),
                      f"rw 100 write_bytes: {x}")
        for x in mix:
            check(x["verified"] == "ok", f"unverified rw row: {x}")
            if x["rw_ratio"] == "100":
                continue
            chunk, ratio = int(x["chunk_bytes"]), float(x["rw_ratio"]) / 100
            per_pass = -(-region // chunk)
            calls = int(x["calls_per_batch"])
            check(calls % per_pass == 0, f"calls per batch {calls} not whole passes of {per_pass}")
            passes = calls // per_pass
            rd, wr = int(x["read_bytes"]), int(x["write_bytes"])
            check(rd + wr == passes * region, f"read + write != region per pass: {x}")
            check(0 <= wr / passes - ratio * region < chunk,
                  f"rw {x['rw_ratio']}: {wr / passes} bytes written per pass of {region}")
            check(x["call_bytes"] == x["chunk_bytes"] and x["ws_bytes"] == str(region) and
                  x["ws_mode"] == "seq", f"mixed row: chunk is the call, region the ws: {x}")
            check(x["read_kernel"] == meta.get("read_kernel") and
                  x["read_kernel"].startswith("load_"),
                  f"read_kernel {x['read_kernel']!r}, metadata {meta.get('read_kernel')!r}")
            if x["rw_ratio"] == "0":
                check(wr == 0 and float(x["write_gbps"]) == 0, f"rw 0 wrote: {x}")
            check(abs(float(x["read_gbps"]) + float(x["write_gbps"]) - float(x["total_gbps"])) <=
                  1e-4 * float(x["total_gbps"]), f"read + write GB/s != total: {x}")
        names = point_names(os.path.join(d, "mix.json"))
        check(len(names) == len(mix), f"{len(names)} JSON names for {len(mix)} rows")
        check(any("/rw:75/layout:contiguous" in n for n in names) and
              any(n.endswith("/rw:50") for n in names), f"rw names: {sorted(names)[:4]}")
        print(f"ok: rw accounting over {len(mix)} rows (interleave, spread and contiguous)")
        if len(os.sched_getaffinity(0)) < 2:
            print("note: one CPU here: split mode not exercised")
            return
        # 25 at 2 threads is one writer of two: measured (and labelled) once, as 50
        r = run(common + ["--threads", "2", "--rw", "25,50", "--rw-mode", "split",
                          "--csv", "split.csv"], d)
        check(r.returncode == 0, f"split run exit {r.returncode}: {r.stderr[-1000:]}")
        check("split points measure the ratio whole threads give" in r.stderr,
              f"no note on the rounded split ratio: {r.stderr[-500:]}")
        _, split = rw_rows(os.path.join(d, "split.csv"))
        check(len(split) == nk, f"{len(split)} split rows, want {nk}")
        check(all(x["rw_ratio"] == "50" for x in split),
              f"split rows must carry the measured ratio: {[x['rw_ratio'] for x in split]}")
        for x in split:
            chunk = int(x["chunk_bytes"])
            passes = int(x["calls_per_batch"]) // (region // chunk)
            # one writer of two: its whole region per pass; the reader's bytes are measured
            check(int(x["write_bytes"]) == passes * region, f"split write_bytes: {x}")
            check(int(x["read_bytes"]) > 0 and float(x["read_gbps"]) > 0, f"split read: {x}")
            check(x["rw_mode"] == "split" and x["rw_layout"] == "" and x["verified"] == "ok",
                  f"split row: {x}")
            check(abs(float(x["read_gbps"]) + float(x["write_gbps"]) - float(x["total_gbps"])) <=
                  1e-4 * float(x["total_gbps"]), f"split read + write GB/s != total: {x}")
        names = point_names(os.path.join(d, "split.json"))
        check(all(n.endswith("/rw:50/mode:split") for n in names), f"split names: {names}")
        print(f"ok: split with 2 threads over {len(split)} rows")


def victim():
    """--victim through the real runner (docs/victim.md): every victim row has its paired trials,
    medians and an interval around its median, in the victim_ or chase_ columns by mode and only
    there; a row without a victim leaves them all empty; a mix takes no victim (noted); the
    victim's CPU is the writer's (own) or another one."""
    common = ["--kernels", "memset", "--call", "256KiB", "--threads", "1", "--min-time", "0.002",
              "--repetitions", "1", *NO_CANARY]
    other = len(os.sched_getaffinity(0)) > 1
    victims = "none,own:L1d,own:8KiB..16KiB" + (",chase:64KiB,remote:L1d,shared:L1d" if other else "")
    with tempfile.TemporaryDirectory() as d:
        # a delay is a chase's axis: the other points are measured once, at no delay
        r = run(common + ["--victim", victims, "--victim-delay", "0,1000000", "--rw", "100,50",
                          "--csv", "v.csv"], d)
        check(r.returncode == 0, f"victim run exit {r.returncode}: {r.stderr[-1000:]}")
        check("victim combinations skipped" in r.stderr,
              f"no note on the mix's (or a missing core's) victims: {r.stderr[-500:]}")
        _, rows = rw_rows(os.path.join(d, "v.csv"))
        probe = [c for c in COLUMNS if c.startswith(("victim_", "chase_")) and
                 c not in ("victim_bytes", "victim_cpu")]
        by = {}
        for x in rows:
            by.setdefault((x["rw_ratio"], x["victim"]), []).append(x)
            check(x["verified"] == "ok", f"unverified: {x['point']}")
            if x["victim"] == "none":
                check(all(x[c] == "" for c in probe + ["victim_bytes", "victim_cpu"]),
                      f"victim columns filled without a victim: {x['point']}")
                check("/victim:" not in x["point"], f"name of a point without a victim: {x}")
                continue
            check(x["rw_ratio"] == "100", f"a mix with a victim: {x['point']}")
            check(int(x["victim_bytes"]) % 64 == 0 and int(x["victim_trials"]) == 8,
                  f"victim bytes and trials: {x}")
            kind = "chase_" if x["victim"] == "chase" else "victim_"
            mine = [c for c in probe if c.startswith(kind) and c != "victim_delay_ns"] + \
                (["victim_delay_ns"] if kind == "chase_" else [])
            check(all(x[c] != "" for c in mine), f"{kind} columns missing: {x['point']}")
            check(all(x[c] == "" for c in probe if c not in mine and c != "victim_trials"),
                  f"the other probe's columns filled: {x['point']}")
            check(x["point"].split("/victim:")[1].split("/")[0] ==
                  f"{x['victim']}:{x['victim_bytes']}", f"victim name: {x['point']}")
            pre = "chase" if kind == "chase_" else "victim"
            lo, mid, hi = (float(x[f"{pre}_slowdown{s}"]) for s in ("_ci_low", "", "_ci_high"))
            check(0 < lo <= mid <= hi, f"{pre} interval {lo} {mid} {hi}: {x['point']}")
            if x["victim"] == "own":
                check(x["victim_cpu"] == x["cpus"], f"own victim off the writer's CPU: {x}")
            else:
                check(x["victim_cpu"] != x["cpus"], f"{x['victim']} victim on the writer's CPU")
        check(len(by.get(("100", "own"), [])) == 3, f"own victims: {by.get(('100', 'own'))}")
        check([x["victim"] for x in by.get(("50", "none"), [])] == ["none"],
              "the mix runs once, without a victim")
        if other:
            chases = sorted(by.get(("100", "chase"), []), key=lambda x: int(x["victim_delay_ns"]))
            check([x["victim_delay_ns"] for x in chases] == ["0", "1000000"],
                  f"a chase row per delay: {[x['point'] for x in chases]}")
            # 1 ms after each 256 KiB pass (some microseconds of stores) is nearly all wait: the
            # writers' rate beside the chase must fall by far more than any noise
            if len(chases) == 2:
                slow, fast = (float(x["chase_write_gbps"]) for x in chases[::-1])
                check(chases[1]["point"].endswith("/delay:1000000") and slow < fast / 10,
                      f"delay honoured: {slow} GB/s against {fast} undelayed")
        print(f"ok: victims over {len(rows)} rows")


def stop_by_signal(sig, status):
    """A sweep stopped by sig mid-way: exit status, and every row and the JSON complete."""
    with tempfile.TemporaryDirectory() as d:
        csv = os.path.join(d, "s.csv")
        p = subprocess.Popen([SB, "run", "--kernels", "memset,rep_stosb", "--call", "4KiB..16MiB",
                              "--threads", "1", "--min-time", "0.05", "--repetitions", "3",
                              "--csv", csv], cwd=d, stdout=subprocess.DEVNULL,
                             stderr=subprocess.PIPE, text=True)
        err = signal_at_point(p, sig)
        check(p.returncode == status, f"signal {sig}: exit {p.returncode}, want {status}")
        meta, rows = read_csv(csv)
        data = rows[1:]
        check(rows and rows[0] == COLUMNS, "header after the signal")
        check(2 <= len(data) < 2 * 13, f"{len(data)} rows after the signal: not stopped mid-sweep?")
        for r in data:
            check(len(r) == len(COLUMNS) and r[-1] == "ok", f"incomplete row after the signal: {r}")
        doc = json.load(open(os.path.join(d, "s.json")))
        names = {b["run_name"] for b in doc["benchmarks"]}
        check(len(names) == len(data), f"JSON has {len(names)} points, CSV {len(data)}")
        print(f"ok: signal {sig} after {len(data)} rows: {err.strip().splitlines()[-1]}")


def sigint():
    stop_by_signal(signal.SIGINT, 130)
    stop_by_signal(signal.SIGTERM, 143)


def dist():
    """--call dist:FILE: a store point per kernel and working set, its rows verified (a failed
    verification exits 1), call_dist the file's name, call_bytes the draws' mean (within 2 % of
    the distribution's: 65 536 draws), the hot region its largest call's pages, every byte set
    counted in GB/s (write_bytes per batch = calls x mean, to the rounding of the mean); a
    working set smaller than the largest call, a missing or hostile file: exit 2, one line, no
    file."""
    avail = kernels()
    vk = vector_kernel(avail)
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "mix.dist")
        with open(path, "w") as f:
            f.write("# a test mix\n8 1\n100 2\n4000 1\n")
        mean = (8 + 200 + 4000) / 4
        r = run(["--kernels", f"memset,rep_stosb,{vk}", "--call", f"4KiB,dist:{path}",
                 "--ws", "hot,cold,64KiB", "--threads", "1", "--min-time", "0.002",
                 "--repetitions", "2", "--csv", "d.csv", "--json", "d.json", *NO_CANARY], d)
        check(r.returncode == 0, f"dist sweep exit {r.returncode}: {r.stderr[-1500:]}")
        meta, rows = read_csv(os.path.join(d, "d.csv"))
        col = {c: i for i, c in enumerate(rows[0])}
        dists = [x for x in rows[1:] if x[col["call_dist"]]]
        check(len(dists) == 9 and all(x[col["call_dist"]] == "mix" for x in dists) and
              len(rows) - 1 == 18, f"9 points of the mix beside 9 of 4 KiB: {len(rows) - 1}")
        for x in dists:
            call, ws = int(x[col["call_bytes"]]), int(x[col["ws_bytes"]])
            calls, wb = int(x[col["calls_per_batch"]]), int(x[col["write_bytes"]])
            check(abs(call - mean) < 0.02 * mean and x[col["quality"]] and
                  x[col["point"]].endswith("/dist:mix") and
                  {"hot": ws == 4096, "cold": ws >= 16000, "random": ws == 65536}.get(
                      x[col["ws_mode"]], False) and
                  abs(wb - calls * call) <= calls and float(x[col["gbps_median"]]) > 0,
                  f"a row of the mix: {x[col['point']]} call {call} ws {ws} "
                  f"calls {calls} bytes {wb}")
        for args, want in ((["--call", f"dist:{path}", "--ws", "1KiB"],
                            "has calls of 4000 bytes, more than --ws 1024 bytes"),
                           (["--call", "dist:" + os.path.join(d, "none.dist")],
                            "No such file or directory"),
                           (["--call", "dist:"], "want dist:NAME")):
            bad = run(["--kernels", "memset", "--threads", "1", "--csv", "e.csv", *args], d)
            lines = bad.stderr.strip().splitlines()
            check(bad.returncode == 2 and len(lines) == 1 and want in lines[0] and
                  not os.path.exists(os.path.join(d, "e.csv")),
                  f"{args}: exit 2, one line with {want!r} ({bad.returncode}: {bad.stderr!r})")
        with open(path, "w") as f:
            f.write("8 nan\n")
        bad = run(["--kernels", "memset", "--call", f"dist:{path}", "--threads", "1"], d)
        check(bad.returncode == 2 and "line 1: weight nan is not a finite number" in bad.stderr,
              f"a NaN weight: exit 2 ({bad.returncode}: {bad.stderr!r})")


{"errors": errors, "sweep": sweep, "sigint": sigint, "rw": rw, "victim": victim,
 "dist": dist}[PART]()
sys.exit(check.finish(f"run {PART}"))
