#!/usr/bin/env python3
# machines_test.py — replayed machines through the storebench CLI: every CPUID dump of
# tests/fixtures/machines decodes to the README's part and the dump's expected block; every hwloc
# topology replays in `info --json`; a replayed machine is never measured.  Python 3 stdlib.
# Usage: machines_test.py <storebench> <fixtures/machines dir> cpuid|topology|replay
import json
import os
import re
import subprocess
import sys
import tempfile

from testlib import Checker

SB, DIR, PART = os.path.abspath(sys.argv[1]), sys.argv[2], sys.argv[3]
check = Checker()

# Names the README's notes and decode line use, as storebench spells the ISA bit (isa_usable/flags).
README_BITS = {"AVX-512": "avx512f", "ERMS": "erms", "FSRM": "fsrm", "CLWB": "clwb",
               "CLZERO": "clzero", "MOVDIR64B": "movdir64b"}
# libcpuid's expected block, after the line of 80 dashes (README: fields_x86 of run_tests.py).
FIELDS = ["architecture", "feature_level", "purpose", "family", "model", "stepping", "extfamily",
          "extmodel", "cores", "logical", "l1d_kb", "l1i_kb", "l2_kb", "l3_kb", "l4_kb"]
FLAGS_FIELD = 33
# The README's decode line abbreviates two part names.
DECODE_ALIASES = {"SPR": "Sapphire Rapids", "EMR": "Emerald Rapids"}


def sb(*args, env=None, cwd=None):
    return subprocess.run([SB, *args], capture_output=True, text=True, timeout=60, env=env, cwd=cwd)


def info(*args):
    r = sb("info", *args)
    check(r.returncode == 0, f"info {args}: exit {r.returncode}: {r.stderr.strip()}")
    return dict(line.split("=", 1) for line in r.stdout.splitlines() if "=" in line)


def readme_rows(section):
    """The rows of the README table that follows the heading `section`, as lists of cells."""
    text = open(os.path.join(DIR, "README.md")).read()
    text = text[text.index(section):]
    end = text.find("\n## ")
    text = text if end < 0 else text[:end]
    return [[c.strip() for c in line.strip("|").split("|")]
            for line in text.splitlines() if line.startswith("| ") and not line.startswith("| file")]


def bit_name(word):
    word = word.strip()
    for name, bit in README_BITS.items():
        if word.startswith(name):
            return bit
    return None


def expected_bits(part, notes, decode_line):
    """bit -> True/False as the README states them for this part (notes column, decode line)."""
    want = {}
    for token in re.split(r"[,;]", notes):
        token = token.strip()
        absent = token.startswith("no ")
        bit = bit_name(token[3:] if absent else token)
        if bit:
            want[bit] = not absent
    name = part.split(" (")[0]
    for group in decode_line.split(";"):
        who, _, bits = group.partition(":")
        if name not in [DECODE_ALIASES.get(w.strip(), w.strip()) for w in who.split("/")]:
            continue
        listed, _, absent = bits.partition(", no ")
        for word in listed.split():
            want[bit_name(word)] = True
        for word in absent.replace(".", "").split():
            want[bit_name(word)] = False
    return want


def test_cpuid():
    text = open(os.path.join(DIR, "README.md")).read()
    decode = re.search(r"Expected decodes of these dumps, CPU #0: (.*?)\n\n", text, re.S).group(1)
    decode = " ".join(decode.split())
    rows = readme_rows("## cpuid/")
    check(len(rows) == 10, f"README cpuid table has {len(rows)} rows")
    for file, part, fam_model, notes in rows:
        path = os.path.join(DIR, "cpuid", file)
        dump = open(path).read()
        block = dump.split("-" * 80 + "\n", 1)[1].splitlines()
        expect = dict(zip(FIELDS, block))
        flags = block[FLAGS_FIELD].split()
        family, model = (int(x, 16) if x.startswith("0x") else int(x) for x in fam_model.split("/"))
        vendor = re.search(r"CPUID 00000000: \S+ \[(\w+)\]", dump).group(1)
        got = json.loads(sb("info", "--json", "--cpuid", path).stdout)
        where = f"{file}:"
        check(got["cpu_vendor"] == vendor, f"{where} vendor {got['cpu_vendor']}, dump says {vendor}")
        check(int(got["cpu_family"], 16) == family == int(expect["extfamily"]),
              f"{where} family {got['cpu_family']}, README {family:#x}, block {expect['extfamily']}")
        check(int(got["cpu_model"], 16) == model == int(expect["extmodel"]),
              f"{where} model {got['cpu_model']}, README {model:#x}, block {expect['extmodel']}")
        check(int(got["cpu_stepping"]) == int(expect["stepping"]), f"{where} stepping")
        check(got["cpu_codename"].split(" (")[0] == part.split(" (")[0],
              f"{where} codename {got['cpu_codename']!r}, README part {part!r}")
        for key, field in (("cache_l1d_bytes", "l1d_kb"), ("cache_l1i_bytes", "l1i_kb"),
                           ("cache_l2_bytes", "l2_kb"), ("cache_l3_bytes", "l3_kb")):
            kb = int(expect[field])
            check(int(got.get(key, "0")) == max(kb, 0) * 1024,
                  f"{where} {key}={got.get(key)}, expected block {kb} KB")
        check(got["cache_source"] == "cpuid" and got["topology"] is None,
              f"{where} CPUID alone must say cache_source=cpuid and have no topology")
        isa = set(got["isa_usable"].split())
        have = {bit: bit in isa for bit in ("avx512f", "clwb", "clzero", "movdir64b")}
        have.update(erms=got["erms"] == "yes", fsrm=got["fsrm"] == "yes")
        for bit in ("sse2", "avx2", "avx512f"):
            check((bit in isa) == (bit in flags), f"{where} {bit}: ours {bit in isa}, libcpuid's "
                  f"expected flags {bit in flags}")
        for bit, want in expected_bits(part, notes, decode).items():
            check(have[bit] == want, f"{where} {bit}: ours {have[bit]}, README {want}")
        tsv = sb("list", "--tsv", "--cpuid", path).stdout.splitlines()
        rows_l = [dict(zip(tsv[0].split("\t"), line.split("\t"))) for line in tsv[1:]]
        for row in rows_l:
            need = set(row["isa"].split())
            check((row["available"] == "yes") == need.issubset(isa),
                  f"{where} list: {row['name']} available={row['available']} with isa {sorted(isa)}")


def test_topology():
    for file in sorted(os.listdir(os.path.join(DIR, "topology"))):
        path = os.path.join(DIR, "topology", file)
        r = sb("info", "--json", "--topology", path)
        check(r.returncode == 0, f"{file}: info --json exit {r.returncode}: {r.stderr.strip()}")
        got = json.loads(r.stdout)
        kv = info("--topology", path)
        check(set(kv) == set(got) - {"topology"}, f"{file}: --json keys differ from key=value keys")
        check(all(got[k] == v for k, v in kv.items()), f"{file}: --json values differ")
        topo = got["topology"]
        backend = re.search(r'<info name="Backend" value="(\w+)"', open(path).read()).group(1)
        check(kv["replayed"] == f"topology:{path}" and kv["cache_source"] == "xml" and
              kv["xml_backend"] == backend and topo["source"] == path,
              f"{file}: replayed={kv['replayed']} cache_source={kv['cache_source']}")
        check(kv["isa_usable"] == "unknown", f"{file}: a topology alone claims an ISA")

        def cpus(s):
            out = set()
            for part in filter(None, s.split(",")):
                lo, _, hi = part.partition("-")
                out.update(range(int(lo), int(hi or lo) + 1))
            return out

        every = cpus(topo["allowed_cpus"])
        check(len(every) == topo["pus"] == int(kv["online_cpus"]), f"{file}: PU counts disagree")
        for what, groups in (("packages", [p["cpus"] for p in topo["packages"]]),
                             ("cores", topo["cores"]),
                             ("L3 instances", [i["cpus"] for c in topo["caches"] if c["level"] == 3
                                               for i in c["instances"]])):
            sets = [cpus(g) for g in groups]
            check(sum(map(len, sets)) == len(every) and set().union(*sets) == every,
                  f"{file}: {what} do not partition the PUs")
        check(len(topo["packages"]) == int(kv["packages"]) and
              len(topo["numa_nodes"]) == int(kv["numa_nodes"]) and
              len(topo["cores"]) == int(kv["cores"]), f"{file}: counts differ between forms")
        mem = " ".join(f"{n['os_index']}:{n['memory_bytes'] or 'unknown'}" for n in topo["numa_nodes"])
        check(mem == kv["numa_node_memory_bytes"], f"{file}: node memory {mem} vs "
              f"{kv['numa_node_memory_bytes']}")
        check(kv["l3_domain_cpus"].split() == [i["cpus"] for c in topo["caches"] if c["level"] == 3
                                               for i in c["instances"]],
              f"{file}: l3_domain_cpus differs from the JSON")
        check(kv["cache_l3_check"] == "ok", f"{file}: cache_l3_check={kv['cache_l3_check']}")


def test_implausible():
    """Issue 21.16 and 21.18: a replayed topology that is no machine is refused (two PUs of one
    number, a node of -5 bytes, no PU allowed); an identity it states badly (a model of 99999999999, no family or model)
    is unknown, never a made-up number; an L3 of 1 byte is flagged implausible; a CPUID dump cut
    after 200 bytes is refused, not read as a CPU with SSE2 alone; an L3 leaf of 2^64 bytes is
    shown and flagged, not dropped."""
    src = open(os.path.join(DIR, "topology", "milan-2s-epyc-7763.xml")).read()
    with tempfile.TemporaryDirectory() as d:
        def variant(name, text):
            path = os.path.join(d, name + ".xml")
            with open(path, "w") as f:
                f.write(text)
            return path
        twice = variant("twice", src.replace('<object type="PU" os_index="1" ',
                                             '<object type="PU" os_index="0" ', 1))
        with_memory = open(os.path.join(DIR, "topology", "cascadelake-2s-snc2.xml")).read()
        negative = variant("negative", re.sub(r'local_memory="\d+"', 'local_memory="-5"',
                                              with_memory, count=1))
        closed = variant("closed", re.sub(r'allowed_cpuset="[^"]*"', 'allowed_cpuset="0x0"', src))
        for path, must in ((twice, "two PUs are numbered 0"), (negative, "NUMA node"),
                           (closed, "none of its 128 PUs is allowed")):
            for cmd in (("info", "--topology", path), ("run", "--dry-run", "--topology", path)):
                r = sb(*cmd)
                check(r.returncode == 2 and must in r.stderr and not r.stdout.strip(),
                      f"{os.path.basename(path)}: {' '.join(cmd[:2])} exit {r.returncode}, "
                      f"stderr {r.stderr.strip()!r}")
        big = variant("model", src.replace('name="CPUModelNumber" value="1"',
                                           'name="CPUModelNumber" value="99999999999"'))
        none = variant("none", re.sub(r'<info name="CPU(Family|Model)Number" value="\d+"/>', "",
                                      src))
        tiny = variant("tiny", re.sub(r'(<object type="L3Cache"[^>]*cache_size=")\d+"', r'\g<1>1"',
                                      src))
        kv = info("--topology", tiny)
        check(kv.get("cache_l3_check", "").startswith("implausible"),
              f"an L3 of 1 byte: cache_l3_check {kv.get('cache_l3_check')}")
        cut = os.path.join(d, "cut.test")
        with open(os.path.join(DIR, "cpuid", "intel-xeon-platinum-8570.test"), "rb") as f:
            head = f.read(200)
        with open(cut, "wb") as f:
            f.write(head)
        r = sb("info", "--cpuid", cut)
        check(r.returncode == 2 and "cut" in r.stderr and not r.stdout,
              f"the first 200 bytes of a dump: exit {r.returncode}, {r.stderr.strip()!r}")
        # every field of the L3's leaf 4 at its top: 2^64 bytes, once wrapped to 0 (no L3)
        dump = open(os.path.join(DIR, "cpuid", "intel-xeon-platinum-8570.test")).read()
        top = os.path.join(d, "top.test")
        with open(top, "w") as f:
            f.write(dump.replace("FC1FC163-04C0003F-0003BFFF-00000004",
                                 "FC1FC163-FFFFFFFF-FFFFFFFF-00000004"))
        kv = info("--cpuid", top)
        check(kv.get("cache_l3_bytes") == str(2 ** 64 - 1) and
              kv.get("cache_l3_check", "").startswith("implausible"),
              f"an L3 leaf of 2^64 bytes: cache_l3_bytes {kv.get('cache_l3_bytes')}, check "
              f"{kv.get('cache_l3_check')}")
        for path in (big, none):
            kv = info("--topology", path)
            check(kv.get("cpu_family") == kv.get("cpu_model") == "unknown",
                  f"{os.path.basename(path)}: cpu_family {kv.get('cpu_family')}, cpu_model "
                  f"{kv.get('cpu_model')}, want unknown")


def one_line_exit2(r, what, must):
    check(r.returncode == 2, f"{what}: exit {r.returncode}, want 2")
    check(len(r.stderr.splitlines()) == 1 and must in r.stderr, f"{what}: stderr {r.stderr!r}")
    check(r.stdout == "", f"{what}: wrote stdout")


def test_replay():
    xml = os.path.join(DIR, "topology", "genoa-2s-epyc-9654.xml")
    dump = os.path.join(DIR, "cpuid", "amd-epyc-9654-96-core-processor-dual.test")
    here = info()
    check(here["replayed"] == "no" and here["machine_id"] and here["cache_source"] in ("sysfs", "cpuid"),
          f"this machine: replayed={here.get('replayed')} machine_id={here.get('machine_id')}")
    got = json.loads(sb("info", "--json").stdout)
    check(set(got) - {"topology"} == set(here) and got["topology"] is not None,
          "this machine: --json keys differ from key=value")
    both = info("--topology", xml, "--cpuid", dump)
    check(both["replayed"] == f"topology:{xml} cpuid:{dump}" and both["cpu_codename"].startswith("Genoa")
          and both["l3_domain_cpus"].count(" ") == 23 and "clzero" in both["isa_usable"].split(),
          f"genoa replay: {both.get('replayed')} {both.get('cpu_codename')}")
    env = dict(os.environ, HWLOC_XMLFILE=xml)
    r = sb("info", env=env)
    check(r.returncode == 0 and f"replayed=topology:{xml}\n" in r.stdout, "HWLOC_XMLFILE not replayed")
    with tempfile.TemporaryDirectory() as tmp:
        for args, must in ((["run", "--topology", xml], "never measured"),
                           (["run", f"--cpuid={dump}", "--preset", "quick"], "never measured"),
                           (["--topology", xml], "never measured")):
            one_line_exit2(sb(*args, cwd=tmp), " ".join(args), must)
        one_line_exit2(sb("run", "--kernels", "memset", env=env, cwd=tmp), "HWLOC_XMLFILE run",
                       "HWLOC_XMLFILE")
        check(os.listdir(tmp) == [], f"a refused run wrote {os.listdir(tmp)}")
    for args, must in ((["info", "--topology", "/nonexistent.xml"], "--topology '/nonexistent.xml'"),
                       (["info", "--topology", dump], "not an hwloc XML"),
                       (["info", "--cpuid", "/nonexistent.test"], "--cpuid '/nonexistent.test'"),
                       (["info", "--cpuid", "/dev/null"], "not a CPUID dump"),
                       (["info", "--cpuid"], "--cpuid needs a file"),
                       (["list", "--topology", xml], "--cpuid FILE"),
                       (["info", "--topology="], "--topology needs a file")):
        one_line_exit2(sb(*args), " ".join(args), must)
    # a synthetic topology hwloc cannot read is said, not replaced by this machine in silence
    # (issue 40.16); one it reads is replayed
    bad = dict(os.environ, HWLOC_SYNTHETIC="garbage:xx")
    one_line_exit2(sb("info", env=bad), "info with HWLOC_SYNTHETIC garbage", "HWLOC_SYNTHETIC")
    good = sb("info", env=dict(os.environ, HWLOC_SYNTHETIC="pack:2 core:2 pu:1"))
    check(good.returncode == 0 and "replayed=topology:hwloc environment" in good.stdout,
          f"a synthetic topology hwloc reads is replayed: {good.stderr.strip()}")
    # a cut or garbled CPUID dump: exit 2 naming the line or the missing leaf (issue 40.7: leaf
    # 1 cut read as family 0x0, exit 0)
    with open(os.path.join(DIR, "cpuid", "intel-xeon-platinum-8570.test")) as f:
        dump = f.read().splitlines()
    leaf1 = next(i for i, l in enumerate(dump) if l.startswith("CPUID 00000001:"))
    with tempfile.TemporaryDirectory() as tmp:
        for name, lines, must in (
                ("cut", dump[:leaf1] + [dump[leaf1][:40]] + dump[leaf1 + 1:],
                 "line %d is no" % (leaf1 + 1)),
                ("nonhex", dump[:leaf1] + [dump[leaf1].replace("000C06F2", "000C0XYZ")] +
                 dump[leaf1 + 1:], "line %d is no" % (leaf1 + 1)),
                ("no1", dump[:leaf1] + dump[leaf1 + 1:], "leaf 1 is missing")):
            path = os.path.join(tmp, name + ".test")
            with open(path, "w") as f:
                f.write("\n".join(lines) + "\n")
            one_line_exit2(sb("info", "--cpuid", path), f"info --cpuid {name}", must)
    # every file a user names, one rule: a regular file of bounded size (issue 40.2): /dev/zero
    # once took 12 GB in 5 s, a FIFO hung info, HWLOC_XMLFILE and run --dry-run
    with tempfile.TemporaryDirectory() as tmp:
        fifo = os.path.join(tmp, "fifo")
        os.mkfifo(fifo)
        for path, must in (("/dev/zero", "not a regular file"), (fifo, "not a regular file"),
                           (tmp, "a directory")):
            for args, env in ((["info", "--topology", path], None),
                              (["info"], dict(os.environ, HWLOC_XMLFILE=path)),
                              (["run", "--dry-run", "--topology", path], None),
                              (["info", "--cpuid", path], None)):
                try:
                    r = subprocess.run([SB, *args], capture_output=True, text=True, timeout=10,
                                       env=env)
                except subprocess.TimeoutExpired:
                    check(False, f"{args} {path}: still reading after 10 s")
                    continue
                one_line_exit2(r, f"{' '.join(args)} (HWLOC_XMLFILE={path})" if env else
                               " ".join(args), must)


{"cpuid": test_cpuid, "topology": lambda: (test_topology(), test_implausible()),
 "replay": test_replay}[PART]()
sys.exit(check.finish(f"machines {PART}"))
