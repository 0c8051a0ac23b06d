#!/usr/bin/env python3
# scale_test.py — sweeps that scale, through `storebench run --dry-run` on every fixture machine
# (tests/fixtures/machines) and this one: presets plan within memory and their time budgets, spread
# fills every L3 domain and node before doubling up (SMT last), cache words are per-thread shares,
# the memory check is the pool's real peak, and rows say where their threads ran.  Python 3 stdlib.
# Usage: scale_test.py <storebench> <fixtures/machines dir> presets|spread|shares|replay|rows
import csv
import os
import re
import shutil
import subprocess
import sys
import tempfile

from testlib import Checker

SB, DIR, PART = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2]), sys.argv[3]
TOPOLOGIES = sorted(f[:-4] for f in os.listdir(os.path.join(DIR, "topology")) if f.endswith(".xml"))
# The CPUID dump that gives each vendor's fixtures the most kernels (AVX-512, MOVDIR64B, ...).
DUMPS = {"intel": "intel-xeon-platinum-8570.test", "amd": "amd-epyc-9655-96-core-processor.test"}
AMD = ("genoa", "milan", "turin")
# plan_rules.h: the DRAM word's floor and ceiling per thread, the preset budgets
DRAM_FLOOR, DRAM_CEILING = 16 << 20, 1 << 30
check = Checker()


def sb(*args, env=None, cwd=None):
    return subprocess.run([SB, *args], capture_output=True, text=True, timeout=120, env=env,
                          cwd=cwd)


def replay_args(name):
    dump = DUMPS["amd" if name.startswith(AMD) else "intel"]
    return ["--topology", os.path.join(DIR, "topology", name + ".xml"),
            "--cpuid", os.path.join(DIR, "cpuid", dump)]


def kv(line):
    """key=value tokens of a plan line, up to its '#' comment."""
    return dict(t.split("=", 1) for t in line.split("#")[0].split() if "=" in t)


def plan(*args, what):
    """The dry run's lines as (machine, [(threads line, [point lines])], summary)."""
    r = sb("run", "--dry-run", *args)
    check(r.returncode == 0, f"{what}: exit {r.returncode}: {r.stderr.strip()[-500:]}")
    machine, groups, summary = {}, [], {}
    for line in r.stdout.splitlines():
        if line.startswith("#"):
            continue
        d = kv(line)
        if line.startswith("machine="):
            machine = d
        elif line.startswith("threads="):
            groups.append((d, []))
        elif line.startswith("  point="):
            groups[-1][1].append(d)
        elif line.startswith("node="):
            summary.setdefault("nodes", []).append(d)
        elif not line.startswith("  "):
            summary.update(d)
    return machine, groups, summary


def cpulist(s):
    out = []
    for part in filter(None, s.split(",")):
        a, _, b = part.partition("-")
        out += range(int(a), int(b or a) + 1)
    return out


def test_presets():
    """quick and nightly plan on every fixture: memory under the machine's, within the budget,
    every point of a thread count between L1d/4 and that count's DRAM size."""
    for name in TOPOLOGIES:
        for preset in ("quick", "nightly"):
            for placement in ("compact", "spread"):
                what = f"{name} --preset {preset} --placement {placement}"
                machine, groups, s = plan("--preset", preset, "--placement", placement,
                                          *replay_args(name), what=what)
                check(int(s.get("points", 0)) == sum(len(p) for _, p in groups) > 0,
                      f"{what}: points={s.get('points')}")
                check(s.get("within") == "yes", f"{what}: estimated {s.get('estimated_s')} s "
                      f"over the budget {s.get('budget_s')} s")
                mem = int(s.get("memory_bytes", 0))
                check(s.get("fits") == ("yes" if mem else "unknown") and
                      (not mem or int(s["memory_peak_bytes"]) <= mem),
                      f"{what}: peak {s.get('memory_peak_bytes')} of {mem}")
                for n in s.get("nodes", []):
                    check(n["fits"] in ("yes", "unknown"), f"{what}: node {n}")
                threads = [int(g["threads"]) for g, _ in groups]
                check(threads[0] == 1 and threads[-1] == int(machine["allowed_cpus"]) and
                      all(b in (2 * a, threads[-1]) for a, b in zip(threads, threads[1:])),
                      f"{what}: thread counts {threads}, want 1, 2, 4 ... all")
                for g, pts in groups:
                    dram, llc = int(g["dram"]), int(g["share_llc"])
                    ws = [int(p["ws_bytes"]) for p in pts]
                    check(DRAM_FLOOR <= dram <= DRAM_CEILING and
                          dram >= min(DRAM_CEILING, 4 * llc),
                          f"{what}: threads {g['threads']}: DRAM {dram} for an LLC share of {llc}")
                    check(max(ws) == dram and min(ws) == int(g["share_l1d"]) // 4,
                          f"{what}: threads {g['threads']}: ws {min(ws)}..{max(ws)}, want "
                          f"L1d/4..DRAM = {int(g['share_l1d']) // 4}..{dram}")
                    check({p["regime"] for p in pts if int(p["ws_bytes"]) == dram} == {"DRAM"},
                          f"{what}: threads {g['threads']}: the DRAM size is not in DRAM")
            if name in ("synthetic-gnr-2s-snc3", "synthetic-turin-2s-nps4"):
                print(f"ok: {name} {preset}: {s.get('points')} points, peak "
                      f"{int(s['memory_peak_bytes']) / 2**30:.1f} GiB, estimated "
                      f"{s.get('estimated_s')} s (budget {s.get('budget_s')} s)")
    canary_priced()


def canary_priced():
    """The drift canary is in the estimate: a sample at the start, one per period of sweep and
    one at the end, and the estimate grows by exactly its stated cost."""
    name = "synthetic-turin-2s-nps4"
    base = ["--preset", "quick", *replay_args(name)]
    _, _, off = plan(*base, "--canary", "off", what=f"{name} quick --canary off")
    _, _, on = plan(*base, "--canary", "on", "--canary-period", "5", what=f"{name} quick canary")
    sweep = float(off.get("estimated_s", 0))
    samples, cost = int(on.get("canary_samples", 0)), float(on.get("canary_s", 0))
    check("canary_samples" not in off, "--canary off: the dry run prices no canary")
    check(abs(samples - 2 - sweep / 5) < 1.5,
          f"{name}: {samples} canary samples for a {sweep} s sweep every 5 s")
    check(cost > 0 and abs(float(on.get("estimated_s", 0)) - sweep - cost) <= 1,
          f"{name}: estimate {on.get('estimated_s')} s = sweep {sweep} s + canary {cost} s")


def test_spread():
    """Spread gives every L3 domain and NUMA node a thread before any gets a second, and the
    first PU of every core before an SMT sibling; the rows' numbers say so at every count."""
    for name in TOPOLOGIES:
        machine, groups, _ = plan("--placement", "spread", "--kernels", "memset", "--call", "4KiB",
                                  "--threads", "1..all:+1", *replay_args(name), what=name)
        l3s, cores = int(machine["l3_domains"]), int(machine["cores"])
        all_nodes = set(cpulist(groups[-1][0]["nodes"]))
        seen = []
        for g, pts in groups:
            t = int(g["threads"])
            cpus, nodes = cpulist(g["cpus"]), set(cpulist(g["nodes"]))
            check(len(cpus) == t and len(pts) == 1, f"{name}: {t} threads on {len(cpus)} CPUs")
            check(len(nodes) == min(t, len(all_nodes)),
                  f"{name}: {t} threads on nodes {g['nodes']}, want {min(t, len(all_nodes))} nodes")
            if l3s:
                check(int(g["l3_domains"]) == min(t, l3s) and
                      int(g["l3_threads"]) == -(-t // l3s),
                      f"{name}: {t} threads: {g['l3_domains']} L3 domains with at most "
                      f"{g['l3_threads']} threads, want {min(t, l3s)} with {-(-t // l3s)}")
            check((int(g["l2_threads"]) == 1) == (t <= cores),
                  f"{name}: {t} threads: l2_threads {g['l2_threads']} ({cores} cores)")
            # each count's CPUs are the previous count's plus one: one order, not a reshuffle
            check(set(seen) <= set(cpus), f"{name}: {t} threads drop CPUs of {t - 1}")
            seen = cpus
        print(f"ok: {name}: spread over {l3s} L3 domains, {len(all_nodes)} nodes, {cores} cores")


def words(name, placement, threads, call, *extra):
    machine, groups, _ = plan("--placement", placement, "--kernels", "memset", "--call", call,
                              "--threads", str(threads), *extra, *(replay_args(name) if name else []),
                              what=f"{name or 'this machine'} {placement} {threads} {call}")
    return groups[0][0], [int(p["ws_bytes"]) for p in groups[0][1]]


def test_shares():
    """Cache words are a thread's share: instance size / threads placed in it."""
    spr_l3 = 102236160  # 97.5 MiB per package, 80 PUs each
    g, ws = words("spr-2s-xeon-max-9460", "spread", 160, "LLC,L3/2")
    check(int(g["l3_threads"]) == 80 and ws == [spr_l3 // 80, spr_l3 // 80 // 2],
          f"SPR 9460 spread 160: l3_threads {g['l3_threads']}, ws {ws}")
    g, ws = words("spr-2s-xeon-max-9460", "compact", 80, "LLC")
    check(int(g["l3_threads"]) == 40 and ws == [spr_l3 // 40], f"SPR 9460 compact 80: {g}, {ws}")
    one = words("genoa-2s-epyc-9654", "compact", 1, "LLC")[1]
    two = words("genoa-2s-epyc-9654", "compact", 2, "LLC")[1]
    check(two[0] * 2 == one[0] == 32 << 20, f"Genoa compact: LLC at 1 thread {one}, at 2 {two}")
    # private caches: one thread per core keeps a whole L2; SMT siblings share it
    g, ws = words("synthetic-gnr-2s-snc3", "spread", 192, "L2,L1d")
    check(ws == [2000000, 48000] and g["l2_threads"] == "1", f"GNR spread 192: {g}, {ws}")
    g, ws = words("synthetic-gnr-2s-snc3", "spread", 384, "L2,L1d,DRAM")
    check(ws == [1000000, 24000, DRAM_FLOOR], f"GNR spread 384: {ws}")
    # this machine: LLC at 2 threads is its L3 instance over the threads placed in it, as
    # reported; as measured (--levels auto), the share the plan says it measured instead
    info = dict(l.split("=", 1) for l in sb("info").stdout.splitlines() if "=" in l)
    l3 = int(info.get("cache_l3_bytes") or 0)
    if l3 and int(info["allowed_cpus"].split("-")[-1].split(",")[-1]) >= 1:
        g, ws = words(None, "compact", 2, "LLC,DRAM", "--levels", "reported")
        check(ws[0] == l3 // int(g["l3_threads"]) and int(g["l3_threads"]) >= 1,
              f"this machine: LLC at 2 threads {ws[0]}, L3 {l3} over {g['l3_threads']} threads")
        check(DRAM_FLOOR <= ws[1] <= DRAM_CEILING, f"this machine: DRAM {ws[1]} per thread")
        print(f"ok: this machine: L3 {l3} shared by {g['l3_threads']} of 2 threads -> LLC {ws[0]}")
        g, ws = words(None, "compact", 2, "LLC")
        measured = "L3:measured" in g.get("levels", "")
        check(ws[0] == int(g["share_llc"]) and (ws[0] == l3 // int(g["l3_threads"])) != measured,
              f"this machine, levels as measured: LLC {ws[0]}, levels={g.get('levels')}")
    # the memory check replays the pool: 1 GiB at 1 thread is freed when 2 threads regrow
    _, _, s = plan("--kernels", "memset", "--call", "DRAM", "--threads", "1,2",
                   *replay_args("synthetic-gnr-2s-snc3"), what="GNR DRAM 1,2")
    per = -(-(4 * 480000000 // 2 + 2 * 4096) // 4096) * 4096
    check(int(s["memory_peak_bytes"]) == 2 * per, f"GNR DRAM at 1,2 threads: peak "
          f"{s['memory_peak_bytes']}, want {2 * per} (2 x 960000000 and guards, not 1 GiB more)")


def test_replay():
    """A replayed machine is planned, never measured; a dry run writes nothing."""
    gnr = replay_args("synthetic-gnr-2s-snc3")
    with tempfile.TemporaryDirectory() as tmp:
        for args, must in ((["--kernels", "memset", gnr[0], gnr[1]], "never measured"),
                           (["--kernels", "memset", gnr[2], gnr[3]], "never measured")):
            r = sb("run", *args, cwd=tmp)
            check(r.returncode == 2 and must in r.stderr and len(r.stderr.splitlines()) == 1,
                  f"run {args}: exit {r.returncode}, {r.stderr!r}")
        r = sb("run", "--dry-run", "--kernels", "memset", gnr[2], gnr[3], cwd=tmp)
        check(r.returncode == 2 and "--topology" in r.stderr, f"--cpuid alone: {r.stderr!r}")
        r = sb("run", "--dry-run", "--kernels", "memset", "--membind", "5", *gnr, cwd=tmp)
        check(r.returncode == 0, f"--membind 5 on a 6-node replay: {r.stderr!r}")
        r = sb("run", "--dry-run", "--kernels", "memset", "--membind", "6", *gnr, cwd=tmp)
        check(r.returncode == 2 and "--membind '6'" in r.stderr, f"--membind 6: {r.stderr!r}")
        r = sb("run", "--dry-run", "--preset", "quick", cwd=tmp)
        check(r.returncode == 0 and "replayed=no" in r.stdout, f"this machine: {r.stderr!r}")
        # every hwloc variable that loads another topology keeps a real run from measuring
        # (issue 21.5: HWLOC_SYNTHETIC crashed one and left two empty files)
        for var, val in (("HWLOC_SYNTHETIC", "pack:2 core:4 pu:2"), ("HWLOC_FSROOT", tmp),
                         ("HWLOC_XMLFILE", gnr[1])):
            r = sb("run", "--kernels", "memset", "--call", "4KiB", "--threads", "1",
                   "--repetitions", "1", env=dict(os.environ, **{var: val}), cwd=tmp)
            check(r.returncode == 2 and var in r.stderr and len(r.stderr.splitlines()) == 1,
                  f"run under {var}: exit {r.returncode}, {r.stderr.strip()[-300:]}")
        env = dict(os.environ, HWLOC_XMLFILE=gnr[1])
        r = sb("run", "--dry-run", "--kernels", "memset", env=env, cwd=tmp)
        check(r.returncode == 0 and f"replayed=topology:{gnr[1]}" in r.stdout,
              f"HWLOC_XMLFILE dry run: {r.stderr!r}")
        check(os.listdir(tmp) == [], f"dry runs wrote {os.listdir(tmp)}")
    # an inline DTD crashed hwloc's libxml importer (issue 21.4: SIGSEGV in info, list and the
    # dry run); hwloc's own parser reads the file
    with tempfile.TemporaryDirectory() as tmp:
        with open(gnr[1]) as f:
            text = f.read()
        dtd = os.path.join(tmp, "dtd.xml")
        with open(dtd, "w") as f:
            f.write(re.sub(r"<!DOCTYPE[^>]*>", '<!DOCTYPE topology [ <!ELEMENT topology ANY> '
                           '<!ENTITY x "y"> ]>', text, count=1))
        for args in (["info", "--topology", dtd], ["run", "--dry-run", "--kernels", "memset",
                                                   "--topology", dtd]):
            r = sb(*args, cwd=tmp)
            check(r.returncode == 0, f"{args[0]} of a topology with an inline DTD: exit "
                  f"{r.returncode} {r.stderr.strip()[-200:]}")
        # unusable replays say why in one line (issue 21.18 "cannot load it: Success", 21.7
        # --cpuid /dev/zero never returned)
        nonuma = os.path.join(tmp, "nonuma.xml")
        with open(nonuma, "w") as f:
            f.write(re.sub(r'<object type="NUMANode"[^>]*>.*?</object>', "",
                           re.sub(r'<object type="NUMANode"[^>]*/>', "", text), flags=re.S))
        for args, want in ((["--topology", nonuma], "no NUMA node"),
                           (["--cpuid", tmp], "a directory"),
                           (["--cpuid", "/dev/zero"], "not a regular file")):
            r = sb("info", *args, cwd=tmp)
            lines = r.stderr.strip().splitlines()
            check(r.returncode == 2 and len(lines) == 1 and want in lines[0] and
                  "Success" not in lines[0],
                  f"info {args}: exit {r.returncode}, {lines}, want one line naming {want!r}")
    # a newline in a replayed file's name stays inside its value (issue 21.13): the old plan got
    # a line 'fits=yes.xml' of its own
    with tempfile.TemporaryDirectory() as tmp:
        odd = os.path.join(tmp, "x\nfits=yes.xml")
        shutil.copy(gnr[1], odd)
        r = sb("run", "--dry-run", "--kernels", "memset", "--topology", odd, cwd=tmp)
        lines = r.stdout.splitlines()
        check(r.returncode == 0 and not any(ln.startswith("fits=") for ln in lines) and
              any(ln.startswith("replayed=") and ln.endswith("x fits=yes.xml") for ln in lines),
              f"a newline in the topology's name: exit {r.returncode}, "
              f"{[ln for ln in lines if 'fits=yes.xml' in ln]}")


def test_rows():
    """A real run's rows carry cpus, nodes, l2_threads, l3_threads, as the dry run planned."""
    with tempfile.TemporaryDirectory() as tmp:
        args = ["--kernels", "memset", "--call", "4KiB,LLC/64", "--threads", "1,all",
                "--min-time", "0.001", "--repetitions", "1", "--placement", "spread"]
        _, groups, _ = plan(*args, what="rows plan")
        r = sb("run", *args, "--csv", "r.csv", cwd=tmp)
        check(r.returncode == 0, f"rows run: exit {r.returncode}: {r.stderr[-1000:]}")
        with open(os.path.join(tmp, "r.csv")) as f:
            rows = list(csv.DictReader(l for l in f if not l.startswith("#")))
        planned = {g["threads"]: (g, [p["ws_bytes"] for p in pts]) for g, pts in groups}
        check(len(rows) == sum(len(p) for _, p in planned.values()), f"{len(rows)} rows")
        for row in rows:
            g, ws = planned[row["threads"]]
            check((row["cpus"], row["nodes"], row["l2_threads"], row["l3_threads"]) ==
                  (g["cpus"], g["nodes"], g["l2_threads"], g["l3_threads"]),
                  f"row at {row['threads']} threads: {row['cpus']} {row['nodes']} "
                  f"{row['l2_threads']} {row['l3_threads']}, planned {g}")
            check(row["ws_bytes"] in ws, f"row ws {row['ws_bytes']} not planned ({ws})")


{"presets": test_presets, "spread": test_spread, "shares": test_shares, "replay": test_replay,
 "rows": test_rows}[PART]()
sys.exit(check.finish(f"scale {PART}"))
