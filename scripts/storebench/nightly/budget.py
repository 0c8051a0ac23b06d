# storebench/nightly/budget.py — shapes the nightly sweep so `scripts/nightly --budget` is kept.
# Python 3 standard library; asks storebench itself (list --tsv, info) what this machine can run.
# Why: a CI slot is fixed; a sweep that overruns is killed and gates nothing.
"""Pick the largest of a few sweep shapes whose estimated time fits the budget.

Shapes, largest first (every one keeps the nightly preset's repetitions, so the U-test holds):
  preset    the nightly preset unchanged: every kernel, call = ws from L1d/4 to 4 x LLC in x2 steps,
            threads 1 and all
  x4        every kernel, the same range in x4 steps
  per-kind  one kernel per kind, store width and ISA (the 4x unrolled one where there is one),
            x4 steps
  classes   those kernels at one working set per level: L1d/2, L2/2, LLC/2, 4 x LLC
  minimal   those kernels at L1d/2 and 4 x LLC, one thread
Kernels and call sizes given after -- replace the shapes (the guard still applies).
The estimate is points x seconds per point; seconds per point come from the machine's previous
nightly run (gate.json) when there is one, else from repetitions x min time with a margin.
With the same budget as last time, the previous run's shape is kept while it fits, so the same
points are compared every night.
"""

import json
import math
import os
import subprocess

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


def reserve(budget_s):
    """Seconds kept back for compare.py, the plots and the trend."""
    return min(120.0, max(20.0, 0.1 * budget_s))


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


def _sizes(info, step):
    l1 = int(info["cache_l1d_bytes"])
    llc = int(info.get("cache_l3_bytes") or info["cache_l2_bytes"])
    out, s = [], l1 // 4
    while s <= 4 * llc:
        out.append(s)
        s *= step
    return out + [4 * llc] if out[-1] != 4 * llc else out  # storebench ranges include the end


def _last_gate(history):
    for run in reversed(history):
        try:
            with open(os.path.join(run, "gate.json")) as f:
                return json.load(f)
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


def shape(storebench, budget_s, passthrough, history=()):
    """The Shape to run: `storebench run` arguments (options also in passthrough left out)."""
    info = dict(ln.split("=", 1) for ln in _query(storebench, "info").splitlines() if "=" in ln)
    for key in ("cache_l1d_bytes", "cache_l2_bytes"):
        if not info.get(key, "").isdigit():
            raise BudgetError(f"storebench info gives no {key}; pass the sweep after --")
    kernels = _kernels(storebench, _fill_is_zero(passthrough))
    all_names = [k["name"] for k in kernels]
    few = _per_kind(kernels)
    nthreads = 1 if int(info.get("online_cpus", "1")) == 1 else 2
    last = _last_gate(history)
    per_point = (last["sweep_s"] / last["points_run"] if last.get("points_run") and
                 last.get("sweep_s") else _guess_s_per_point(storebench))
    cands = [
        ("preset", [], len(all_names), len(_sizes(info, 2)), nthreads),
        ("x4", ["--call", "L1d/4..4LLC:x4"], len(all_names), len(_sizes(info, 4)), nthreads),
        ("per-kind", ["--kernels", ",".join(few), "--call", "L1d/4..4LLC:x4"],
         len(few), len(_sizes(info, 4)), nthreads),
        ("classes", ["--kernels", ",".join(few), "--call", "L1d/2,L2/2,LLC/2,4LLC"],
         len(few), 4, nthreads),
        ("minimal", ["--kernels", ",".join(few), "--call", "L1d/2,4LLC", "--threads", "1"],
         len(few), 2, 1),
    ]
    given = {a.split("=", 1)[0] for a in passthrough if a.startswith("--")}
    if {"--kernels", "--call"} <= given:
        # The caller chose the sweep; only the guard at the budget applies to it.
        return Shape("as given after --", ["--preset", "nightly"], 0, 0.0)
    avail = budget_s - reserve(budget_s)
    # With an unchanged budget, last night's shape first while it still fits: the same points
    # every night are what the gate compares, and a better estimate alone should not move them.
    if last.get("budget_s") == budget_s:
        cands.sort(key=lambda c: c[0] != last.get("shape_name"))
    for name, args, nk, ns, nt in cands:
        points = nk * ns * nt
        est = points * per_point
        if est <= avail:
            return Shape(name, _without(["--preset", "nightly", *args], passthrough), points, est)
    name, args, nk, ns, nt = cands[-1]
    need = math.ceil(nk * ns * nt * per_point + reserve(budget_s))
    raise BudgetError(f"budget {budget_s:.0f} s is too small: the smallest sweep "
                      f"({nk * ns * nt} points) needs about {need} s with the reserve")
