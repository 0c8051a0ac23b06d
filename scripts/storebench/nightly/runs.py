# storebench/nightly/runs.py — one machine's nightly run folders: names, labels, baselines.
# Python 3 standard library; reads each run's gate.json and the metadata in its nightly.json.
# Why: a gate is only as good as its yardstick; a bent, broken or foreign run must never be one.
"""Run folders, their labels, and the search for (and the check of) a baseline.

A run folder is MACHINE/<UTC date>[-N]/; its label is "<date> #N" (a date alone would read as
the day a later run happened).  A run may be a baseline when its gate finished (gate.json), its
nightly.json and gate.json are readable, and it is no diagnostic (metadata `diagnostic`, or an
injected slowdown from a storebench that predates that key).  The search walks back from the
newest run and skips every run that fails, so one corrupt file never stops the gate for good.
"""

import datetime
import json
import os
import re

from storebench import inputs

RUN_NAME = re.compile(r"(\d{4}-\d{2}-\d{2})(?:-(\d+))?")
JSON = "nightly.json"
GATE = "gate.json"
# Written before measuring: the baseline chosen and how it differs (scripts/nightly).
CHECK = "baseline-check.json"
# The measured cache levels a night's sizes rest on (a copy of its run's levels_file): the next
# night runs with `--levels` of its baseline's copy, so both measure the same sizes and their
# points share names, whatever a new scan of a guest would find tonight.
LEVELS = "levels"

# What must match between a baseline and tonight before the numbers mean anything: the machine,
# its CPU and firmware, the software under the stores, and the storebench build (its name and
# what compiled it).  The sweep's shape is compared as well, from the storebench arguments.
FACT_KEYS = ("machine_id", "cpu_vendor", "cpu_family", "cpu_model", "cpu_stepping",
             "cpu_microcode", "kernel", "glibc_version", "storebench_version", "compiler",
             "cflags", "build_type", "benchmark_version")
# storebench options that name files, mark a diagnostic or set a quality threshold: they do not
# change what a point measures, so they are no part of the shape (--levels names the file the
# sizes come from; the sizes themselves are in the points' names).
NOT_SHAPE = {"--csv", "--json", "--machine", "--inject-slowdown", "--inject-slowdown-kernels",
             "--inject-stall", "--inject-skew", "--inject-drift", "--seed", "--profile",
             "--cpu-share-min", "--cv-max", "--skew-max", "--outlier-mads", "--drift-band",
             "--levels"}


class BaselineError(Exception):
    """A baseline that cannot be used; str(e) is one line for stderr (exit status 2)."""


def run_key(name):
    """Sort key of a run folder: its date, then the same-day number (1 for the plain date)."""
    m = RUN_NAME.fullmatch(name)
    return (m.group(1), int(m.group(2) or 1)) if m else None


def run_label(name):
    """'2026-12-01-3' -> '2026-12-01 #3'; a folder that is no run keeps its name."""
    key = run_key(name)
    return "%s #%d" % key if key else name


def run_title(run_dir, meta, extra=()):
    """The label of a run with its marks, for plots: '2026-12-01 #3 [inject-slowdown]',
    '2026-12-02 #1 [other machine: kernel]'.  meta: the run's metadata; extra: more marks
    ('fill 0x00')."""
    marks = [diagnostic_of(meta)] + list(extra)
    try:
        with open(os.path.join(run_dir, CHECK)) as f:
            differ = json.load(f).get("different_machine") or []
        marks.append("other machine: " + ", ".join(d[0] for d in differ) if differ else "")
    except (OSError, ValueError, AttributeError, TypeError, IndexError):
        pass
    marks = [m for m in marks if m]
    label = run_label(os.path.basename(os.path.normpath(run_dir)))
    return label + (" [%s]" % "; ".join(marks) if marks else "")


def run_dirs(machine_dir):
    """Every run folder of a machine, oldest first."""
    if not os.path.isdir(machine_dir):
        return []
    names = sorted((d for d in os.listdir(machine_dir) if run_key(d)), key=run_key)
    return [os.path.join(machine_dir, d) for d in names]


def new_run_dir(machine_dir):
    """Create and return tonight's folder: the UTC date, then -2, -3, ... on the same day."""
    today = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d")
    os.makedirs(machine_dir, exist_ok=True)
    for n in range(1, 1000):
        path = os.path.join(machine_dir, today if n == 1 else f"{today}-{n}")
        try:
            os.mkdir(path)
            return path
        except FileExistsError:
            continue
    raise BaselineError(f"too many runs today in {machine_dir}")


def load_run_json(path):
    """A storebench Google Benchmark JSON with its metadata (context); BaselineError if not."""
    try:
        doc = json.loads(inputs.read_regular(path, inputs.JSON_LIMIT))
    except inputs.InputError as e:
        raise BaselineError(f"{path}: unreadable ({e})")
    except ValueError as e:
        raise BaselineError(f"{path}: unreadable ({e})")
    if (not isinstance(doc, dict) or not isinstance(doc.get("context"), dict)
            or not isinstance(doc.get("benchmarks"), list) or not doc["benchmarks"]
            or not all(isinstance(b, dict) and "name" in b for b in doc["benchmarks"])):
        raise BaselineError(f"{path}: not a storebench Google Benchmark JSON "
                            "(no context or no benchmarks)")
    return doc


def diagnostic_of(meta):
    """What a diagnostic run did ('inject-slowdown', ...), '' for a normal run."""
    if meta.get("diagnostic"):
        return meta["diagnostic"]
    try:
        return "inject-slowdown" if float(meta.get("inject_slowdown_pct") or 0) else ""
    except ValueError:
        return ""


def read_gate(run_dir):
    """The run's gate.json as a dict; BaselineError when absent, unreadable or not an object."""
    path = os.path.join(run_dir, GATE)
    try:
        with open(path) as f:
            doc = json.load(f)
    except FileNotFoundError:
        raise BaselineError(f"{path}: absent (the run did not finish)")
    except (OSError, ValueError) as e:
        raise BaselineError(f"{path}: unreadable ({getattr(e, 'strerror', None) or e})")
    if not isinstance(doc, dict):
        raise BaselineError(f"{path}: not a gate record")
    return doc


def why_not_baseline(run_dir):
    """'' when run_dir may be a baseline, else why not (one phrase)."""
    if os.path.isfile(os.path.join(run_dir, "not-a-baseline.json")):
        return "too noisy to gate"
    try:
        gate = read_gate(run_dir)
        meta = load_run_json(os.path.join(run_dir, JSON))["context"]
    except BaselineError as e:
        return str(e)
    what = gate.get("diagnostic") or diagnostic_of(meta)
    return f"diagnostic run ({what})" if what else ""


def find_baseline(machine_dir):
    """(newest run folder that may be a baseline or None, [(label, why) of newer runs skipped])."""
    skipped = []
    for run in reversed(run_dirs(machine_dir)):
        why = why_not_baseline(run)
        if not why:
            return run, skipped
        skipped.append((run_label(os.path.basename(run)), why))
    return None, skipped


def recent_baselines(machine_dir, nights):
    """The newest run folders, up to nights of them, that may be baselines (newest first)."""
    return [r for r in reversed(run_dirs(machine_dir)) if not why_not_baseline(r)][:nights]


# What a gate tier (scripts/storebench/nightly/budget.py) chooses itself.  Any two tiers share
# points, so two nights on different tiers still compare: the tier follows the budget and the
# machine's speed, and a change of tier must not stop the gate.
TIER_OPTIONS = {"--kernels", "--call", "--threads", "--benchmark_filter"}


def shape_of(args, tier=False):
    """The sweep a list of `storebench run` arguments measures, as 'option value' strings; with
    tier, less the options a gate tier chooses."""
    out, i = {}, 0
    while i < len(args):
        a = args[i]
        if a.startswith("--"):
            key, eq, val = a.partition("=")
            if not eq and i + 1 < len(args) and not args[i + 1].startswith("--"):
                val, i = args[i + 1], i + 1
            if key not in NOT_SHAPE and not (tier and key in TIER_OPTIONS):
                out[key] = val
        i += 1
    return " ".join(f"{k} {v}".strip() for k, v in sorted(out.items()))


def baseline_levels(json_path, passthrough):
    """['--levels', FILE] of the baseline's kept levels, so tonight measures its sizes; [] when
    it kept none or the caller chose --levels."""
    path = os.path.join(os.path.dirname(json_path), LEVELS)
    given = any(a == "--levels" or a.startswith("--levels=") for a in passthrough)
    return ["--levels", path] if os.path.isfile(path) and not given else []


def keep_levels(run_dir, meta):
    """Copy the levels file the run used (its metadata's levels_file) into run_dir."""
    src = meta.get("levels_file", "")
    if src and os.path.isfile(src):
        with open(src, "rb") as f, open(os.path.join(run_dir, LEVELS), "wb") as out:
            out.write(f.read())


def baseline_args(json_path, meta):
    """The storebench arguments of a baseline: its gate.json's when it has one, else its
    recorded command line (a pinned file from elsewhere)."""
    try:
        args = read_gate(os.path.dirname(json_path)).get("storebench_args")
        if isinstance(args, list):
            return [str(a) for a in args]
    except BaselineError:
        pass
    words = meta.get("command_line", "").split()
    return words[words.index("run") + 1:] if "run" in words else words[1:]


def differences(base_meta, base_args, now_meta, now_args, tiers=False):
    """[(key, baseline value, tonight's value)] for every fact and the shape that differ; tiers:
    both nights ran one of the gate's own tiers (not a sweep given after --)."""
    diff = [(k, base_meta.get(k, "?"), now_meta.get(k, "?")) for k in FACT_KEYS
            if base_meta.get(k, "?") != now_meta.get(k, "?")]
    base_shape, now_shape = shape_of(base_args, tiers), shape_of(now_args, tiers)
    if base_shape != now_shape:
        diff.append(("shape", base_shape, now_shape))
    return diff
