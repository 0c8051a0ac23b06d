# nightly_gate.py — the nightly regression gate over two Google Benchmark JSON files.
# Python 3 standard library; the statistics come from Google Benchmark's compare.py (which needs
# scipy), run as a program so its U-test is the one every Google Benchmark user already trusts.
"""Classify every point of a run against a baseline.

A point is a regression only when all of these hold:
  * compare.py's two-sided Mann-Whitney U-test over the repetitions gives p < alpha;
  * the median GB/s is worse than the baseline's by more than the threshold;
  * neither run's cv of the repetitions exceeds cv_max (otherwise the point is "noisy").
Improvements are the mirror image.  The ratio is simple arithmetic on compare.py's median
aggregates: both runs time the same work per batch (checked), so GB/s ratio = old time / new time.
"""

import json
import os
import subprocess
import sys

COMPARE_PY_DEFAULT = "/usr/share/benchmark/compare.py"
# compare.py's own constant (gbench/report.py UTEST_OPTIMAL_REPETITIONS): fewer is not gated.
MIN_REPETITIONS = 9
# Work per batch may differ by rounding in GB's own rate arithmetic, never by more than this.
WORK_TOLERANCE = 0.01


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
            r = subprocess.run([exe, "-c", "import scipy.stats"], capture_output=True)
        except OSError:
            continue
        if r.returncode == 0:
            return exe
    raise SetupError("no python3 with scipy found for compare.py "
                     "(Debian: apt install python3-scipy; or set STOREBENCH_PYTHON)")


def run_compare(base_json, new_json, alpha, table_out, diff_out, compare_py=None):
    """Run compare.py; keep its human table in table_out and its JSON dump in diff_out."""
    cmd = [find_scipy_python(), find_compare_py(compare_py), "-a", "--no-color",
           "--alpha", repr(alpha), "-d", diff_out, "benchmarks", base_json, new_json]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0 or not os.path.isfile(diff_out):
        err = (r.stderr.strip().splitlines() or ["no output"])[-1]
        raise SetupError(f"compare.py failed on {base_json} vs {new_json}: {err}")
    with open(table_out, "w") as f:
        f.write(r.stdout)
    with open(diff_out) as f:
        return json.load(f)


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
    """GB appends /manual_time to manual-time runs; the point is the part before it."""
    return run_name[:-len("/manual_time")] if run_name.endswith("/manual_time") else run_name


def _medians(doc):
    """run_name -> median aggregate entry (rates, real_time) of one GB JSON document."""
    return {b["run_name"]: b for b in doc["benchmarks"]
            if b.get("run_type") == "aggregate" and b.get("aggregate_name") == "median"}


def point_names(doc):
    """The points of one run (names of its repetition entries)."""
    return {point_name(n) for n in _iteration_names(doc)}


def _iteration_names(doc):
    return {b.get("run_name", b["name"]) for b in doc["benchmarks"]
            if b.get("run_type", "iteration") == "iteration"}


def _work_per_batch(median):
    """bytes per timed batch = rate x time of the same (median) repetition."""
    scale = {"s": 1.0, "ms": 1e-3, "us": 1e-6, "ns": 1e-9}[median.get("time_unit", "ns")]
    bps = median.get("bytes_per_second")
    return bps * median["real_time"] * scale if bps else None


def classify(diff, base_doc, new_doc, alpha, threshold, cv_max):
    """Return (points, only_base, only_new).  threshold and cv_max are fractions (0.05)."""
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
    points = []
    for run, agg in by_name.items():
        if "utest" not in agg:
            continue
        p = dict(name=point_name(run), p=None, ratio=None, cv_base=None, cv_new=None,
                 gbps_base=None, gbps_new=None, reps=None, status="unchanged", why="")
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
            p["gbps_base"] = (bm.get("bytes_per_second") or 0) / 1e9 or None
            p["gbps_new"] = (nm.get("bytes_per_second") or 0) / 1e9 or None
            wb, wn = _work_per_batch(bm), _work_per_batch(nm)
            if wb and wn and abs(wb / wn - 1) > WORK_TOLERANCE:
                p["status"], p["why"] = "incomparable", \
                    f"work per batch differs ({wb:.0f} vs {wn:.0f} bytes)"
        if p["status"] == "unchanged":
            _decide(p, alpha, threshold, cv_max)
        points.append(p)
    names_b, names_n = _iteration_names(base_doc), _iteration_names(new_doc)
    only_base = sorted(point_name(n) for n in names_b - names_n)
    only_new = sorted(point_name(n) for n in names_n - names_b)
    return points, only_base, only_new


def _decide(p, alpha, threshold, cv_max):
    if p["ratio"] is None or p["p"] is None or (p["reps"] or 0) < MIN_REPETITIONS:
        p["status"] = "untested"
        p["why"] = f"fewer than {MIN_REPETITIONS} repetitions in one of the runs"
        return
    cv = max(p["cv_base"] or 0.0, p["cv_new"] or 0.0)
    moved = p["p"] < alpha and abs(p["ratio"] - 1) > threshold
    if cv > cv_max:
        p["status"] = "noisy"
        p["why"] = "moved, but " if moved else ""
        p["why"] += f"cv {cv:.1%} > {cv_max:.1%}"
    elif moved:
        p["status"] = "regression" if p["ratio"] < 1 else "improvement"


def verdict(points):
    return 1 if any(p["status"] == "regression" for p in points) else 0
