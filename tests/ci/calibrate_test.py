#!/usr/bin/env python3
# calibrate_test.py — scripts/nightly --calibrate on nights recorded on the Turin guest.
# Python 3 standard library; compare.py (scipy) runs as the gate runs it.
# Why: the calibration's figures are only as good as its replay: it must run the gate's own code,
# find a change injected by construction, and stay quiet on a quiet pair.
"""usage: calibrate_test.py REPO_ROOT replay|errors

replay  two nights of the committed recording (results/turin-vm/aa-nights-20261206.tar.xz)
        through scripts/nightly --calibrate: its line and its table.  By construction, through
        the same replay and the gate's own code: a night against an exact copy of itself is
        quiet, the copy with one kernel 20 % slower regresses that kernel and no other, the copy
        with every point 40 % slower is one machine-wide change; the injection scales exactly
        one kernel's GB/s and ratios to memset and keeps the CSV's metadata and header.
errors  no recording, an empty folder, one night, a corrupt .tar.xz, a samples file that is not
        one (a wrong header, or not xz), a bad --calibration-pairs: exit status 2 with one
        line.
"""

import lzma
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile

from testlib import Checker

ROOT = os.path.abspath(sys.argv[1])
sys.path.insert(0, os.path.join(ROOT, "scripts"))
from storebench import reader  # noqa: E402
from storebench.nightly import calibrate, gate, samples  # noqa: E402

NIGHTLY = os.path.join(ROOT, "scripts", "nightly")
RECORDING = os.path.join(ROOT, "results", "turin-vm", "aa-nights-20261206.tar.xz")
TWO = ("2026-12-06-3", "2026-12-06-4")  # two nights of the recording, one shape
check = Checker()


def two_nights(tmp):
    """The two nights TWO of the recording, unpacked under tmp/rec, cut down to two of their
    comparison groups (every kernel at the smallest size on one thread and the largest on two,
    44 points): compare.py's U-tests over 330 points took most of a replay's 2 s."""
    with tarfile.open(RECORDING, "r:xz") as t:
        members = [m for m in t.getmembers()
                   if any(("/%s/" % n) in "/" + m.name + "/" for n in TWO)]
        t.extractall(os.path.join(tmp, "rec"), members)
    for top, _, files in os.walk(os.path.join(tmp, "rec")):
        if samples.NAME in files:
            cut_night(top)
    return os.path.join(tmp, "rec")


def cut_night(folder):
    """Keep only the points of two comparison groups in a night's CSV and samples."""
    csv_path, kept_path = os.path.join(folder, "nightly.csv"), os.path.join(folder, samples.NAME)
    rows = reader.load(csv_path).rows
    shapes = sorted({(int(r["threads"]), int(r["call_bytes"])) for r in rows})
    groups = {shapes[0], max(s for s in shapes if s[0] == shapes[-1][0])}
    keep = {r["point"] for r in rows if (int(r["threads"]), int(r["call_bytes"])) in groups}
    with open(csv_path) as f:
        lines = f.read().splitlines(keepends=True)
    with open(csv_path, "w") as f:
        f.writelines(ln for ln in lines if ln.startswith("#") or ln.startswith("point,") or
                     ln.split(",", 1)[0] in keep)
    kept = [row for row in samples.read(kept_path) if row[0] in keep]
    with lzma.open(kept_path, "wt", encoding="utf-8") as f:
        f.write("\t".join(samples.HEADER) + "\n" + "".join("%s\t%r\t%r\n" % r for r in kept))


def calibrate_cli(*args):
    return subprocess.run([NIGHTLY, "--calibrate", *args], capture_output=True, text=True)


def replay(tmp):
    rec = two_nights(tmp)
    table = os.path.join(tmp, "table.md")
    r = calibrate_cli(rec, "--calibration-table", table)
    line = r.stdout.strip()
    check(r.returncode == 0 and re.fullmatch(r"false alarms [0-2] of 2 nights \(upper 95 % "
                                             r"[0-9.]+ %\); caught [0-2] of 2 injected 20 % "
                                             r"single-kernel slowdowns", line),
          f"two nights, two ordered pairs: {line!r} ({r.stderr[-300:]})")
    with open(table) as f:
        text = f.read()
    for want in ("| one kernel 5 % slower |", "| one kernel 30 % slower |",
                 "| every point 20 % slower: one machine-wide event |",
                 "| every point 40 % slower: one machine-wide event |", "| 2 | "):
        check(want in text, f"the table has {want!r}:\n{text}")

    # by construction, through the replay and the gate's own code: a night against an exact
    # copy of itself is quiet; the copy with one kernel 20 % slower regresses that kernel and
    # no other; the copy with every point 40 % slower is one machine-wide change
    nights = calibrate.load([rec], os.path.join(tmp, "scratch"))
    night = nights[0]
    limits = dict(alpha=0.05, threshold=0.1, cv_max=0.1, cpu_share_min=0.8)
    work = os.path.join(tmp, "work")
    same = calibrate.replay(night, night, limits, 50, None, work)
    check(same["exit"] == 0 and not calibrate.regressed_kernels(same),
          f"a night against itself is quiet (exit {same['exit']})")
    slowed = calibrate.replay(night, night, limits, 50, None, work, "avx2_t_u4", 20)
    check(slowed["exit"] == 1 and calibrate.regressed_kernels(slowed) == {"avx2_t_u4"},
          f"avx2_t_u4 20 % slower: it and only it regressed "
          f"({calibrate.regressed_kernels(slowed)}, exit {slowed['exit']})")
    shifted = calibrate.replay(night, night, limits, 50, None, work, "*", 40)
    check(shifted["exit"] == gate.INCONCLUSIVE and shifted.get("machine_shift") and
          not calibrate.regressed_kernels(shifted),
          f"every point 40 % slower: one machine-wide change, no regression "
          f"({shifted.get('machine_shift', {}).get('note')}, exit {shifted['exit']})")

    # the injection itself: one kernel's numbers scaled, no other's, metadata and header kept
    out = os.path.join(tmp, "slowed.csv")
    calibrate.write_csv(night, out, "avx2_t_u4", 20)
    before = {r["point"]: r for r in reader.load(night.csv).rows}
    after = {r["point"]: r for r in reader.load(out).rows}
    scaled = [p for p in before if before[p]["gbps_median"] != after[p]["gbps_median"]]
    check(scaled and all(p.startswith("avx2_t_u4/") for p in scaled) and
          all(abs(float(after[p][c]) - 0.8 * float(before[p][c])) <= 1e-5 * float(before[p][c])
              for p in scaled for c in ("gbps_median", "vs_memset_ratio", "vs_memset_ci_low")
              if before[p][c]) and
          sum(p.startswith("avx2_t_u4/") for p in before) == len(scaled),
          f"a 20 % slowdown of avx2_t_u4 scales its {len(scaled)} points and only them")
    with open(night.csv) as f:
        lines_before = f.read().splitlines()
    with open(out) as f:
        lines_after = f.read().splitlines()
    meta = [ln for ln in lines_before if ln.startswith("#")]
    check(meta == [ln for ln in lines_after if ln.startswith("#")] and
          next(ln for ln in lines_before if not ln.startswith("#")) ==
          next(ln for ln in lines_after if not ln.startswith("#")),
          "the metadata lines and the header stay as they were")


def errors(tmp):
    empty = os.path.join(tmp, "empty")
    os.makedirs(empty)
    one = os.path.join(tmp, "one")
    rec = two_nights(tmp)
    first = next(top for top, _, files in sorted(os.walk(rec)) if samples.NAME in files)
    shutil.copytree(first, os.path.join(one, os.path.basename(first)))
    bad_tar = os.path.join(tmp, "bad.tar.xz")
    with open(bad_tar, "wb") as f:
        f.write(b"\xfd7zXZ\x00 not really")
    broken = {}
    for name, opener, text in (("header", lzma.open, b"point\tgbps\n"),
                               ("garbage", open, b"not xz at all")):
        broken[name] = os.path.join(tmp, name)
        shutil.copytree(rec, broken[name])
        with opener(next(os.path.join(top, samples.NAME) for top, _, files in
                         os.walk(broken[name]) if samples.NAME in files), "wb") as f:
            f.write(text)
    for args, want in (([os.path.join(tmp, "missing")], "no such recording"),
                       ([empty], "needs two recorded nights"),
                       ([one], "needs two recorded nights"),
                       ([bad_tar], "cannot unpack"),
                       ([broken["header"]], "is not a samples file"),
                       ([broken["garbage"]], "cannot read the samples"),
                       ([rec, "--calibration-pairs", "-1"], "not a whole number")):
        r = calibrate_cli(*args, "--calibration-table", os.path.join(tmp, "t.md"))
        lines = r.stderr.strip().splitlines()
        check(r.returncode == 2 and len(lines) == 1 and want in lines[0] and not r.stdout,
              f"{args}: exit 2 with one line saying {want!r} ({r.returncode}: {r.stderr!r})")


def main():
    if len(sys.argv) != 3 or sys.argv[2] not in ("replay", "errors"):
        sys.exit(__doc__)
    tmp = tempfile.mkdtemp(prefix="sb-calibrate-test-")
    try:
        (replay if sys.argv[2] == "replay" else errors)(tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return check.finish("calibrate: " + sys.argv[2])


sys.exit(main())
