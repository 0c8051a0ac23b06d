#!/usr/bin/env python3
# glibc_impl_test.py — the libc_<variant> rows (issue 25.1; kernels/glibc_impl.h): each row is
# the glibc function its name says, which is what glibc's IFUNC picks under the GLIBC_TUNABLES its
# description gives (checked by address, through `storebench info`'s glibc_memset_variant in a
# child under those tunables, where the model of this glibc says the mask reaches it); the rows
# run in one sweep beside memset, and what they cannot run on is said.
"""Usage: glibc_impl_test.py ROOT STOREBENCH PART    (PART: pick, sweep)"""

import csv
import os
import re
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True
ROOT, EXE, PART = sys.argv[1:4]
sys.path.insert(0, os.path.join(ROOT, "scripts"))
sys.path.insert(0, os.path.join(ROOT, "tests"))
from storebench import advise_glibc as ag  # noqa: E402
from storebench import glibc_model as gm  # noqa: E402
from testlib import Checker  # noqa: E402

check = Checker()


def rows():
    out = subprocess.run([EXE, "list", "--tsv"], capture_output=True, text=True, timeout=60)
    table = list(csv.DictReader(out.stdout.splitlines(), delimiter="\t"))
    got = [r for r in table if r["name"].startswith("libc_")]
    check(len(got) >= 9, "the glibc variant rows are listed (%d)" % len(got))
    return got


def symbol(row):
    m = re.match(r"glibc (__memset_\w+):", row["desc"])
    return m.group(1) if m else None


def tunables(row):
    m = re.search(r"\((glibc\.cpu\.hwcaps=[^)]*)\)", row["desc"])
    return m.group(1) if m else None


def info(env_tunables):
    env = dict(os.environ, GLIBC_TUNABLES=env_tunables)
    out = subprocess.run([EXE, "info"], capture_output=True, text=True, env=env, timeout=60)
    return dict(l.split("=", 1) for l in out.stdout.splitlines() if "=" in l)


def test_pick():
    meta = info("")
    if meta.get("glibc_memset_variant", "unknown") == "unknown":
        print("SKIP: this libc lists no memset variants (%s)" % meta.get("glibc_version"))
        sys.exit(77)
    c = gm.Cpuid.live(EXE)
    ver = ag.version()
    for row in rows():
        name, sym, tun = row["name"], symbol(row), tunables(row)
        check(sym == "__memset_" + gm_variant(name), "%s names %s in its description" % (name, sym))
        check(tun is not None, "%s says which GLIBC_TUNABLES make glibc pick it" % name)
        if row["available"] != "yes":
            check(row["reason"] != "", "%s: unavailable with a reason" % name)
            continue
        picked = info(tun).get("glibc_memset_variant")
        if ver in gm.VERSIONS:
            want = "__memset_" + gm.model(c, ver, dict(ag.parse_tunables(tun)))["variant"]
            if want != sym:
                # the mask does not reach this variant here (an RTM or preference bit the string
                # leaves alone): the pick is still the modelled one, and the row still runs sym
                print("note: %s: under %s glibc picks %s here, not %s" % (name, tun, want, sym))
        else:
            want = sym
        check(picked == want, "%s: GLIBC_TUNABLES=%s makes glibc's IFUNC pick %s (want %s)" % (
            name, tun, picked, want))


def gm_variant(row):
    """libc_avx2_erms -> avx2_unaligned_erms (kernels.def's naming rule)."""
    v = row[len("libc_"):]
    if v == "erms":
        return v
    isa, _, rest = v.partition("_")
    return "%s_unaligned%s" % (isa, "_" + rest if rest else "")


def test_sweep():
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "v.csv")
        out = subprocess.run([EXE, "run", "--kernels", "memset,libc_*", "--call", "64,4KiB",
                              "--threads", "1", "--repetitions", "1", "--min-time", "0.001",
                              "--canary", "off", "--csv", path], capture_output=True, text=True,
                             timeout=300)
        check(out.returncode == 0, "a sweep of memset and libc_*: rc %d %s" % (
            out.returncode, out.stderr[-300:]))
        with open(path) as f:
            text = f.read()
        meta = dict(l[2:].split("=", 1) for l in text.splitlines() if l.startswith("# ") and
                    "=" in l)
        body = list(csv.DictReader(l for l in text.splitlines() if not l.startswith("#")))
        avail = [r["name"] for r in rows() if r["available"] == "yes"]
        ran = {r["kernel"] for r in body}
        check(set(avail) | {"memset"} == ran, "every available variant ran beside memset: %s" %
              sorted(ran))
        check(all(float(r["gbps_median"]) > 0 for r in body), "every row measured a rate")
        check(meta.get("glibc_memset_variant", "").startswith("__memset_"),
              "the CSV names memset's variant: %s" % meta.get("glibc_memset_variant"))
        mine = meta.get("glibc_memset_variant", "")[len("__memset_"):]
        twin = [r for r in rows() if gm_variant(r["name"]) == mine]
        check(len(twin) == 1 and twin[0]["name"] in ran,
              "memset's own variant has its row too (%s)" % mine)


{"pick": test_pick, "sweep": test_sweep}[PART]()
sys.exit(check.finish("glibc_impl_test.%s" % PART))
