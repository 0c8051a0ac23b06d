# storebench/nightly/budget.py — shapes the nightly sweep so `scripts/nightly --budget` is kept.
# Python 3 standard library; asks storebench itself (list --tsv, info) what this machine can run.
# Why: a CI slot is fixed; a sweep that overruns is killed and gates nothing.
"""Pick the largest of a few sweep shapes whose estimated time fits the budget.

Every size sits well inside one regime, never at a capacity, where a point's number does not
swing with the exact size the cache word resolves to: a cache level's points at most half of a
thread's share of it (and at least 4x its share of the level below), DRAM points at least 4x a
thread's share of the LLC.  Cache words are a thread's share at each thread count (storebench's
size grammar), and `storebench run --dry-run` says each point's size and shares; a point outside
its regime at some thread count (an L3 share that small beside L2) is left out with
--benchmark_filter.  Shapes, largest first, all at threads 1 and all:
  wide      every kernel at L1d/8, L1d/4, L1d/2, L2/8, L2/4, L2/2, L3/8, L3/4, L3/2, DRAM
  regimes   every kernel at L1d/2, L2/2, L3/2, DRAM
  per-kind  one kernel per kind, store width and ISA (the 4x unrolled one where there is one)
            at the wide sizes
  classes   those kernels at L1d/2, L2/2, L3/2, DRAM
  minimal   those kernels at L1d/2 and DRAM, one thread
Kernels and call sizes given after -- replace the shapes (the guard still applies).  Every shape
keeps the nightly preset's repetitions, so the U-test holds.  The estimate is points x seconds
per point; seconds per point come from the machine's newest run that recorded its sweep
(gate.json or not-a-baseline.json), else from repetitions x min time with a margin.  The
baseline's shape is kept while it fits, so the same points are compared every night.
"""

import json
import math
import os
import re
import subprocess

from storebench import dryrun


def _nightly_preset(storebench):
    """(repetitions, min time s) of the nightly preset, as `storebench list --presets` gives it."""
    lines = _query(storebench, "list", "--presets", "--tsv").splitlines()
    head = lines[0].split("\t")
    for line in lines[1:]:
        row = dict(zip(head, line.split("\t")))
        if row.get("name") == "nightly":
            return int(row["repetitions"]), float(row["min-time"])
    raise BudgetError("storebench list --presets has no nightly preset")


def _guess_s_per_point(storebench):
    """A repetition costs about its min time plus GB's calibration share and the batch tail; the
    first run's guess errs long, later runs use the cost measured by the previous one."""
    reps, min_time = _nightly_preset(storebench)
    return (reps + 2) * min_time * 1.5 + 0.1


class BudgetError(Exception):
    """Nothing fits, or storebench cannot describe the machine: exit status 2."""


class Shape:
    def __init__(self, name, args, points, est_s):
        self.name, self.args, self.points, self.est_s = name, args, points, est_s
        self.note = (f"shape '{name}' ({points} points, estimated {est_s:.0f} s)" if points
                     else "sweep as given after --")


def post_reserve(budget_s):
    """Seconds kept back at the end for compare.py, the plots, the trend and the summary."""
    return min(60.0, max(10.0, 0.05 * budget_s))


def reserve(budget_s):
    """Seconds of the budget not given to the sweep: the re-measurement of points that look
    regressed (scripts/nightly's confirmation) and the post_reserve."""
    return post_reserve(budget_s) + min(120.0, max(15.0, 0.1 * budget_s))


DURATION = re.compile(r"(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?")


# The longest budget: a day, as `storebench run --budget` takes (BUDGET_MAX_S); 2^64 s once
# started a nightly run.
DURATION_MAX_S = 86400


def parse_duration(text):
    """Seconds of '5400', '5400s', '90m', '1h30m', '1h', '2m30s'; ValueError otherwise.  Every
    number but a lone one carries its unit: '1h30' is an error, not 3630 s or 5400 s."""
    t = text.strip()
    if t.isdigit():
        total = int(t)
    else:
        m = DURATION.fullmatch(t)
        if not t or not m or not any(m.groups()):
            raise ValueError(f"'{text}' is not a duration (e.g. 5400, 5400s, 90m, 1h30m; "
                             "every number after the first carries h, m or s)")
        h, mi, s = (int(g or 0) for g in m.groups())
        total = h * 3600 + mi * 60 + s
    if total <= 0:
        raise ValueError(f"'{text}' must be positive")
    if total > DURATION_MAX_S:
        raise ValueError(f"'{text}' is more than a day ({DURATION_MAX_S} s), storebench's own "
                         "--budget limit")
    return total


def _query(storebench, *args):
    r = subprocess.run([storebench, *args], capture_output=True, text=True)
    if r.returncode != 0:
        raise BudgetError(f"'storebench {' '.join(args)}' failed: {r.stderr.strip()}")
    return r.stdout


def _kernels(storebench, zero_fill):
    lines = _query(storebench, "list", "--tsv").splitlines()
    head = lines[0].split("\t")
    rows = [dict(zip(head, line.split("\t"))) for line in lines[1:] if line.strip()]
    # Zero-only kernels (clzero) run only when the fill byte is 0, as storebench decides.
    return [r for r in rows if r.get("available") == "yes" and
            (zero_fill or r.get("fill", "any") == "any")]


def _fill_is_zero(passthrough):
    """--fill 0 (or 0x00) among the storebench arguments; the last one given wins."""
    val = None
    for i, a in enumerate(passthrough):
        if a == "--fill" and i + 1 < len(passthrough):
            val = passthrough[i + 1]
        elif a.startswith("--fill="):
            val = a.split("=", 1)[1]
    try:
        return val is not None and int(val, 0) == 0
    except ValueError:
        return False


def _per_kind(kernels):
    """One kernel per (kind, width, ISA): unroll 4 where it exists, else the closest below."""
    groups = {}
    for k in kernels:  # the ISA tells clwb from clflushopt at the same kind and width
        groups.setdefault((k["kind"], k["width_bytes"], k.get("isa", "")), []).append(k)
    pick = []
    for rows in groups.values():
        rows.sort(key=lambda r: (abs(int(r["unroll"]) - 4), -int(r["unroll"])))
        pick.append(rows[0]["name"])
    return [k["name"] for k in kernels if k["name"] in pick]


# The shapes the gate chooses, largest first.  Any two share points (minimal's are in every
# other), so a night on another tier than its baseline's still compares.
TIERS = ("wide", "regimes", "per-kind", "classes", "minimal")
# Sizes of each regime, as cache words (a thread's share at each point's thread count).
WIDE = ("L1d/8", "L1d/4", "L1d/2", "L2/8", "L2/4", "L2/2", "L3/8", "L3/4", "L3/2", "DRAM")
CLASSES = ("L1d/2", "L2/2", "L3/2", "DRAM")


def _words(words, info):
    """The words this machine has: no L3 words without an L3 (its LLC is then the L2)."""
    return ",".join(w for w in words if info.get("cache_l3_bytes", "0") not in ("", "0")
                    or not w.startswith("L3"))


def plan(storebench, args):
    """`storebench run --dry-run` of args: its points (dryrun.Point)."""
    try:
        return dryrun.plan(storebench, list(args))
    except dryrun.DryRunError as e:
        raise BudgetError(str(e)) from None


def _fenced(storebench, args, passthrough):
    """args plus a --benchmark_filter keeping only the points well inside a size class (unless
    the caller filters), and the number of points that will run."""
    points = plan(storebench, args + passthrough)
    if any(a.startswith("--benchmark_filter") for a in passthrough):
        return args, len(points)
    # Whether a point is inside depends on its size and thread count, not on its kernel: the
    # filter names the sizes and counts left out, for every kernel at once.
    out = {p.name.split("/", 1)[1] for p in points if p.cls == "between"}
    kept = sum(p.name.split("/", 1)[1] not in out for p in points)
    if kept and out:
        args = args + ["--benchmark_filter=-/(%s)(/|$)"
                       % "|".join(re.escape(o) for o in sorted(out))]
    return args, kept


def _last_timing(history):
    """The newest run record that says how long its sweep took: gate.json, or the record of a
    run too noisy to gate (its timing is as real as any)."""
    for run in reversed(history):
        for name in ("gate.json", "not-a-baseline.json"):
            try:
                with open(os.path.join(run, name)) as f:
                    doc = json.load(f)
                if isinstance(doc, dict) and doc.get("points_run") and doc.get("sweep_s"):
                    return doc
            except (OSError, ValueError):
                continue
    return {}


def _without(args, passthrough):
    """Drop the shape's options that the caller also gave after --: the caller's choice wins."""
    given = {a.split("=", 1)[0] for a in passthrough if a.startswith("--")}
    out, i = [], 0
    while i < len(args):
        if args[i] not in given:
            out += args[i:i + 2]
        i += 2
    return out


def shape(storebench, budget_s, passthrough, history=(), prefer=None):
    """The Shape to run: `storebench run` arguments (options also in passthrough left out).
    history: the machine's run folders, oldest first; prefer: the baseline's shape name."""
    info = dict(ln.split("=", 1) for ln in _query(storebench, "info").splitlines() if "=" in ln)
    for key in ("cache_l1d_bytes", "cache_l2_bytes"):
        if not info.get(key, "").isdigit():
            raise BudgetError(f"storebench info gives no {key}; pass the sweep after --")
    kernels = _kernels(storebench, _fill_is_zero(passthrough))
    every, few = ",".join(k["name"] for k in kernels), ",".join(_per_kind(kernels))
    last = _last_timing(history)
    per_point = (last["sweep_s"] / last["points_run"] if last else
                 _guess_s_per_point(storebench))
    given = {a.split("=", 1)[0] for a in passthrough if a.startswith("--")}
    if {"--kernels", "--call"} <= given:
        # The caller chose the sweep; only the guard at the budget applies to it.
        return Shape("as given after --", ["--preset", "nightly"], 0, 0.0)
    cands = [("wide", every, WIDE, "1,all"), ("regimes", every, CLASSES, "1,all"),
             ("per-kind", few, WIDE, "1,all"), ("classes", few, CLASSES, "1,all"),
             ("minimal", few, ("L1d/2", "DRAM"), "1")]
    # The baseline's shape first while it still fits: the same points every night are what the
    # gate compares, and a better estimate alone should not move them.
    cands.sort(key=lambda c: c[0] != prefer)
    avail = budget_s - reserve(budget_s)
    need = None
    for name, names, words, threads in cands:
        args, points = _fenced(storebench, _without(
            ["--preset", "nightly", "--kernels", names, "--call", _words(words, info),
             "--threads", threads], passthrough), passthrough)
        est = points * per_point
        if points and est <= avail:
            return Shape(name, args, points, est)
        need = math.ceil(est + reserve(budget_s))
    raise BudgetError(f"budget {budget_s:.0f} s is too small: the smallest sweep needs about "
                      f"{need} s with the reserve")
