#!/usr/bin/env python3
# cli_test.py — `storebench list`, `info`, `class` and the dispatcher, checked against kernels.def
# and committed runs.
# python3 standard library.  Kernel names come from kernels/kernels.def itself, so a row added
# there and missing from `list` (or the reverse) fails here.
import os
import re
import subprocess
import sys
import tempfile

from testlib import Checker

INFO_KEYS = """storebench_version git_sha host cpu_vendor cpu_brand cpu_family cpu_model cpu_stepping
cpu_codename cpu_microcode hypervisor isa_usable erms fsrm invariant_tsc cache_l1d_bytes
cache_l1d_shared_cpus cache_l1d_instances cache_l2_bytes online_cpus smt_threads_per_core
numa_nodes kernel glibc_version glibc_tunables glibc_memset_variant thp_enabled compiler cflags benchmark_version""".split()

check = Checker()


def run(*args):
    return subprocess.run([exe, *args], capture_output=True, text=True, timeout=60)


def test_list():
    names = re.findall(r"^KERNEL\(\s*(\w+)\s*,", open(kernels_def).read(), re.M)
    check(len(names) > 0, "no KERNEL rows parsed from kernels.def")
    r = run("list", "--tsv")
    check(r.returncode == 0, f"list --tsv exit {r.returncode}: {r.stderr.strip()}")
    lines = r.stdout.splitlines()
    header = lines[0].split("\t")
    rows = [dict(zip(header, l.split("\t"))) for l in lines[1:]]
    check(all(len(l.split("\t")) == len(header) for l in lines[1:]), "ragged TSV rows")
    check([row["name"] for row in rows] == names,
          f"list rows {[row['name'] for row in rows]} != kernels.def {names}")
    for row in rows:
        check(row["available"] in ("yes", "no"), f"{row['name']}: available={row['available']}")
        if row["available"] == "no":
            check(row["reason"].startswith("needs "), f"{row['name']}: unavailable without reason")
        else:
            check(row["reason"] == "", f"{row['name']}: available but reason {row['reason']!r}")
        check(int(row["granule_bytes"]) == int(row["width_bytes"]) * int(row["unroll"]),
              f"{row['name']}: granule != width * unroll")
    loads = ["load_" + n for n in re.findall(r"^LOAD\(\s*(\w+)\s*,",
                                             open(os.path.join(os.path.dirname(kernels_def),
                                                               "load.def")).read(), re.M)]
    check(len(loads) > 0, "no LOAD rows parsed from load.def")
    r = run("list", "--loads", "--tsv")
    check(r.returncode == 0, f"list --loads --tsv exit {r.returncode}: {r.stderr.strip()}")
    lines = r.stdout.splitlines()
    lrows = [dict(zip(lines[0].split("\t"), l.split("\t"))) for l in lines[1:]]
    check([row["name"] for row in lrows] == loads, f"list --loads rows != load.def {loads}")
    check(all(row["available"] in ("yes", "no") and
              int(row["granule_bytes"]) == int(row["width_bytes"]) * int(row["unroll"])
              for row in lrows), "list --loads: bad available or granule column")
    table = run("list")
    check(table.returncode == 0 and all(n in table.stdout for n in names + loads),
          "list table misses store or read kernel names")
    test_list_options()


def test_list_options():
    """list --options --tsv: every option `run --help` documents, once, with its default, the
    setting key a run records it under, and each preset's value as `list --presets` gives it."""
    r = run("list", "--options", "--tsv")
    check(r.returncode == 0, f"list --options --tsv exit {r.returncode}: {r.stderr.strip()}")
    lines = [ln.split("\t") for ln in r.stdout.splitlines()]
    head, rows = lines[0], {ln[0]: dict(zip(lines[0], ln)) for ln in lines[1:]}
    check(head[:4] == ["name", "value", "default", "setting_key"] and
          all(len(ln) == len(head) for ln in lines), f"list --options header {head}, ragged rows")
    documented = set(re.findall(r"^\s+--([a-z][a-z0-9-]*)", run("run", "--help").stdout, re.M))
    documented = {o for o in documented if not o.startswith("benchmark_")}
    check(documented and documented <= set(rows), "run --help options missing from list "
          f"--options: {sorted(documented - set(rows))}")
    presets = [ln.split("\t") for ln in run("list", "--presets", "--tsv").stdout.splitlines()]
    for p in presets[1:]:
        for col, v in zip(presets[0][1:], p[1:]):
            check(rows.get(col, {}).get(p[0]) == v,
                  f"list --options: preset {p[0]}'s {col} {rows.get(col, {}).get(p[0])!r}, "
                  f"list --presets says {v!r}")
    check(rows["fill"]["default"] == "0xa5" and rows["fill"]["setting_key"] == "fill_byte" and
          rows["kernels"]["setting_key"] == "" and rows["canary"]["setting_key"] == "canary",
          f"list --options: fill {rows['fill']}, kernels {rows['kernels']}")
    text = run("list", "--options").stdout
    check("--repetitions N  (the setting repetitions)" in text and "presets: quick 6" in text,
          f"list --options as text: {text[:300]}")
    both = run("list", "--options", "--presets")
    check(both.returncode == 2 and "want one of them" in both.stderr,
          f"list --options --presets: exit {both.returncode}: {both.stderr.strip()}")


def test_info():
    r = run("info")
    check(r.returncode == 0, f"info exit {r.returncode}")
    keys = {}
    for line in r.stdout.splitlines():
        m = re.fullmatch(r"([a-z0-9_]+)=(.*)", line)
        check(m is not None, f"info line not key=value: {line!r}")
        if m:
            check(m.group(1) not in keys, f"info key twice: {m.group(1)}")
            keys[m.group(1)] = m.group(2)
    for k in INFO_KEYS:
        check(k in keys, f"info lacks {k}")
    check(int(keys.get("online_cpus", "0")) >= 1, "online_cpus < 1")
    check(int(keys.get("numa_nodes", "0")) >= 1, "numa_nodes < 1")
    check("sse2" in keys.get("isa_usable", "").split(), "x86-64 without sse2 in isa_usable")


def test_dispatch():
    for args in (["bogus"], ["list", "--bogus"], ["info", "extra"]):
        r = run(*args)
        check(r.returncode == 2, f"{args}: exit {r.returncode}, want 2")
        check(len(r.stderr.splitlines()) == 1, f"{args}: stderr not one line: {r.stderr!r}")
        check(r.stdout == "", f"{args}: wrote stdout on bad input")
    for args in (["help"], ["-h"], ["--help"]):
        r = run(*args)
        check(r.returncode == 0 and "usage: storebench" in r.stdout, f"{args}: no usage")
    r = run("--version")
    check(r.returncode == 0 and r.stdout.startswith("storebench "), "--version")
    # Issue 14.5: the package version (bench/version.cmake's form), the git sha and the build
    # flags, as the same key=value lines info and every CSV carry.
    lines = r.stdout.splitlines()
    version = lines[0].split(" ", 1)[-1] if lines else ""
    check(re.fullmatch(r"\d+\.\d+\.\d+(\+git\d+\.g[0-9a-f]+(\.dirty)?)?", version) is not None,
          f"--version: {version!r} is not VERSION or VERSION+gitN.gSHA[.dirty]")
    keys = dict(ln.split("=", 1) for ln in lines[1:] if "=" in ln)
    for k in ("storebench_version", "git_sha", "compiler", "build_type", "cflags",
              "benchmark_version"):
        check(k in keys, f"--version lacks {k}=")
    check(keys.get("storebench_version") == version, "--version: storebench_version= differs "
          "from the first line")
    if version and "+git" in version:
        check(version.split(".g")[-1].split(".")[0] in keys.get("git_sha", "-"),
              "--version: the package version names another commit than git_sha")
    info = dict(ln.split("=", 1) for ln in run("info").stdout.splitlines() if "=" in ln)
    for k in keys:
        check(info.get(k) == keys[k], f"--version's {k}= differs from info's")


def test_class():
    """`storebench class CSV`: each row's ws_class by the binary's rule from the CSV's metadata."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(kernels_def)))
    runs = os.path.join(root, "results")
    sys.path.insert(0, os.path.join(root, "scripts"))
    from storebench import reader
    # runs that wrote the column (two guests, 1 and 2 threads, measured levels): the same classes
    for name in ("turin-vm/20261206T113223Z.csv", "turin-vm/20261206T113627Z.csv",
                 "emerald-rapids-vm/20261204T164719Z.csv"):
        path = os.path.join(runs, name)
        r = run("class", path)
        want = [row["ws_class"] for row in reader.load(path).rows]
        check(r.returncode == 0 and r.stdout.split("\n")[:-1] == want,
              f"class {name}: the run's own ws_class, row by row ({r.returncode}, "
              f"{r.stdout.count(chr(10))} lines for {len(want)} rows, {r.stderr.strip()})")
    # a run from before the column: every level found, and its metadata's L3 is what decides
    old = os.path.join(runs, "turin-vm", "20261203T034314Z.csv")
    r = run("class", old)
    got = r.stdout.split("\n")[:-1]
    check(r.returncode == 0 and len(got) == len(reader.load(old).rows) and
          {"L1d", "L2", "L3", "DRAM", ""} <= set(got),
          f"class of a CSV before the column: {r.returncode}, {sorted(set(got))}")
    with tempfile.TemporaryDirectory() as tmp:
        bigger = os.path.join(tmp, "l3x4.csv")
        with open(old) as f, open(bigger, "w") as g:
            g.write(f.read().replace("# cache_l3_bytes=33554432\n", "# cache_l3_bytes=134217728\n"))
        moved = run("class", bigger).stdout.split("\n")[:-1]
        check(len(moved) == len(got) and any(a == "DRAM" and b != "DRAM"
                                             for a, b in zip(got, moved)),
              "an L3 four times larger in the metadata moves rows out of DRAM")
        bare = os.path.join(tmp, "bare.csv")
        with open(bare, "w") as f:
            f.write("kernel,threads\nmemset,1\n")
        for args, text in ((["class"], "give one CSV"),
                           (["class", os.path.join(tmp, "none.csv")], "No such file"),
                           (["class", bare], "no ws_bytes column")):
            r = run(*args)
            lines = r.stderr.strip().splitlines()
            check(r.returncode == 2 and len(lines) == 1 and text in lines[0] and not r.stdout,
                  f"{args[1:]}: exit 2 and one line naming {text!r} ({r.returncode}, {lines})")
    r = run("class", "--help")
    check(r.returncode == 0 and "usage: storebench class CSV" in r.stdout, "class --help")


exe, kernels_def, which = sys.argv[1], sys.argv[2], sys.argv[3]
{"list": test_list, "info": test_info, "dispatch": test_dispatch, "class": test_class}[which]()
sys.exit(check.finish(f"cli {which}"))
