#!/usr/bin/env python3
# calibrate_test.py — scripts/nightly --calibrate on nights recorded on the Turin guest.
# Python 3 standard library; compare.py (scipy) runs as the gate runs it.
# Why: the calibration's figures are only as good as its replay: it must run the gate's own code,
# find a change injected by construction, and stay quiet on a quiet pair.
"""usage: calibrate_test.py REPO_ROOT replay|errors

replay  two nights of the committed recording (results/turin-vm/aa-nights-20261206.tar.xz)
        through scripts/nightly --calibrate: its line and its table, the kernel threshold given
        marked, the one pair (the second night against the first) replayed, also with the
        injected changes; a diagnostic night (--inject-slowdown) beside them is left out.  By
        construction, through the same replay and the gate's own code: a
        night against an exact copy of itself is quiet, the copy with one kernel 20 % slower
        regresses that kernel and no other (its move 1/1.2), one point 50 % slower is that point's
        state (its kernel held: exit 0), the copy with every point 40 % slower is one
        machine-wide change; a synthetic night's points lie within their recorded rounds; the
        injection scales exactly one kernel's GB/s and ratios to memset and keeps the CSV's
        metadata and header.  The scatter rule by construction: a kernel 40 % slower on a night
        whose kernels scatter 2.5 % fails where every night is judged and makes the night
        inconclusive at a limit of 2 %; a quiet night is judged.  A machine-wide change: the
        median past the threshold and three quarters of the points past half of it.
errors  no recording, an empty folder, one night, a corrupt .tar.xz, a samples file that is not
        one (a wrong header, or not xz), a bad --calibration-pairs, no synthetic night: exit
        status 2 with one line.
"""

import lzma
import os
import random
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
    """The two nights TWO of the recording, unpacked under tmp/rec, cut down to three of their
    comparison groups (every kernel at the two smallest sizes on one thread and the largest on
    two, 66 points, three a kernel: one point's state alone moves no kernel's median):
    compare.py's U-tests over 330 points took most of a replay's 2 s."""
    with tarfile.open(RECORDING, "r:xz") as t:
        members = [m for m in t.getmembers()
                   if any(("/%s/" % n) in "/" + m.name + "/" for n in TWO)]
        t.extractall(os.path.join(tmp, "rec"), members)
    for top, _, files in os.walk(os.path.join(tmp, "rec")):
        if samples.NAME in files:
            cut_night(top)
    return os.path.join(tmp, "rec")


def cut_night(folder):
    """Keep only the points of three comparison groups in a night's CSV and samples."""
    csv_path, kept_path = os.path.join(folder, "nightly.csv"), os.path.join(folder, samples.NAME)
    rows = reader.load(csv_path).rows
    shapes = sorted({(int(r["threads"]), int(r["call_bytes"])) for r in rows})
    groups = {shapes[0], shapes[1], max(s for s in shapes if s[0] == shapes[-1][0])}
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
    # one run of the command (each replay runs compare.py): 40 synthetic nights, the one pair
    # through the whole gate, as is and with the injected changes, a threshold given
    r = calibrate_cli(rec, "--calibration-table", table, "--calibration-nights", "40",
                      "--calibration-pairs", "1", "--kernel-threshold", "10",
                      # two nights, each the other's only reference: most synthetic draws of
                      # them scatter past 2 %, so judge up to 5 %
                      "--kernel-scatter-max", "5", "--kernel-state-margin", "4")
    line = r.stdout.strip()
    check(r.returncode == 0 and re.fullmatch(r"false alarms \d+ of 40 nights \(upper 95 % "
                                             r"[0-9.]+ %\); caught \d+ of \d+ injected 20 % "
                                             r"single-kernel slowdowns(; \d+ of 40 slowed "
                                             r"nights and \d+ of 40 A/A nights too disturbed "
                                             r"to judge a kernel \(inconclusive\))?", line),
          f"40 synthetic nights: {line!r} ({r.stderr[-300:]})")
    with open(table) as f:
        text = f.read()
    for want in ("| **10 %** | ", "| 13 % | ", "| 20 % | ", "caught 5 % | caught 10 % |",
                 "| outlier cut | ", "| off | ", "| **3.5** | ", "| 5.0 | ",
                 "shift 40 %: one event |", "## The whole gate over recorded pairs",
                 "| one kernel 5 % slower |", "| one kernel 30 % slower |",
                 "| every point 20 % slower: one machine-wide event |",
                 "| every point 40 % slower: one machine-wide event |", "\n| 1 | ",
                 "| scatter limit | ", "| **5.0 %** | ", "| 2.0 % | ", "A/A inconclusive",
                 "| one kernel 20 % slower | 1 | 1 |\n", "| state margin | ", "| **4.0 %** | ",
                 "| kernel | A/A nights it failed | 5 % slower caught |", "\n| avx2_t_u4 | "):
        check(want in text, f"the table has {want!r}:\n{text}")

    # by construction, through the replay and the gate's own code: a night against an exact
    # copy of itself is quiet; the copy with one kernel 20 % slower regresses that kernel and
    # no other; one point of a kernel 50 % slower is that point's state, not its kernel's; the
    # copy with every point 40 % slower is one machine-wide change
    # a diagnostic night beside them (a history branch keeps them) is no A/A night
    first = next(top for top, _, _ in os.walk(rec) if os.path.basename(top) == TWO[0])
    injected = os.path.join(os.path.dirname(first), "2026-12-06-99")
    shutil.copytree(first, injected)
    with open(os.path.join(injected, "nightly.csv")) as f:
        text = f.read()
    with open(os.path.join(injected, "nightly.csv"), "w") as f:
        f.write("# diagnostic=inject-slowdown\n" + text)
    skipped = []
    nights = calibrate.load([rec], os.path.join(tmp, "scratch"), skipped)
    check(len(nights) == 2 and skipped == ["2026-12-06-99"],
          f"a diagnostic night is left out: {[n.label for n in nights]}, skipped {skipped}")
    night = nights[0]
    limits = dict(alpha=0.05, threshold=0.1, kernel_threshold=0.12, kernel_outlier_z=3.5,
                  cv_max=0.1, cpu_share_min=0.8)
    work = os.path.join(tmp, "work")
    same = calibrate.replay(night, night, limits, 50, None, work)
    check(same["exit"] == 0 and not calibrate.regressed_kernels(same) and
          all(m["ratio"] == 1.0 for m in same["kernels"].values()),
          f"a night against itself is quiet, every kernel's move 1 (exit {same['exit']})")
    slowed = calibrate.replay(night, night, limits, 50, None, work, "avx2_t_u4", 20)
    check(slowed["exit"] == 1 and calibrate.regressed_kernels(slowed) == {"avx2_t_u4"} and
          abs(slowed["kernels"]["avx2_t_u4"]["ratio"] - 1 / 1.2) < 1e-6 and
          slowed["kernels"]["avx2_t_u4"]["points"] == 3,
          f"avx2_t_u4 20 % slower: it and only it regressed, its move 1/1.2 over its 3 points "
          f"({calibrate.regressed_kernels(slowed)}, exit {slowed['exit']}, "
          f"{slowed['kernels'].get('avx2_t_u4')})")
    one = next(r["point"] for r in reader.load(night.csv).rows if r["kernel"] == "sse2_t_u4")
    alone = calibrate.replay(night, night, limits, 50, None, work, one, 50)
    pt = next(p for p in alone["points"] if p["name"] == one)
    check(alone["exit"] == 0 and pt["status"] == "unconfirmed" and
          "its kernel held" in pt["why"],
          f"one point of sse2_t_u4 50 % slower: its kernel held, exit 0 "
          f"({alone['exit']}, {pt['status']}: {pt['why']})")
    shifted = calibrate.replay(night, night, limits, 50, None, work, "*", 40)
    check(shifted["exit"] == gate.INCONCLUSIVE and shifted.get("machine_shift") and
          not calibrate.regressed_kernels(shifted),
          f"every point 40 % slower: one machine-wide change, no regression "
          f"({shifted.get('machine_shift', {}).get('note')}, exit {shifted['exit']})")

    outlier_rule(limits)
    state_rule(limits)
    good = gate.good_by_point(night.csv)
    warned = {"points": [dict(name=next(n for n in good if n.startswith("avx2_t_u4/")),
                              status="unconfirmed", disturbed=True)]}
    kept = gate.reference_points(night.csv, warned)
    check(gate.reference_points(night.csv) == good and kept and
          set(kept) == {n for n in good if not n.startswith("avx2_t_u4/")},
          "a night's references lack every point of a kernel its gate left too disturbed to "
          "judge, and only those")

    # the synthetic nights: each point's median over resampled rounds of its own night, the
    # kernel rule's figures one per night
    rounds = calibrate._rounds(night)
    good = gate.good_by_point(night.csv)
    drawn = calibrate.synthetic(rounds, good, random.Random(3))
    check(set(drawn) == set(good) and
          all(min(rounds[p]) <= g <= max(rounds[p]) for p, (g, _) in drawn.items()),
          "a synthetic night has every good point, each within its recorded rounds")
    fig = calibrate.kernel_figures(nights, limits, 7, 1)
    check(len(fig["aa"]) == 7 and all(len(v) == 7 for v in fig["slow"].values()) and
          fig == calibrate.kernel_figures(nights, limits, 7, 1),
          "kernel_figures: one figure per synthetic night and change, the same for one seed")
    rates = calibrate._rates(fig, 0.12, 3.5, 0.05, 0.04)
    kernels = calibrate.by_kernel(fig, 0.12, 3.5, 0.05, 0.04)
    check(all(sum(slow[p][0] for _, slow in kernels.values()) == rates.caught[p] and
              sum(slow[p][1] for _, slow in kernels.values()) == rates.judged[p]
              for p in calibrate.SLOWDOWNS) and
          sum(fa for fa, _ in kernels.values()) >= rates.fa,
          f"by_kernel adds up to the rates: {kernels} against {rates}")
    check(max(m[0] for m, _ in fig["slow"][30]) < 0.83 and
          all(len(m) == 4 for night, _ in fig["aa"] for m in night) and
          all(0 <= sc < 1 for _, sc in fig["aa"]),
          f"on these nights (seed 1) a kernel 30 % slower moves below 0.83, each move a "
          f"ratio, a z, its nearest night and its kernel, each night's scatter a fraction: "
          f"{fig['slow'][30]}")

    # the injection itself: one kernel's numbers scaled, no other's, metadata and header kept
    out = os.path.join(tmp, "slowed.csv")
    calibrate.write_csv(night, out, "avx2_t_u4", 20)
    before = {r["point"]: r for r in reader.load(night.csv).rows}
    after = {r["point"]: r for r in reader.load(out).rows}
    scaled = [p for p in before if before[p]["gbps_median"] != after[p]["gbps_median"]]
    check(scaled and all(p.startswith("avx2_t_u4/") for p in scaled) and
          all(abs(float(after[p][c]) - float(before[p][c]) / 1.2) <= 1e-5 * float(before[p][c])
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


def outlier_rule(limits):
    """The kernel rule by construction: ten kernels at three sizes against references of 1 GB/s;
    one kernel 15 % slower fails on a quiet night (the others within 1 %) and not on a
    disturbed one (the others scattered 6-12 % either way), where its point is unconfirmed
    with the reason; with fewer than gate.OUTLIER_MIN_KERNELS kernels the threshold alone
    judges."""
    def night(spread, kernels=10):
        return {"k%d/size:%d" % (k, s): ((0.85 if k == 0 else
                                          1 + spread * (1 if (k + s) % 2 else -1) * (1 + k % 3)),
                                         None)
                for k in range(kernels) for s in range(3)}
    refs = [{p: (1.0, None) for p in night(0)}]
    quiet = gate.kernel_moves(night(0.004), refs)
    disturbed = gate.kernel_moves(night(0.04), refs)
    few = gate.kernel_moves(night(0.04, gate.OUTLIER_MIN_KERNELS - 1), refs)
    check(gate.kernel_apart(quiet["k0"], limits) and quiet["k0"]["z"] < -5 and
          not any(gate.kernel_apart(m, limits) for k, m in quiet.items() if k != "k0"),
          f"a kernel 15 % slower on a quiet night fails, no other does: {quiet['k0']}")
    check(disturbed["k0"]["ratio"] < 1 - limits["kernel_threshold"] and
          not gate.kernel_apart(disturbed["k0"], limits) and -3.5 < disturbed["k0"]["z"] < 0,
          f"on a disturbed night it is within the scatter: {disturbed['k0']}")
    check(few["k0"]["z"] is None and gate.kernel_apart(few["k0"], limits),
          f"with {gate.OUTLIER_MIN_KERNELS - 1} kernels the threshold alone: {few['k0']}")
    pts = [dict(name="k0/size:1", status="regression", why="x memset 0.85")]
    gate.against_kernels(pts, disturbed, limits)
    check(pts[0]["status"] == "unconfirmed" and "scattered" in pts[0]["why"],
          f"its point is unconfirmed, the scatter said: {pts[0]}")
    # a kernel 40 % slower stands out of a night scattered 2.5 %: it fails where every night
    # is judged, and makes the night inconclusive where such a night is too disturbed (2 %)
    def far(spread):
        return {p: (0.6 if p.startswith("k0/") else g, None) for p, (g, _) in night(spread).items()}
    wide = gate.kernel_moves(far(0.025), refs)
    scatter = gate.moves_scatter(wide)
    for top, status, exit_ in ((None, "regression", 1), (0.02, "unconfirmed", gate.INCONCLUSIVE)):
        lim = dict(limits, kernel_scatter_max=top)
        pts = [dict(name="k0/size:1", status="regression", why="x memset 0.6")]
        gate.against_kernels(pts, wide, lim)
        check(gate.kernel_apart(wide["k0"], lim) and pts[0]["status"] == status and
              gate.verdict(pts) == exit_ and (top is None or "too disturbed" in pts[0]["why"]),
              f"scatter {scatter:.3f}, limit {top}: {pts[0]}, exit {gate.verdict(pts)}")
    # a machine-wide change: the median past the threshold, three quarters past half of it
    def shifted(*ratios):
        return gate.machine_shift([dict(ratio=r, status="unchanged") for r in ratios],
                                  dict(limits, threshold=0.1))
    noisy = [0.86] * 14 + [0.93] * 6
    check(shifted(*noisy) and shifted(*noisy)["points"] == 20 and
          not shifted(*[0.96] * 20) and not shifted(*[0.86] * 11),
          "every point 14-7 % slower (median 0.86) is one change, all 4 % slower or 11 points "
          f"are not: {shifted(*noisy)}")
    quiet_pts = [dict(name="k0/size:1", status="regression", why="x memset 0.85")]
    gate.against_kernels(quiet_pts, quiet, dict(limits, kernel_scatter_max=0.02))
    check(gate.moves_scatter(quiet) < 0.02 and quiet_pts[0]["status"] == "regression",
          f"a quiet night ({gate.moves_scatter(quiet):.4f}) is judged: {quiet_pts[0]}")


def state_rule(limits):
    """The state margin by construction: ten kernels at three sizes, k0 at 0.65 of its usual
    GB/s on one of its five last nights (a state the host visits, as scalar_nt_u1 on the Turin
    guest).  Tonight in that state it moves 0.65 against the references' median but stands where
    it stood that night: it fails nothing, its point unconfirmed with the reason, while the
    same night without the low night fails, and so does the margin turned off; a state seen
    on the eighth night back counts, one past gate.HISTORY_NIGHTS does not; a 20 % slowdown
    from its usual state stands near no night and fails."""
    def night(k0):
        return {"k%d/size:%d" % (k, s): ((k0 if k == 0 else 1 + 0.003 * ((k + s) % 3)), None)
                for k in range(10) for s in range(3)}
    usual, low = night(1.0), night(0.65)
    lim = dict(limits, kernel_state_margin=0.04)
    again = gate.kernel_moves(night(0.66), [usual, low, usual, usual, usual])
    first = gate.kernel_moves(night(0.66), [usual] * 5)
    slower = gate.kernel_moves(night(1 / 1.2), [usual, low, usual, usual, usual])
    check(again["k0"]["ratio"] < 0.7 and abs(again["k0"]["nearest"] - 0.66 / 0.65) < 1e-6 and
          gate.seen_state(again["k0"], lim) and not gate.kernel_apart(again["k0"], lim),
          f"back in a state seen on a night before: no failure ({again['k0']})")
    late = gate.kernel_moves(night(0.66), [usual] * 7 + [low])
    gone = gate.kernel_moves(night(0.66), [usual] * gate.HISTORY_NIGHTS + [low])
    check(gate.seen_state(late["k0"], lim) and not gate.seen_state(gone["k0"], lim),
          f"a state is seen on any of the last {gate.HISTORY_NIGHTS} nights, not before them")
    check(gate.kernel_apart(again["k0"], dict(lim, kernel_state_margin=None)),
          "with the margin off, the same night fails its kernel")
    check(gate.kernel_apart(first["k0"], lim) and not gate.seen_state(first["k0"], lim),
          f"the first night in that state fails ({first['k0']})")
    check(gate.kernel_apart(slower["k0"], lim) and
          abs(slower["k0"]["nearest"] - 1 / 1.2) < 0.01,
          f"20 % slower than its usual state, near no night before: fails ({slower['k0']})")
    pts = [dict(name="k0/size:1", status="regression", why="x memset 0.66")]
    gate.against_kernels(pts, again, lim)
    check(pts[0]["status"] == "unconfirmed" and "state this host visits" in pts[0]["why"] and
          gate.verdict(pts) == 0,
          f"its point is unconfirmed, the state said, the night passes: {pts[0]}")


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
                       ([rec, "--calibration-pairs", "-1"], "not a whole number"),
                       ([rec, "--calibration-nights", "0"], "one synthetic night or more")):
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
