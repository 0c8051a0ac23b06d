#!/usr/bin/env python3
# glibc_model_test.py — scripts/storebench/glibc_model.py (issue 25.2 and 25.4): the model of the
# branch this machine runs against its own loader, cases worked by hand from glibc's sources for
# the other branches, every replayed CPU modelled, and scripts/glibc-model's table and errors.
"""Usage: glibc_model_test.py ROOT STOREBENCH MACHINES PART    (PART: live, source, replay, cli)"""

import os
import re
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True
ROOT, EXE, MACHINES, PART = sys.argv[1:5]
sys.path.insert(0, os.path.join(ROOT, "scripts"))
sys.path.insert(0, os.path.join(ROOT, "tests"))
from storebench import advise_glibc as ag  # noqa: E402
from storebench import glibc_model as gm  # noqa: E402
from testlib import Checker  # noqa: E402

CPUID = os.path.join(MACHINES, "cpuid")
SCRIPT = os.path.join(ROOT, "scripts", "glibc-model")
MiB = 1 << 20
check = Checker()


def fixture(name):
    return gm.Cpuid.load(os.path.join(CPUID, name))


def live_dump():
    out = subprocess.run([EXE, "info", "--cpuid-dump"], capture_output=True, text=True,
                         timeout=60)
    check(out.returncode == 0 and out.stdout.startswith("------[ CPUID Registers"),
          "storebench info --cpuid-dump prints a dump (rc %d, %s)" % (out.returncode,
                                                                   out.stderr.strip()))
    return out.stdout


def test_live():
    text = live_dump()
    c = gm.Cpuid(text, "this CPU")
    # the dump replays through libcpuid like the fixtures: the same CPU as the live one
    with tempfile.NamedTemporaryFile("w", suffix=".cpuid") as f:
        f.write(text)
        f.flush()
        replayed = subprocess.run([EXE, "info", "--cpuid", f.name], capture_output=True,
                                  text=True, timeout=60).stdout
    live = subprocess.run([EXE, "info"], capture_output=True, text=True, timeout=60).stdout
    pick = lambda t: sorted(l for l in t.splitlines()  # noqa: E731
                            if l.split("=")[0] in ("cpu_vendor", "cpu_family", "cpu_model",
                                                   "isa_usable"))
    check(len(pick(live)) == 4 and pick(replayed) == pick(live),
          "the dump replays as this CPU: %s vs %s" % (pick(replayed), pick(live)))
    ver = ag.version()
    if ver not in gm.VERSIONS:
        print("SKIP: glibc %s is not a modelled branch (%s)" % (ver, ", ".join(gm.VERSIONS)))
        sys.exit(77)
    loader = ag.find_loader()
    # The loader's effective values are what this glibc computed; the model of its branch must
    # compute the same, by default and under tunables that move each threshold.
    cases = [None, "glibc.cpu.x86_rep_stosb_threshold=4096",
             "glibc.cpu.x86_non_temporal_threshold=0x2000000",
             "glibc.cpu.x86_non_temporal_threshold=0x100"]  # below 0x4040: ignored by glibc
    names = {"x86_data_cache_size": "data", "x86_shared_cache_size": "shared",
             "x86_non_temporal_threshold": "non_temporal_threshold",
             "x86_rep_movsb_threshold": "rep_movsb_threshold",
             "x86_rep_stosb_threshold": "rep_stosb_threshold",
             "x86_memset_non_temporal_threshold": "memset_non_temporal_threshold"}
    for tun in cases:
        got = ag.list_tunables(loader, tun)
        m = gm.model(c, ver, dict(ag.parse_tunables(tun)) if tun else None)
        compared = 0
        for name, key in names.items():
            have = got.get("glibc.cpu." + name)
            if have is None:
                check(name != "x86_memset_non_temporal_threshold" or
                      m["memset_non_temporal_threshold"] is None,
                      "glibc %s has no %s and the model none either" % (ver, name))
                continue
            compared += 1
            check(m[key] == have["value"], "glibc %s, GLIBC_TUNABLES=%s: %s model %#x, loader %#x"
                  % (ver, tun, name, m[key], have["value"]))
        check(compared >= 5, "compared %d thresholds with the loader" % compared)
    # the variant the IFUNC picks, read from memset's code in a child under each hwcaps mask,
    # is the model's: by default and for every variant a mask reaches on this CPU
    for caps in ("", "-AVX512F", "-AVX512F,-AVX512VL", "-AVX512F,-AVX2", "Prefer_ERMS", "-ERMS"):
        env = dict(os.environ, GLIBC_TUNABLES="glibc.cpu.hwcaps=" + caps,
                   PYTHONPATH=os.path.join(ROOT, "scripts"))
        got = subprocess.run([sys.executable, "-c", "from storebench import advise_glibc as ag; "
                              "print(ag.memset_variant().get('name'))"], env=env,
                             capture_output=True, text=True, timeout=60).stdout.strip()
        want = gm.model(c, ver, {"glibc.cpu.hwcaps": caps})["variant"]
        check(got == want, "hwcaps=%s: the IFUNC picked __memset_%s, the model %s" % (
            caps, got, want))


def test_source():
    # Cases worked from glibc's lines (file @ release branch head in gm.BRANCHES; commit ids are
    # master's, with the branch backport where it differs), on the real dumps of the fixtures.
    turin = fixture("amd-epyc-9655-96-core-processor.test")
    # dl-cacheinfo.h handle_amd (2.38+: 103a469dc7, ced101ed9d on 2.38): L3 from 0x8000001D/3,
    # EBX 0x03C0003F ECX 0x7FFF: 16 ways x 64 B x 32768 sets = 32 MiB; shared_per_thread = shared.
    # non_temporal_threshold = max(shared / 4, shared_per_thread * 3 / 4) (af992e7abd, 64b184fd80)
    for v in ("2.38", "2.39", "2.40", "2.41"):
        m = gm.model(turin, v)
        check(m["shared"] == 16 * 64 * 32768 == 32 * MiB and m["shared_per_thread"] == 32 * MiB,
              "Turin %s: shared 32 MiB from 0x8000001D (%d)" % (v, m["shared"]))
        check(m["non_temporal_threshold"] == 24 * MiB, "Turin %s: nt = 3/4 x 32 MiB" % v)
        check(m["variant"] == "avx512_unaligned_erms", "Turin %s: %s" % (v, m["variant"]))
    # 2.36 branch: the legacy leaf 0x80000006 EDX 0x08009140: (EDX & 0x3ffc0000) << 1 = 256 MiB;
    # per thread: / 64 (leaf 1 EBX[23:16] 0x40) x 8 (0x8000001D/3 EAX[25:14] = 7, + 1) = 32 MiB;
    # nt = max(256 / 4, 32 x 3 / 4) MiB = 64 MiB (2e74c90167, 64b184fd80 on release/2.36)
    m = gm.model(turin, "2.36")
    check((m["shared"], m["shared_per_thread"], m["non_temporal_threshold"]) ==
          (256 * MiB, 32 * MiB, 64 * MiB), "Turin 2.36: 256/32/64 MiB: %s" % (
              (m["shared"] // MiB, m["shared_per_thread"] // MiB,
               m["non_temporal_threshold"] // MiB),))
    check(m["memset_non_temporal_threshold"] is None and
          gm.regions(m, 1 << 30) == [("vector", 1, 2048), ("rep_stosb", 2049, 1 << 30)],
          "Turin 2.36: vector to 2 KiB, rep stosb above (cmp; ja), no streaming path")
    # 2.38 branch (04b8d48432): streaming from x86_non_temporal_threshold inside the stosb path
    check(gm.regions(gm.model(turin, "2.38"), 1 << 30) ==
          [("vector", 1, 2048), ("rep_stosb", 2049, 24 * MiB - 1),
           ("non_temporal", 24 * MiB, 1 << 30)], "Turin 2.38: stosb, then streaming (jae)")
    # 2.39/2.40 (272708884c; 6484a92698 on 2.39): AMD rep_stosb_threshold = SIZE_MAX unless set:
    # memset never reaches rep stosb nor the streaming loop behind it
    for v in ("2.39", "2.40", "2.41"):
        m = gm.model(turin, v)
        check(m["rep_stosb_threshold"] == gm.SIZE_MAX and m["memset_non_temporal_threshold"] ==
              24 * MiB and gm.regions(m, 1 << 40) == [("vector", 1, 1 << 40)],
              "Turin %s: the vector loop at every size" % v)
        m = gm.model(turin, v, {"glibc.cpu.x86_rep_stosb_threshold": "2048"})
        check(gm.path(m, 4096) == "rep_stosb" and gm.path(m, 24 * MiB) == "non_temporal",
              "Turin %s with the tunable set: stosb and streaming come back" % v)
    # 2.41 (f446d90fe6): hwcaps Avoid_STOSB sets rep_stosb_threshold to the streaming threshold
    m = gm.model(turin, "2.41", {"glibc.cpu.hwcaps": "Avoid_STOSB"})
    check(m["rep_stosb_threshold"] == 24 * MiB and gm.regions(m, 1 << 30) ==
          [("vector", 1, 24 * MiB), ("non_temporal", 24 * MiB + 1, 1 << 30)],
          "Turin 2.41 Avoid_STOSB: vector, then streaming, never rep stosb")
    m = gm.model(turin, "2.40", {"glibc.cpu.hwcaps": "Avoid_STOSB"})
    check(m["rep_stosb_threshold"] == gm.SIZE_MAX and m["notes"],
          "2.40 does not know Avoid_STOSB and the model says so")

    spr = fixture("intel-xeon-w9-3475x.test")
    # Intel: leaf 4 L3 EBX 0x0380003F ECX 0x15FFF: 15 ways x 64 B x 90112 sets = 82.5 MiB, EDX
    # bit 1 clear (not inclusive) so shared += L2 (2 MiB) = 84.5 MiB; divisor 2 for Sapphire
    # Rapids (180897c161) from 2.38; 2.36's branch divides by 4
    l3 = 15 * 64 * 90112
    check(l3 == 82.5 * MiB, "worked L3 size")
    m = gm.model(spr, "2.41")
    check(m["shared"] == l3 + 2 * MiB and m["divisor"] == 2 and
          m["non_temporal_threshold"] == (l3 + 2 * MiB) // 2,
          "SPR 2.41: shared %d, divisor %d, nt %d" % (m["shared"], m["divisor"],
                                                      m["non_temporal_threshold"]))
    check(m["threads"] == 72, "SPR: 72 CPUs share the L3 (leaf 0xB/1 EBX 0x48)")
    check(gm.model(spr, "2.36")["non_temporal_threshold"] == (l3 + 2 * MiB) // 4,
          "SPR 2.36 branch: shared / 4")
    # AVX-VNNI present: no Prefer_No_AVX512 (cpu-features.c), so the zmm variant; rep stosb
    # 2048 (not AMD), streaming from the threshold (memset_nt = nt: bef2a827a5/cc59fa5dbc)
    check(m["variant"] == "avx512_unaligned_erms" and m["rep_stosb_threshold"] == 2048 and
          m["memset_non_temporal_threshold"] == m["non_temporal_threshold"],
          "SPR 2.41: avx512 variant, stosb from 2 KiB, streaming from nt")

    # Skylake-SP: no dump with a licence in the fixtures, so a synthetic CPUID of the leaves
    # glibc reads (family 6 model 0x55, AVX-512 F/VL/BW, no AVX-VNNI, ERMS, a 1 MiB L2 and a
    # non-inclusive 22 MiB L3 shared by 2 CPUs): Avoid_Non_Temporal_Memset (5bcf6265f2;
    # bde201e92c on 2.39) and Prefer_No_AVX512 (the evex variant).
    skx = gm.Cpuid("\n".join([
        "CPUID 00000000: 00000016-756E6547-6C65746E-49656E69",
        "CPUID 00000001: 00050654-00020800-7FFEFBFF-BFEBFBFF",
        "CPUID 00000002: 00FEFF01-000000F0-00000000-00000000",
        "CPUID 00000004: 04004121-01C0003F-0000003F-00000000 [SL 00]",
        "CPUID 00000004: 04004143-03C0003F-000003FF-00000000 [SL 02]",
        "CPUID 00000004: 0403C163-0280003F-00008FFF-00000004 [SL 03]",
        "CPUID 00000004: 00000000-00000000-00000000-00000000 [SL 04]",
        "CPUID 00000007: 00000000-D19FFFFB-00000008-00000000 [SL 00]",
        "CPUID 0000000B: 00000001-00000002-00000100-00000000 [SL 00]",
        "CPUID 0000000B: 00000001-00000002-00000201-00000000 [SL 01]",
        "CPUID 80000000: 80000008-00000000-00000000-00000000"]), "synthetic SKX")
    for v, avoid in (("2.38", False), ("2.39", True), ("2.40", True), ("2.41", True)):
        m = gm.model(skx, v)
        check(m["variant"] == "evex_unaligned_erms", "SKX %s: evex (%s)" % (v, m["variant"]))
        check((m["memset_non_temporal_threshold"] == gm.SIZE_MAX) == avoid,
              "SKX %s: streaming memset %s" % (v, "off" if avoid else "on"))
    m = gm.model(skx, "2.41")
    check(gm.regions(m, 1 << 30)[-1] == ("rep_stosb", 2049, 1 << 30), "SKX 2.41: stosb above 2 KiB")
    check(gm.model(skx, "2.41", {"glibc.cpu.hwcaps": "Prefer_ERMS"})["variant"] == "erms",
          "hwcaps Prefer_ERMS selects __memset_erms")
    # cpu-tunables.c clears only the named bits: without AVX512F the EVEX build still qualifies;
    # this part reports RTM (leaf 7 EBX bit 11), so its AVX2 build is the _rtm one, and masking
    # RTM leaves the Prefer_No_VZEROUPPER that RTM had set (hwcaps are applied last): SSE2
    for caps, want in (("-AVX512F", "evex_unaligned_erms"),
                       ("-AVX512F,-AVX512VL", "avx2_unaligned_erms_rtm"),
                       ("-AVX512F,-AVX512VL,-RTM", "sse2_unaligned_erms"),
                       ("-AVX512F,-AVX2", "sse2_unaligned_erms")):
        got = gm.model(spr, "2.41", {"glibc.cpu.hwcaps": caps})["variant"]
        check(got == want, "hwcaps %s: %s (%s)" % (caps, want, got))
    for v in gm.VERSIONS:
        for rule in gm.VERSION_RULES[v]:
            src = gm.rule_source(rule, v)
            check(gm.BRANCHES[v][:10] in src and "sysdeps/" in src, "rule %s cites %s" % (rule, src))


def test_replay():
    # every fixture CPU is modelled by every branch, thresholds in glibc's bounds
    names = sorted(os.listdir(CPUID))
    check(len(names) >= 8, "fixtures present")
    for name in names:
        c = fixture(name)
        for v in gm.VERSIONS:
            m = gm.model(c, v)
            check(gm.NT_MIN <= m["non_temporal_threshold"] <= gm.NT_MAX and m["data"] > 0 and
                  m["shared"] >= m["core"] > 0, "%s %s: sane thresholds" % (name, v))
            reg = gm.regions(m, 1 << 34)
            check(reg[0][1] == 1 and reg[-1][2] == 1 << 34 and
                  all(a[2] + 1 == b[1] for a, b in zip(reg, reg[1:])),
                  "%s %s: regions tile 1..16 GiB" % (name, v))


def test_cli():
    out = subprocess.run([SCRIPT, "--cpuid", os.path.join(CPUID, "amd-epyc-9655-96-core-processor.test"),
                          "--glibc", "2.40,2.41"], capture_output=True, text=True, timeout=60)
    check(out.returncode == 0, "glibc-model on a fixture: rc %d %s" % (out.returncode, out.stderr))
    text = out.stdout
    check("modelled" in text and "2.40" in text and "2.41" in text, "table of both versions")
    check("vector 1 B..16 GiB" in text or "vector at every size" in text,
          "Turin 2.40: one vector region: %s" % text)
    check("sysdeps/x86/dl-cacheinfo.h" in text and gm.BRANCHES["2.40"][:10] in text,
          "the table cites its sources")
    # docs/glibc.md's replayed tables and rules are what the model prints for those dumps today
    dumps = ["amd-epyc-9655-96-core-processor.test", "intel-xeon-w9-3475x.test",
             "intel-xeon-platinum-8570.test"]
    out = subprocess.run([SCRIPT, "--markdown"] + [a for d in dumps for a in
                                                   ("--cpuid", os.path.join(CPUID, d))],
                         capture_output=True, text=True, timeout=60)
    with open(os.path.join(ROOT, "docs", "glibc.md")) as f:
        page = f.read()
    check(out.returncode == 0 and out.stdout in page,
          "docs/glibc.md holds today's model of %s: regenerate it with scripts/glibc-model "
          "--markdown --cpuid ..." % ", ".join(dumps))
    # issue 40.16: --glibc '' meant all, a version twice printed twice, --tunables garbage
    # printed garbage=None, and a threshold past SIZE_MAX read 1.87e+08 GiB
    out = subprocess.run([SCRIPT, "--cpuid", os.path.join(CPUID, "amd-epyc-9655-96-core-processor.test"),
                          "--glibc", "2.40,2.40"], capture_output=True, text=True, timeout=60)
    check(out.returncode == 0 and len(re.findall(r"(?m)^\|? ?2\.40 ", out.stdout)) == 1,
          "--glibc 2.40,2.40: one row: %s" % out.stdout[:600])
    check(gm.fmt_threshold(gm.SIZE_MAX * 3) == "SIZE_MAX", "a threshold past SIZE_MAX reads SIZE_MAX")
    for bad, why in ((["--glibc", ""], "name a version or all"),
                     (["--max-size", str(1 << 64)], "more than 2^64 - 1 bytes"),
                     (["--tunables", "garbage"], "is no NAME=VALUE"),
                     (["--glibc", "2.35"], "not modelled"), (["--cpuid", "/nonexistent"],
                                                             "nonexistent"),
                     (["--tunables", "glibc.cpu.x86_rep_stosb_threshold=abc"], "not a number")):
        out = subprocess.run([SCRIPT] + bad, capture_output=True, text=True, timeout=60)
        check(out.returncode == 2 and why in out.stderr and len(out.stderr.splitlines()) == 1,
              "%s: exit 2 and one line naming %r (%d: %s)" % (bad, why, out.returncode, out.stderr))
    # --cpuid takes a regular file of at most 1 MiB, as storebench does (issue 40.3: /dev/zero
    # reached 9 GB in 4 s, a FIFO hung, a 20 MB line was read)
    with tempfile.TemporaryDirectory() as tmp:
        fifo, big = os.path.join(tmp, "fifo"), os.path.join(tmp, "big.test")
        os.mkfifo(fifo)
        with open(big, "w") as f:
            f.write("CPUID 00000000: " + "0" * (20 << 20) + "\n")
        # a cut or garbled dump is refused by the rule of storebench's --cpuid (issue 40.7:
        # leaf 1 cut modelled as family 0x0, a dump of leaf 0 alone as an L3 of 0 B)
        with open(os.path.join(CPUID, "intel-xeon-platinum-8570.test")) as f:
            dump = f.read().splitlines()
        leaf1 = next(i for i, l in enumerate(dump) if l.startswith("CPUID 00000001:"))
        bad = {"cut.test": dump[:leaf1] + [dump[leaf1][:40]] + dump[leaf1 + 1:],
               "nonhex.test": dump[:leaf1] + [dump[leaf1].replace("000C06F2", "000C0XYZ")]
               + dump[leaf1 + 1:],
               "only0.test": [l for l in dump if l.startswith("CPUID 00000000:")]}
        for name, lines in bad.items():
            with open(os.path.join(tmp, name), "w") as f:
                f.write("\n".join(lines) + "\n")
        for path, why in ((os.path.join(tmp, "cut.test"), "line %d is no" % (leaf1 + 1)),
                          (os.path.join(tmp, "nonhex.test"), "line %d is no" % (leaf1 + 1)),
                          (os.path.join(tmp, "only0.test"), "leaf 0x1 is missing"),
                          ("/dev/zero", "not a regular file"), (fifo, "not a regular file"),
                          (big, "more than the 1 MiB"), (tmp, "directory")):
            try:
                out = subprocess.run([SCRIPT, "--cpuid", path], capture_output=True, text=True,
                                     timeout=20)
            except subprocess.TimeoutExpired:
                check(False, "--cpuid %s: still reading after 20 s" % path)
                continue
            check(out.returncode == 2 and why in out.stderr and len(out.stderr.splitlines()) == 1,
                  "--cpuid %s: exit 2, one line naming %r (%d: %s)" % (path, why, out.returncode,
                                                                      out.stderr[-300:]))


{"live": test_live, "source": test_source, "replay": test_replay, "cli": test_cli}[PART]()
sys.exit(check.finish("glibc_model_test.%s" % PART))
