# storebench/nightly/gate.py — the nightly regression gate over two Google Benchmark JSON files.
# Python 3 standard library; the statistics come from Google Benchmark's compare.py (which needs
# scipy), run as a program so its U-test is the one every Google Benchmark user already trusts.
"""Classify every point of a run against a baseline.

A point is a regression only when all of these hold:
  * compare.py's two-sided Mann-Whitney U-test over the repetitions gives p < alpha;
  * the median GB/s is worse than the baseline's by more than the threshold;
  * the point is of good quality in both runs; otherwise it is "noisy".  Quality is storebench's
    `quality` column where the CSV has one (its limits are the run's quality_* metadata), else
    the gate's own rule: cv of the repetitions at most cv_max, and no measured thread with less
    than cpu_share_min of its CPU.
Improvements are the mirror image.  The ratio is simple arithmetic on compare.py's median
aggregates of time per byte: GB/s ratio = old time / new time.

A kernel measured beside memset in paired rounds (the CSV's vs_memset_* columns: the median
ratio of its GB/s to memset's, round by round, and its 95 % interval) is judged on that ratio
instead (judge_paired): the two kernels ran back to back in every round, so what the host did
to both cancels.  It regressed when its ratio fell by more than the threshold against the
baseline's, the two intervals do not overlap, and its GB/s fell too; if it moved but its ratio
held, memset moved with it and the host, not the kernel, changed.  memset itself, and runs
without rounds, keep the rule above, and memset's move must show in most kernels paired with it
at its point (their ratio to it moved the other way).

A regression then stands only where its whole kernel moved (kernel_moves, against_kernels):
the median over the kernel's points of how far each moved apart from the other kernels of its
group, against the median of the last nights, below 1 - kernel_threshold, an outlier among the
night's kernels (KERNEL_OUTLIER_Z: a disturbed night scatters them all).  One point's state
(memset at 4.7 MiB read 89 then 41 GB/s on two A/A nights of the Turin guest) moves no
kernel, and a host that moved every kernel moves none apart from the rest.  Nor does a kernel
that stands where it stood on one of those nights (seen_state): a state the host visits, as the
Turin guest's 8-byte streaming stores at 0.5-0.7 of their kind on a third of its nights, is no
news the second time.  The calibration (calibrate.py) measures what this costs and catches.

When (nearly) every point moved the same way (machine_shift), the host changed (its memory
bandwidth, its clocks, its neighbours) or something every kernel shares did: that is one
machine-wide change, reported with its size, and each point judged on GB/s alone is judged by
how it moved against it (against_shift): only a point that moved apart from the rest is a
regression.
"""

import json
import math
import os
import re
import statistics
import subprocess
import sys
from collections import namedtuple

from storebench import reader

COMPARE_PY_DEFAULT = "/usr/share/benchmark/compare.py"
# compare.py's own constant (gbench/report.py UTEST_OPTIMAL_REPETITIONS): fewer is not gated.
MIN_REPETITIONS = 9
# The gate's own thresholds: metal for a dedicated machine, vm for a guest or a shared runner
# (its vCPUs lose time to the host and its memory bandwidth moves with its neighbours), in
# percent.  The quality limits (cv_max, cpu_share_min) are storebench's: its --profile sets them
# and the run's quality_* metadata says which it used; the gate keeps no copy.

# A kernel apart must also stand out from the night's other kernels: its log move below the
# median of all kernels' by more than KERNEL_OUTLIER_Z robust standard deviations (1.4826 x
# their median absolute deviation: Iglewicz and Hoaglin's modified z-score, cut at 3.5).  On a
# disturbed night every kernel's move scatters: of 24 A/A nights on the Turin guest
# (2026-12-06) one had a deviation of 7.0 % where the others had 0.4-1.9 %, and its lowest
# kernels (cc_v2 0.797, scalar_nt_u1 0.812, cc_v3 0.816 against the kernels beside them) were
# false alarms 3.0-3.3 deviations out; a kernel 20 % slower on a night of 1.5 % stands twelve
# out.  A median absolute deviation needs OUTLIER_MIN_KERNELS kernels to mean
# anything: with fewer, the threshold alone judges.
KERNEL_OUTLIER_Z = 3.5
OUTLIER_MIN_KERNELS = 8

# kernel_scatter_max: the widest scatter of a night's kernel moves (1.4826 x the median absolute
# deviation of their logs, in percent) at which the kernel rule judges one kernel.  A night
# scattered wider is too disturbed to tell one kernel's move from the others': what it would
# fail is inconclusive (INCONCLUSIVE), for a night that follows to settle.  On the Turin guest
# (2026-12-06, 43 A/A nights, 1000 synthetic nights drawn from them) the false alarms of the
# kernel rule fell on such nights: at 2 % 154 slowed nights in 1000 are too disturbed to judge,
# and the rest catch 838 of 846 single-kernel 20 % slowdowns, with 2 false alarms in 1000 A/A
# nights (upper bound 0.6 %), where every night judged gave 38 (5.0 %) and 951 of 1000; the
# recorded nights themselves scatter 0.4-1.9 % but two, at 4.3 and 7.0 % (docs/ci.md,
# Calibrating the gate).
KERNEL_SCATTER_MAX = 2.0

# kernel_state_margin: how near (either way, in percent) a kernel must stand tonight to where it
# stood on one of its last HISTORY_NIGHTS nights, against the kernels beside it, for its move
# to be a state this host visits rather than news (seen_state).  The 8-byte streaming stores
# (scalar_nt_u1) visit states 11-19 % below their kind on 5 of 36 A/A nights of the Genoa guest
# and 30-50 % below on 6 of 22 of the Turin guest.  On 4000 synthetic A/A nights of the Genoa
# recording (2026-12-06, docs/ci.md: Calibrating the gate) the kernel rule failed a kernel on 90
# without a margin, mostly scalar_nt_u1, and on 33, 19, 14 and 7 at 3, 4, 5 and 7 %, while the
# 20 % slowdowns caught fell from 2192 of 2209 to 2142, 2127, 2107 and 2071: a slowdown that
# lands on a state the kernel visits is not told from it.  vm's is the least margin whose false
# alarms stay within 1 % (upper bound 0.7 %).  It must be less than the kernel threshold: a
# kernel that stood the same on every night is nearest at its own move, so the margin is the
# least move that can fail; metal's is half its kernel threshold, not calibrated.

# kernel_threshold: how far a whole kernel must move apart from the kernels beside it before
# any of its points fails the night (kernel_moves).  vm's from the calibration of 43 A/A nights
# on the Turin guest (docs/ci.md, Calibrating the gate): the highest at which a kernel 20 %
# slower is still caught 95 times in 100; metal's is not calibrated yet and is the point
# threshold.
# kernel_outlier_z: how many robust deviations below the night's other kernels a kernel must
# also stand (KERNEL_OUTLIER_Z, above).
PROFILES = {
    "metal": dict(threshold=5.0, kernel_threshold=5.0, kernel_outlier_z=KERNEL_OUTLIER_Z,
                  kernel_scatter_max=KERNEL_SCATTER_MAX, kernel_state_margin=2.5,
                  alpha=0.05, noisy_max=50.0),
    "vm": dict(threshold=10.0, kernel_threshold=12.0, kernel_outlier_z=KERNEL_OUTLIER_Z,
               kernel_scatter_max=KERNEL_SCATTER_MAX, kernel_state_margin=4.0,
               alpha=0.05, noisy_max=50.0),
}


# A machine-wide change: at least SHIFT_MIN_POINTS points compared, their median moved by more
# than the threshold, and at least SHIFT_SHARE of them moved the same way by more than half of
# it.  Half: with every point 20 % slower (0.833) a night's noise kept more than a quarter of
# the points above 0.9 on 149 of 1000 synthetic nights of the Turin guest, which then reported
# no single change; at half, 39 (docs/ci.md, Calibrating the gate).  Fewer points cannot tell
# the host from the code; a smaller share is a change of some kernels (one kernel is 1/33 of a
# sweep, a whole ISA family a quarter).  Not all: on a shared guest a uniform 40 % slowdown
# moved 12 of 16 points past the threshold, the noise of either run hiding the rest.
SHIFT_MIN_POINTS = 12
SHIFT_SHARE = 0.75
# The kernel rule.  A kernel's move is the median, over its points, of how far each point moved
# apart from the other kernels of its group (the same size, threads and mix) of its own kind
# (libc, t, nt, ...) where there are KIND_MIN_OTHERS of them, else from all the others:
# log(tonight / reference) less those kernels' median of the same.  Its own kind first: on the
# Turin guest the streaming stores moved 14 % apart from the rest together on two real nights
# of seven (the memory moved, not the clocks), which no one kernel's regression does.  The
# reference of a point is its median over the last KERNEL_REFERENCE_NIGHTS good nights (the
# baseline and the nights before it): single nights move one kernel 10-25 % apart from the rest
# (rep_stosq on one night, the compiled loops on another), and a median of five nights halved
# the alarms of one.  A group needs GROUP_MIN_KERNELS kernels for a median to stand for it.  A
# kernel of one point (a sweep of one size) is judged by that point's move alone.
KERNEL_REFERENCE_NIGHTS = 5
# The machine's good nights a night is judged with, the baseline's first: a suspect point must
# read below what it read on each (against_history), and a kernel that stands where it stood on
# one is in a state seen (seen_state).
HISTORY_NIGHTS = 10
# One other of its kind is enough: the two flushing stores (avx2_clflushopt, avx2_clwb) fell to
# 0.79 and 0.81 of the rest together on one A/A night of 24 (Turin guest, 2026-12-06), and with
# two others required each stood against every kernel and failed; over the 24 nights' and the
# 19 earlier nights' synthetic draws one other cut the false alarms by a sixth to a third and
# caught as many slowdowns or more (docs/ci.md, Calibrating the gate).
KIND_MIN_OTHERS = 1
GROUP_MIN_KERNELS = 3

# Exit status of a night that judged nothing per point: most points noisy (too noisy to gate),
# or every point moved together with none apart from it (a machine-wide change).  Not 1 (no
# point regressed) and not 2 (bad usage or setup).
INCONCLUSIVE = 3
# Exit status of a night on which a change of the whole machine over nights is first proven
# (changes.py: the machine's level stepped and stayed for MIN_SIDE nights): its clocks, memory,
# microcode or kernel changed for good.  Red, unlike INCONCLUSIVE: one night's shift may be a
# neighbour, one that stays is the fleet's new machine.
MACHINE_CHANGED = 4


class SetupError(Exception):
    """Missing tool, unreadable input: the caller reports it and exits with status 2."""


def find_compare_py(path=None):
    path = path or os.environ.get("GBENCH_COMPARE_PY") or COMPARE_PY_DEFAULT
    if not os.path.isfile(path):
        raise SetupError(f"Google Benchmark compare.py not found at {path} "
                         "(Debian: apt install libbenchmark-tools; or set GBENCH_COMPARE_PY)")
    return path


def find_scipy_python():
    """compare.py imports scipy; the python3 first on PATH (pyenv, venv) may lack it."""
    candidates = [os.environ.get("STOREBENCH_PYTHON"), sys.executable, "/usr/bin/python3",
                  "python3"]
    for exe in filter(None, candidates):
        try:
            # find_spec only locates scipy: importing it costs seconds on a busy machine
            r = subprocess.run([exe, "-c", "import importlib.util, sys; "
                                "sys.exit(importlib.util.find_spec('scipy') is None)"],
                               capture_output=True)
        except OSError:
            continue
        if r.returncode == 0:
            return exe
    raise SetupError("no python3 with scipy found for compare.py "
                     "(Debian: apt install python3-scipy; or set STOREBENCH_PYTHON)")


# Google Benchmark appends per-benchmark settings to the name; they change how long a point is
# sampled, not what one batch measures, so points match across runs without them.
_SETTINGS = re.compile(r"/(?:min_time:[^/]+|repeats:\d+)(?=/|$)")
NS_PER_MB = "ns per MB (1e6 bytes moved)"


def _matchable(src, dst):
    """A copy of src for compare.py: names without the sampling settings, every repetition's
    time restated as ns per MB moved (1e6 / its GB/s), and one median and one cv aggregate per
    point over all of its repetitions.  storebench sizes a batch at run time, so two runs may
    time different batches; per byte they compare (a monotone change of units: the U-test's
    ranks and p-value are the same as on GB/s).  With --rounds the JSON holds Google Benchmark's
    aggregates per round, of which compare.py would read one: the repetitions are pooled."""
    doc = load_gbench(src)
    reps = {}
    for b in doc["benchmarks"]:
        bps = _bytes_per_second(b)
        if b.get("run_type", "iteration") != "iteration" or not bps:
            continue
        for key in ("name", "run_name"):
            if key in b:
                b[key] = _SETTINGS.sub("", b[key])
        cpu_share = b["cpu_time"] / b["real_time"] if b.get("real_time") else 1.0
        b["real_time"] = 1e15 / bps
        b["cpu_time"] = b["real_time"] * cpu_share
        b["time_unit"] = "ns"
        reps.setdefault(b.get("run_name", b["name"]), []).append(b)
    kept = []
    for run, entries in reps.items():
        times = [e["real_time"] for e in entries]
        cv = statistics.stdev(times) / statistics.mean(times) if len(times) > 1 else 0.0
        med = dict(entries[0], name=run + "_median", run_name=run, run_type="aggregate",
                   aggregate_name="median", aggregate_unit="time", repetitions=len(entries),
                   real_time=statistics.median(times),
                   cpu_time=statistics.median(e["cpu_time"] for e in entries))
        med.pop("bytes_per_second", None)
        med["GB/s"] = 1e6 / med["real_time"]
        kept += entries + [med, dict(med, name=run + "_cv", aggregate_name="cv",
                                     aggregate_unit="percentage", real_time=cv, cpu_time=cv)]
    doc["benchmarks"] = kept
    with open(dst, "w") as f:
        json.dump(doc, f)
    return doc


def run_compare(base_json, new_json, alpha, table_out, diff_out, compare_py=None):
    """Run compare.py; keep its human table in table_out and its JSON dump in diff_out.
    Returns (diff, base_doc, new_doc), the documents with names as compare.py saw them."""
    tmp = os.path.dirname(os.path.abspath(diff_out))
    base_m, new_m = os.path.join(tmp, ".baseline.json"), os.path.join(tmp, ".contender.json")
    base_doc, new_doc = _matchable(base_json, base_m), _matchable(new_json, new_m)
    cmd = [find_scipy_python(), find_compare_py(compare_py), "-a", "--no-color",
           "--alpha", repr(alpha), "-d", diff_out, "benchmarks", base_m, new_m]
    try:
        r = subprocess.run(cmd, capture_output=True, text=True)
    finally:
        os.unlink(base_m)
        os.unlink(new_m)
    if r.returncode != 0 or not os.path.isfile(diff_out):
        err = (r.stderr.strip().splitlines() or ["no output"])[-1]
        raise SetupError(f"compare.py failed on {base_json} vs {new_json}: {err}")
    with open(table_out, "w") as f:
        # compare.py names the per-byte copies it was given; name the run files instead
        f.write(r.stdout.replace(f"Comparing {base_m} to {new_m}",
                                 f"Comparing {base_json} to {new_json}; times are {NS_PER_MB}", 1))
    with open(diff_out) as f:
        return json.load(f), base_doc, new_doc


def load_gbench(path):
    try:
        with open(path) as f:
            doc = json.load(f)
    except (OSError, ValueError) as e:
        raise SetupError(f"cannot read Google Benchmark JSON {path}: {e}")
    if not isinstance(doc, dict) or not isinstance(doc.get("benchmarks"), list):
        raise SetupError(f"{path} is not Google Benchmark JSON (no 'benchmarks' list)")
    return doc


def point_name(run_name):
    """The point, <kernel>/call:<n>/ws:<n>/threads:<t>/rw:<r>, without GB's own suffixes."""
    name = _SETTINGS.sub("", run_name)
    return name[:-len("/manual_time")] if name.endswith("/manual_time") else name


def _medians(doc):
    """run_name -> median aggregate entry (rates, real_time) of one GB JSON document."""
    return {b["run_name"]: b for b in doc["benchmarks"]
            if b.get("run_type") == "aggregate" and b.get("aggregate_name") == "median"}


def point_names(doc):
    """The points of one run (names of its repetition entries)."""
    return {point_name(n) for n in _iteration_names(doc)}


def _cpu_share_min(doc):
    """run_name -> least cpu_share over its repetitions, where storebench reports it."""
    out = {}
    for b in doc["benchmarks"]:
        if b.get("run_type", "iteration") == "iteration" and "cpu_share" in b:
            run = b.get("run_name", b["name"])
            out[run] = min(out.get(run, 1.0), b["cpu_share"])
    return out


def _iteration_names(doc):
    return {b.get("run_name", b["name"]) for b in doc["benchmarks"]
            if b.get("run_type", "iteration") == "iteration"}


def _rows(csv_path):
    """point name -> CSV row of a run whose CSV reads and has the quality and point columns (the
    name as storebench wrote it); None else (an older storebench: the gate's own rule holds)."""
    try:
        run = reader.load(csv_path)
    except reader.CsvError:
        return None
    if "quality" not in run.columns or "point" not in run.columns:
        return None
    return {r["point"]: r for r in run.rows}


def _float(row, key):
    """A positive finite number from a CSV field; None for an empty field, text, NaN or inf."""
    try:
        v = float(row.get(key) or "")
    except ValueError:
        return None
    return v if 0 < v < math.inf else None


def quality_by_point(csv_path):
    """point name -> storebench's quality ('ok' or reasons); None without the quality column."""
    rows = _rows(csv_path)
    return None if rows is None else {n: r["quality"] for n, r in rows.items()}


# A row's paired ratio to memset over the rounds, its interval, and the point of memset it was
# paired with (the CSV's vs_memset_point; None in a CSV from before that column).
Pair = namedtuple("Pair", "ratio low high memset")


def _pair(row):
    """The row's Pair; None when it has no paired ratio with an interval."""
    vals = tuple(_float(row, "vs_memset_" + k) for k in ("ratio", "ci_low", "ci_high"))
    return None if None in vals else Pair(*vals, row.get("vs_memset_point") or None)


def pairs_by_point(csv_path):
    """point name -> _pair() for the points of a run that have one; {} for none."""
    return {n: _pair(r) for n, r in rows_by_point(csv_path).items() if _pair(r)}


def rows_by_point(csv_path):
    """point name -> CSV row of a run that has the quality and point columns; {} else."""
    return _rows(csv_path) or {}


def good_by_point(csv_path):
    """point name -> (median GB/s, paired ratio to memset or None) of the points storebench
    marked ok in that run's CSV; {} when it does not read or has no quality column."""
    return {n: (_float(r, "gbps_median"), (_pair(r) or (None,))[0])
            for n, r in (_rows(csv_path) or {}).items()
            if r["quality"] == "ok" and _float(r, "gbps_median")}


def reference_points(csv_path, record=None):
    """good_by_point of a night that is to be a reference of later ones, less the points of
    every kernel its gate record (its gate.json, None: none) left too disturbed to judge: a
    kernel that would have failed on a night that warned instead is no reference for itself,
    or its move would be a state seen (seen_state) the next night and a real slowdown on a
    disturbed night would pass the night after it too."""
    good = good_by_point(csv_path)
    flagged = {p["name"].split("/", 1)[0] for p in (record or {}).get("points", [])
               if isinstance(p, dict) and p.get("disturbed")}
    return {n: v for n, v in good.items() if n.split("/", 1)[0] not in flagged}


def against_history(points, history):
    """A suspect (already more than the threshold below the baseline) stays a regression only
    when tonight's value also lies below the lowest good value of the point over the machine's
    recent nights (history: one good_by_point map a night, the baseline's among them): its
    paired ratio to memset where it was judged on one, else its median GB/s.  A point that sat
    this low on a night before is a state this host visits, not news of this build: on the Turin
    guest the streaming stores at 512 KiB x 2 threads flip between two speeds 2x apart from night
    to night.  No margin below that lowest night: with one, a 40 % slowdown hid under two nights
    15 % apart.  With only the baseline's night nothing changes."""
    for p in points:
        paired = "paired" in p
        now = p["paired"]["new"][0] if paired else p.get("gbps_new")
        seen = [m[p["name"]][1 if paired else 0] for m in history if p["name"] in m]
        seen = [v for v in seen if v]
        if p["status"] != "regression" or len(seen) < 2 or not now:
            continue
        if now >= min(seen):
            p["status"] = "unconfirmed"
            p["why"] = "within what its last %d nights read (%.3g-%.3g %s; tonight %.3g)" % (
                len(seen), min(seen), max(seen), "x memset" if paired else "GB/s", now)


def kernel_moves(tonight, history, kinds=None):
    """kernel -> dict(ratio: its move against the kernels beside it as a GB/s ratio, points:
    how many points it rests on, z: its log move's modified z-score among all the kernels'
    moves, None with fewer than OUTLIER_MIN_KERNELS; nearest: the same move against the one
    night of history on which the kernel stood nearest to where it stands tonight, a ratio,
    None when no single night has a group of it), for every kernel with a point in a group of
    GROUP_MIN_KERNELS.
    tonight and each night of history are good_by_point maps (point -> (GB/s, ...)), the
    history newest first: the reference of a point is its median over the first
    KERNEL_REFERENCE_NIGHTS (reference_gbps), the nearest night any of the first
    HISTORY_NIGHTS; kinds: kernel -> kind (kinds_of), {} or None to set each kernel against all
    the others."""
    kinds = kinds or {}
    moved = _log_moves(tonight, lambda p: reference_gbps(p, history))
    moves = {k: dict(ratio=math.exp(statistics.median(ds)), points=len(ds), nearest=None)
             for k, ds in _apart(moved, kinds).items()}
    logs = [math.log(m["ratio"]) for m in moves.values()]
    for m in moves.values():
        m["z"] = _robust_z(math.log(m["ratio"]), logs)
    for night in history[:HISTORY_NIGHTS]:
        one = _log_moves(tonight, lambda p: night[p][0] if p in night else None)
        for k, ds in _apart(one, kinds).items():
            m, here = moves.get(k), math.exp(statistics.median(ds))
            if m and (m["nearest"] is None or abs(math.log(here)) < abs(math.log(m["nearest"]))):
                m["nearest"] = here
    return moves


def _log_moves(tonight, reference):
    """point -> log(tonight's GB/s / reference(point)) where both are known and not zero."""
    return {p: math.log(g) - math.log(ref) for p, (g, *_) in tonight.items()
            for ref in [reference(p) if g else None] if ref}


def _apart(moved, kinds):
    """kernel -> [each of its points' log move (moved: point -> log move) less the median move
    of the kernels beside it at that point], over the groups of GROUP_MIN_KERNELS kernels."""
    groups = {}
    for point, d in moved.items():
        kernel, group = point.split("/", 1)
        groups.setdefault(group, []).append((kernel, d))
    apart = {}
    for point, d in moved.items():
        kernel, group = point.split("/", 1)
        if len(groups[group]) < GROUP_MIN_KERNELS:
            continue
        others = [(k, x) for k, x in groups[group] if k != kernel]
        same = [x for k, x in others if kinds.get(k, k) == kinds.get(kernel, kernel)]
        beside = same if len(same) >= KIND_MIN_OTHERS else [x for _, x in others]
        apart.setdefault(kernel, []).append(d - statistics.median(beside))
    return apart


def reference_gbps(point, history):
    """The point's median GB/s over the first KERNEL_REFERENCE_NIGHTS nights of history
    (good_by_point maps, the baseline's first) that have it: its reference for the kernel rule
    and the machine-wide change; None where none has it."""
    seen = [m[point][0] for m in history[:KERNEL_REFERENCE_NIGHTS] if point in m and m[point][0]]
    return statistics.median(seen) if seen else None


def _robust_spread(xs):
    """(median, 1.4826 x the median absolute deviation) of xs: a standard deviation that one
    stray value does not move."""
    med = statistics.median(xs)
    return med, 1.4826 * statistics.median(abs(v - med) for v in xs)


def _robust_z(x, xs):
    """x's modified z-score among xs: (x - median) / _robust_spread's deviation, +-inf off a
    deviation of 0, 0 on the median; None with fewer than OUTLIER_MIN_KERNELS."""
    if len(xs) < OUTLIER_MIN_KERNELS:
        return None
    med, scale = _robust_spread(xs)
    if scale > 0:
        return (x - med) / scale
    return 0.0 if x == med else math.copysign(math.inf, x - med)


def moves_scatter(moves):
    """The scatter of a night's kernel moves (kernel_moves): 1.4826 x the median absolute
    deviation of their logs, a fraction; None with fewer than OUTLIER_MIN_KERNELS kernels."""
    logs = [math.log(m["ratio"]) for m in moves.values()]
    return _robust_spread(logs)[1] if len(logs) >= OUTLIER_MIN_KERNELS else None


def too_disturbed(scatter, limits):
    """Whether a night whose kernel moves scatter this much (moves_scatter) is too disturbed
    for the kernel rule: above limits' kernel_scatter_max (a fraction; absent or None: never)."""
    top = limits.get("kernel_scatter_max")
    return top is not None and scatter is not None and scatter > top


def kernel_apart(move, limits):
    """Whether a kernel_moves entry fails its kernel: its move below 1 - kernel_threshold,
    where the night has a z, below the other kernels' median by more than kernel_outlier_z, and
    not a state seen (seen_state)."""
    return move["ratio"] < 1 - limits["kernel_threshold"] and (
        move.get("z") is None or move["z"] < -limits["kernel_outlier_z"]) and (
        not seen_state(move, limits))


def seen_state(move, limits):
    """Whether the kernel stands tonight where it stood on one of its last nights, within
    limits' kernel_state_margin (a fraction; absent or None: never): its move against that
    night (kernel_moves' nearest) at most the margin from 1, either way."""
    margin, near = limits.get("kernel_state_margin"), move.get("nearest")
    return bool(margin) and near is not None and abs(math.log(near)) <= -math.log(1 - margin)


def kinds_of(csv_path):
    """kernel -> its kind (the CSV's kind column) in a run's CSV; {} when it has none."""
    return {r["kernel"]: r.get("kind") or r["kernel"] for r in rows_by_point(csv_path).values()}


def against_kernels(points, moves, limits):
    """A regression stands only where its whole kernel failed by kernel_apart (moves:
    kernel_moves); any other becomes 'unconfirmed', with the reason.  Each regression's why
    gets its kernel's move."""
    t = limits["kernel_threshold"]
    scatter = moves_scatter(moves)
    for p in points:
        if p["status"] != "regression":
            continue
        m = moves.get(p["name"].split("/", 1)[0])
        if m is not None and kernel_apart(m, limits) and too_disturbed(scatter, limits):
            # neither a regression nor a pass: verdict makes the night inconclusive
            p["status"], p["disturbed"] = "unconfirmed", True
            p["why"] = ("its kernel moved %.3f against the kernels beside it, but tonight's "
                        "kernel moves scattered %.1f %% (more than %.1f %%): too disturbed to "
                        "tell one kernel, the night is inconclusive; %s" % (
                            m["ratio"], 100 * scatter, 100 * limits["kernel_scatter_max"],
                            p["why"]))
        elif m is None:
            p["status"] = "unconfirmed"
            p["why"] = "no group of %d kernels to judge its kernel against" % GROUP_MIN_KERNELS
        elif m["ratio"] >= 1 - t:
            p["status"] = "unconfirmed"
            p["why"] = ("this point alone: its kernel held, %.3f against the kernels beside it "
                        "over %d points (a kernel fails below %.3f); %s" % (
                            m["ratio"], m["points"], 1 - t, p["why"]))
        elif seen_state(m, limits):
            p["status"] = "unconfirmed"
            p["why"] = ("its kernel moved %.3f against the kernels beside it, but stands where "
                        "it stood on one of its last nights (%.3f against that night, within "
                        "%.0f %%): a state this host visits; %s" % (
                            m["ratio"], m["nearest"], 100 * limits["kernel_state_margin"],
                            p["why"]))
        elif not kernel_apart(m, limits):
            p["status"] = "unconfirmed"
            p["why"] = ("its kernel moved %.3f against the kernels beside it, but tonight's "
                        "kernels all scattered: %.1f robust deviations from their median (a "
                        "kernel fails beyond %.1f); %s" % (
                            m["ratio"], -m["z"], limits["kernel_outlier_z"], p["why"]))
        else:
            p["why"] += "; its kernel %.3f against the kernels beside it over %d points" % (
                m["ratio"], m["points"])


def judge_paired(points, base_pairs, new_pairs, limits, shift=None):
    """Judge every point with a paired ratio to memset in both runs (pairs_by_point maps) by
    that ratio: p['paired'] = dict(base, new: (ratio, low, high), ratio: new / base, memset:
    tonight's point of memset it was paired with, None before vs_memset_point).  A point
    already untested or noisy stays so.  The kernel must also have moved the same way in GB/s
    (against the machine-wide change's median on a night with one, shift): a ratio to memset
    also falls when memset alone got faster, and memset at 24 KiB x 2 threads read 35 % faster
    on one night of the Turin guest, every kernel beside it then lower against it."""
    t = limits["threshold"]
    scale = shift_vs_baseline(shift) if shift else 1.0
    for p in points:
        b, n = base_pairs.get(p["name"]), new_pairs.get(p["name"])
        if not b or not n or p["status"] in ("untested", "noisy") or not p["ratio"]:
            continue
        rel, own = n[0] / b[0], p["ratio"] / scale
        p["paired"] = dict(base=b[:3], new=n[:3], ratio=rel, memset=n.memset)
        how = "x memset %.3f [%.3f, %.3f] -> %.3f [%.3f, %.3f] in paired rounds" % (*b[:3],
                                                                                   *n[:3])
        fell, rose = rel < 1 - t and n[2] < b[1], rel > 1 + t and n[1] > b[2]
        if fell and own < 1 - t:
            p["status"], p["why"] = "regression", how
        elif rose and own > 1 + t:
            p["status"], p["why"] = "improvement", how
        else:
            p["status"] = "unchanged"
            p["why"] = ("memset moved, not it (GB/s x %.3f): " % own if fell or rose else
                        "moved with memset: " if abs(own - 1) > t else "") + how
    _judge_memset(points, limits)


def _judge_memset(points, limits):
    """memset's own move, from the kernels paired with it at its point: memset fell (rose) when
    their ratio to memset rose (fell) past the threshold in most of them.  One that moved by GB/s
    while the kernels beside it moved with it is the host, not memset: in one 6-point test run on
    the Turin guest memset and rep_stosb at 16 and 256 KiB all read 21-27 % slower."""
    t = limits["threshold"]
    beside = {}
    for p in points:
        if p.get("paired", {}).get("memset"):
            beside.setdefault(p["paired"]["memset"], []).append(p["paired"]["ratio"])
    for p in points:
        ratios = beside.get(p["name"])
        if not ratios or p["status"] not in ("regression", "improvement"):
            continue
        up = sum(r > 1 + t for r in ratios) if p["status"] == "regression" else \
            sum(r < 1 - t for r in ratios)
        if 2 * up <= len(ratios):
            p["status"] = "unchanged"
            p["why"] = "moved with the %d kernels beside it (%d of them apart from it): the " \
                "host, not memset" % (len(ratios), up)


def _bytes_per_second(entry):
    """storebench's GB/s counter (1e9 bytes/s), or Google Benchmark's own bytes_per_second."""
    if entry.get("GB/s"):
        return entry["GB/s"] * 1e9
    return entry.get("bytes_per_second")


def gbps_of(entry):
    """An entry's GB/s (1e9 bytes/s); None without a rate."""
    bps = _bytes_per_second(entry)
    return bps / 1e9 if bps else None


def classify(diff, base_doc, new_doc, limits, quality=(None, None), names=("baseline", "tonight")):
    """Return (points, only_base, only_new).  limits: alpha, threshold, cv_max (fractions) and
    cpu_share_min; quality: the (baseline, new) quality_by_point maps, None where absent; names:
    what the two runs are called in a point's note."""
    by_name = {}
    for entry in diff:
        if entry["name"] == "OVERALL_GEOMEAN":
            continue
        if entry.get("run_type") == "aggregate":
            run = entry["name"][:-len(entry["aggregate_name"]) - 1]
            by_name.setdefault(run, {})[entry["aggregate_name"]] = entry["measurements"][0]
        else:
            by_name.setdefault(entry["name"], {})["utest"] = entry.get("utest") or {}
    base_med, new_med = _medians(base_doc), _medians(new_doc)
    share_b, share_n = _cpu_share_min(base_doc), _cpu_share_min(new_doc)
    points = []
    for run, agg in by_name.items():
        if "utest" not in agg:
            continue
        p = dict(name=point_name(run), p=None, ratio=None, cv_base=None, cv_new=None,
                 gbps_base=None, gbps_new=None, reps=None, status="unchanged", why="",
                 cpu_share=min(share_b.get(run, 1.0), share_n.get(run, 1.0)))
        ut = agg["utest"]
        if ut:
            p["p"] = ut["time_pvalue"]
            p["reps"] = min(ut["nr_of_repetitions"], ut["nr_of_repetitions_other"])
        if "cv" in agg:
            p["cv_base"], p["cv_new"] = agg["cv"]["real_time"], agg["cv"]["real_time_other"]
        med = agg.get("median")
        if med and med["real_time_other"] > 0:
            p["ratio"] = med["real_time"] / med["real_time_other"]
        bm, nm = base_med.get(run), new_med.get(run)
        if bm and nm:
            p["gbps_base"] = (_bytes_per_second(bm) or 0) / 1e9 or None
            p["gbps_new"] = (_bytes_per_second(nm) or 0) / 1e9 or None
        bad = [f"{q} ({which})" for which, qmap in zip(names, quality)
               if qmap is not None for q in [qmap.get(p["name"], "ok")] if q != "ok"]
        p["quality"] = "; ".join(bad) if bad else ("ok" if None not in quality else "")
        _decide(p, limits)
        points.append(p)
    names_b, names_n = _iteration_names(base_doc), _iteration_names(new_doc)
    only_base = sorted(point_name(n) for n in names_b - names_n)
    only_new = sorted(point_name(n) for n in names_n - names_b)
    return points, only_base, only_new


def _decide(p, limits):
    if p["ratio"] is None or p["p"] is None or (p["reps"] or 0) < MIN_REPETITIONS:
        p["status"] = "untested"
        p["why"] = f"fewer than {MIN_REPETITIONS} repetitions in one of the runs"
        return
    cv = max(p["cv_base"] or 0.0, p["cv_new"] or 0.0)
    moved = p["p"] < limits["alpha"] and abs(p["ratio"] - 1) > limits["threshold"]
    if p["quality"]:
        bent = p["quality"] != "ok" and "quality " + p["quality"]
    elif p["cpu_share"] < limits["cpu_share_min"]:
        bent = f"a measured thread had {p['cpu_share']:.1%} of its CPU (shared)"
    else:
        bent = cv > limits["cv_max"] and f"cv {cv:.2%} > {limits['cv_max']:.2%}"
    if bent:
        p["status"], p["why"] = "noisy", ("moved, but " if moved else "") + bent
    elif moved:
        p["status"] = "regression" if p["ratio"] < 1 else "improvement"


def noisy_points(doc, limits, quality=None):
    """(noisy, total) over the distinct points of one run: bent by storebench's quality column
    where given, else by cv above cv_max (Google Benchmark's cv aggregate of the batch time) or
    a thread with less than cpu_share_min of its CPU."""
    if quality is not None:
        return sum(q != "ok" for q in quality.values()), len(quality)
    cv = {point_name(b["run_name"]): b["real_time"] for b in doc["benchmarks"]
          if b.get("run_type") == "aggregate" and b.get("aggregate_name") == "cv"}
    share = {point_name(r): v for r, v in _cpu_share_min(doc).items()}
    return (sum(cv[n] > limits["cv_max"] or share.get(n, 1.0) < limits["cpu_share_min"]
                for n in cv), len(cv))


def against_reference(points, tonight, history):
    """Set p['level'] on every point good tonight and on some of the history's first
    KERNEL_REFERENCE_NIGHTS nights: tonight's median GB/s over its median on those nights (the
    kernel rule's reference).  What the machine-wide change is measured by: against the
    baseline alone, a night back to the usual after one odd night (the Turin guest read 30 %
    faster one night, 2026-12-06) would be a change, and the odd night the baseline.  tonight:
    good_by_point of tonight's run; history: good_by_point maps, the baseline's first."""
    for p in points:
        now, ref = tonight.get(p["name"], (None,))[0], reference_gbps(p["name"], history)
        if now and ref:
            p["level"] = now / ref


def shift_vs_baseline(shift):
    """A machine-wide change (machine_shift) as a ratio to the baseline: what a point's ratio
    to the baseline is set against."""
    return shift.get("vs_baseline", shift["median"])


def _level(p):
    """How far point p moved for the machine-wide change: against its reference nights where
    against_reference set one, else its compare.py ratio to the baseline."""
    return p.get("level", p["ratio"])


def machine_shift(points, limits):
    """None, or the machine-wide change when the compared points' median moved by more than the
    threshold and (nearly) all of them moved the same way by more than half of it:
    dict(points=moved, of=compared, direction="slower"|"faster", median, low, high,
    vs_baseline), the moves' median, their range over the moved points, and the same points'
    median ratio to the baseline (what a re-measurement against the baseline is set against).
    The moves are the points' levels where against_reference gave any (the points without one
    left out), else their ratios to the baseline."""
    leveled = any("level" in p for p in points)
    compared = [p for p in points
                if p["ratio"] and p["status"] != "untested" and ("level" in p or not leveled)]
    r = sorted(_level(p) for p in compared)
    t = limits["threshold"]
    down = [x for x in r if x < 1 - t / 2]
    up = [x for x in r if x > 1 + t / 2]
    moved = down if len(down) >= len(up) else up
    if len(r) < SHIFT_MIN_POINTS or len(moved) < SHIFT_SHARE * len(r) or \
            abs(statistics.median(r) - 1) <= t:
        return None
    return dict(points=len(moved), of=len(r), direction="slower" if moved is down else "faster",
                median=statistics.median(r), low=moved[0], high=moved[-1],
                vs_baseline=statistics.median(p["ratio"] for p in compared))


def against_shift(points, shift, limits):
    """Judge the points that moved, of those judged on GB/s alone, by their ratio to the shift's
    median: one that moved with the rest is 'shifted'; one that moved apart from it stays a
    regression or an improvement, with ratio_vs_shift saying by how much."""
    t = limits["threshold"]
    for p in points:
        if p["status"] not in ("regression", "improvement") or "paired" in p:
            continue
        rel = _level(p) / shift["median"]
        p["ratio_vs_shift"] = rel
        if abs(rel - 1) <= t:
            p["status"] = "shifted"
            p["why"] = "moved with the machine (%.3f; the machine's median %.3f)" % (
                _level(p), shift["median"])
        else:
            p["status"] = "regression" if rel < 1 else "improvement"
            p["why"] = "%.3f of the machine's median %.3f" % (rel, shift["median"])


def shift_note(shift):
    """One line for a machine-wide change: 'all 104 points 19-21 % slower'."""
    pct = sorted(abs(x - 1) * 100 for x in (shift["low"], shift["high"]))
    count = "all %d" % shift["of"] if shift["points"] == shift["of"] else "%d of %d" % (
        shift["points"], shift["of"])
    return "%s points %.0f-%.0f %% %s (median ratio %.3f): the machine changed, not one " \
        "kernel" % (count, pct[0], pct[1], shift["direction"], shift["median"])


def verdict(points, shift=None):
    """1 on a confirmed regression; INCONCLUSIVE when the machine slowed down and no point moved
    apart from it, or a kernel failed on a night too disturbed to judge one (too_disturbed);
    else 0.  A machine that sped up is reported, not warned of: nothing got slower, and the
    kernel rule and the paired ratios judge the night as on any other."""
    if any(p["status"] == "regression" for p in points):
        return 1
    slowed = shift and shift["direction"] == "slower"
    return INCONCLUSIVE if slowed or any(p.get("disturbed") for p in points) else 0


def judge_night(base_json, base_csv, new_json, new_csv, limits, noisy_max, history, work):
    """A night against its baseline as scripts/nightly judges it before it re-measures anything:
    dict(points, only_base, only_new, run_noisy=[noisy, total], machine_shift (with its note,
    when there was one), too_noisy (True when more than noisy_max percent of the points are
    noisy: nothing is judged), exit: 1 a regression, INCONCLUSIVE too noisy or a machine-wide
    change alone, 2 no point in common, else 0), kernels (kernel_moves).  history:
    good_by_point maps of the machine's recent nights, the baseline's first (None: not
    consulted, as against a pinned baseline; the kernel rule then refers to the baseline
    alone); work: a folder for compare.py's table and dump (compare.txt, compare.json)."""
    diff, b_doc, n_doc = run_compare(base_json, new_json, limits["alpha"],
                                     os.path.join(work, "compare.txt"),
                                     os.path.join(work, "compare.json"))
    quality = quality_by_point(new_csv)
    points, only_base, only_new = classify(diff, b_doc, n_doc, limits,
                                           (quality_by_point(base_csv), quality))
    noisy, total = noisy_points(load_gbench(new_json), limits, quality)
    result = dict(points=points, only_base=only_base, only_new=only_new,
                  run_noisy=[noisy, total])
    if history:
        against_reference(points, good_by_point(new_csv), history)
    shift = machine_shift(points, limits)
    judge_paired(points, pairs_by_point(base_csv), pairs_by_point(new_csv), limits, shift)
    if shift:
        against_shift(points, shift, limits)
        result["machine_shift"] = dict(shift, note=shift_note(shift))
    elif history is not None:
        against_history(points, history)
    moves = kernel_moves(good_by_point(new_csv), history or [good_by_point(base_csv)],
                         kinds_of(new_csv))
    against_kernels(points, moves, limits)
    result["kernels"] = moves
    result["kernel_scatter"] = moves_scatter(moves)
    if total and noisy * 100 > noisy_max * total:
        result["too_noisy"], result["exit"] = True, INCONCLUSIVE
    elif not points:
        result["exit"] = 2
    else:
        result["exit"] = verdict(points, shift)
    return result
