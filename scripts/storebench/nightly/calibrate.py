# storebench/nightly/calibrate.py — the gate's false alarms and power, measured on recorded
# nights instead of hoped for.
# Python 3 standard library (compare.py, which the gate runs, needs scipy).  Why: ten quiet
# nights prove little (zero alarms in ten still allows 26 % a night); a recording replayed
# through the gate's own code gives rates with bounds, and any fleet can make its own.
"""scripts/nightly --calibrate RECORDING...

A RECORDING is a folder of nights (run folders holding nightly.csv and samples.tsv.xz, as
scripts/nightly --keep-samples leaves them) or a .tar.xz of one.  Every ordered pair of two
different nights of one shape is an A/A night: the second judged against the first by
gate.judge_night, the code scripts/nightly runs before it re-measures what looks regressed.
An alarm is a point left a regression there (the re-measurement, which a replay cannot make,
could only clear some of them: the false-alarm rate is an upper one).  The same pairs then carry
an injected change, made exactly on the recorded numbers: one kernel slowed by P % (its samples,
its GB/s columns and its paired ratio to memset with that ratio's interval scaled by 1 - P/100,
which moves every log ratio, so the Hodges-Lehmann estimate and interval, by the same log), or
every point slowed (GB/s only: the ratios to memset stay).  A slowdown is caught when that
kernel's points include a regression (a false alarm of the same pair is counted as such, among
the A/A nights); a host-wide shift is one event when the gate reports a machine-wide change.
The kernel slowed is drawn at random among all but memset (memset is judged by the kernels
beside it, another rule)."""

import csv
import io
import json
import lzma
import math
import os
import random
import shutil
import tarfile
import tempfile
from collections import namedtuple

from storebench import reader
from storebench.nightly import gate, samples

SLOWDOWNS = (5, 10, 20, 30)  # percent, one kernel
SHIFTS = (20, 40)            # percent, every point
BOUND = 0.95                 # the false-alarm rate's one-sided upper bound

Night = namedtuple("Night", "label folder csv samples shape kernels")


class CalibrationError(Exception):
    """A recording that cannot be replayed: the caller prints it and exits 2."""


def upper_bound(k, n, level=BOUND):
    """The exact (Clopper-Pearson) one-sided upper bound of a rate seen k times in n."""
    if k >= n:
        return 1.0
    lo, hi = k / n, 1.0
    for _ in range(60):
        mid = (lo + hi) / 2
        cdf = sum(math.comb(n, i) * mid ** i * (1 - mid) ** (n - i) for i in range(k + 1))
        lo, hi = (mid, hi) if cdf > 1 - level else (lo, mid)
    return hi


def _nights_in(path, scratch):
    """The run folders of one recording (a folder, or a .tar.xz unpacked into scratch)."""
    if os.path.isfile(path):
        try:
            with tarfile.open(path, "r:xz") as t:
                members = t.getmembers()
                # only plain files and folders inside the scratch folder (Python 3.11.2 has
                # no extraction filter)
                bad = [m.name for m in members if not (m.isfile() or m.isdir()) or
                       os.path.isabs(m.name) or ".." in m.name.split("/")]
                if bad:
                    raise CalibrationError(f"{path}: refusing to unpack {bad[0]!r}")
                t.extractall(scratch, members)
        except (OSError, tarfile.TarError, lzma.LZMAError, EOFError) as e:
            raise CalibrationError(f"cannot unpack {path}: {e}")
        path = scratch
    if not os.path.isdir(path):
        raise CalibrationError(f"{path}: no such recording (a folder of nights or a .tar.xz)")
    found = []
    for top, dirs, files in os.walk(path):
        dirs.sort()
        if "nightly.csv" in files and samples.NAME in files:
            found.append(top)
    return found


def load(recordings, scratch):
    """Every night of the recordings as Night tuples, in the order they ran (utc_time)."""
    nights = []
    for i, path in enumerate(recordings):
        for folder in _nights_in(path, os.path.join(scratch, "rec%d" % i)):
            csv_path = os.path.join(folder, "nightly.csv")
            try:
                run = reader.load(csv_path)
                kept = samples.read(os.path.join(folder, samples.NAME))
            except (reader.CsvError, gate.SetupError) as e:
                raise CalibrationError(str(e))
            shape = tuple(sorted(r["point"] for r in run.rows))
            nights.append((run.meta.get("utc_time", ""),
                           Night(os.path.basename(folder), folder, csv_path, kept, shape,
                                 sorted({r["kernel"] for r in run.rows}))))
    if len(nights) < 2:
        raise CalibrationError("a calibration needs two recorded nights or more (found %d)"
                               % len(nights))
    return [n for _, n in sorted(nights, key=lambda t: t[0])]  # in the order they ran


def _factor(point, slow, pct):
    """The scale of point's GB/s: slow is a kernel name, "*" for every point, None for none."""
    if slow is None or pct == 0:
        return 1.0
    if slow == "*" or point.split("/", 1)[0] == slow:
        return 1 - pct / 100
    return 1.0


def write_json(night, path, slow=None, pct=0):
    """A Google Benchmark JSON of the night's samples, as the gate reads one: one iteration
    entry per round sample, in the order measured."""
    entries, seen = [], {}
    for point, gbps, share in night.samples:
        g = gbps * _factor(point, slow, pct)
        t = 1e6 / g  # ns per MB: only the ratio of times matters to compare.py
        entries.append(dict(name=point, run_name=point, run_type="iteration", repetitions=1,
                            repetition_index=seen.setdefault(point, 0), threads=1, iterations=1,
                            real_time=t, cpu_time=t * share, time_unit="ns", cpu_share=share,
                            **{"GB/s": g}))
        seen[point] += 1
    with open(path, "w") as f:
        json.dump(dict(context={}, benchmarks=entries), f)


GBPS_COLUMNS = ("gbps_median", "gbps_mean", "gbps_min", "gbps_max", "gbps_ci_low",
                "gbps_ci_high", "write_gbps", "total_gbps")
RATIO_COLUMNS = ("vs_memset_ratio", "vs_memset_ci_low", "vs_memset_ci_high")


def write_csv(night, path, slow=None, pct=0):
    """The night's CSV with the slowed points' GB/s and, for one kernel slowed, its ratios to
    memset scaled; metadata lines where they were."""
    with open(night.csv, newline="") as f:
        lines = f.read().splitlines(keepends=True)
    out, header = [], None
    for line in lines:
        if line.startswith("#") or not line.strip():
            out.append(line)
            continue
        row = next(csv.reader([line]))
        if header is None:
            header = row
            out.append(line)
            continue
        r = dict(zip(header, row))
        k = _factor(r.get("point", ""), slow, pct)
        cols = GBPS_COLUMNS + (RATIO_COLUMNS if slow != "*" else ())
        for c in cols:
            if k != 1.0 and r.get(c):
                try:
                    r[c] = "%.6g" % (float(r[c]) * k)
                except ValueError:
                    pass
        buf = io.StringIO()
        csv.writer(buf, lineterminator="\n").writerow([r.get(c, "") for c in header])
        out.append(buf.getvalue())
    with open(path, "w", newline="") as f:
        f.writelines(out)


def replay(base, new, limits, noisy_max, history, work, slow=None, pct=0):
    """The gate's result for new (optionally changed) judged against base."""
    os.makedirs(work, exist_ok=True)
    bj, bc = os.path.join(work, "base.json"), os.path.join(work, "base.csv")
    nj, nc = os.path.join(work, "new.json"), os.path.join(work, "new.csv")
    write_json(base, bj)
    shutil.copyfile(base.csv, bc)
    write_json(new, nj, slow, pct)
    write_csv(new, nc, slow, pct)
    return gate.judge_night(bj, bc, nj, nc, limits, noisy_max, history, work)


def regressed_kernels(result):
    return {p["name"].split("/", 1)[0] for p in result["points"] if p["status"] == "regression"}


def calibrate(nights, limits, noisy_max, table_path, max_pairs=0, seed=1, log=None):
    """Replay the loaded nights (load); return the one line.  table_path gets the full table
    (Markdown); max_pairs > 0 replays that many pairs drawn at random (seed) instead of all."""
    scratch = tempfile.mkdtemp(prefix="sb-calibrate-")
    try:
        return _calibrate(nights, limits, noisy_max, table_path, max_pairs, seed, scratch, log)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def _calibrate(nights, limits, noisy_max, table_path, max_pairs, seed, scratch, log):
    rng = random.Random(seed)
    pairs = [(b, n) for b in nights for n in nights if b is not n and b.shape == n.shape]
    if not pairs:
        raise CalibrationError("no two recorded nights have the same shape (the same points)")
    if 0 < max_pairs < len(pairs):
        pairs = [pairs[i] for i in sorted(rng.sample(range(len(pairs)), max_pairs))]
    goods = {n.folder: gate.good_by_point(n.csv) for n in nights}
    aa = dict(quiet=0, alarm=0, shift=0, noisy=0)
    caught = {p: [0, 0] for p in SLOWDOWNS}
    events = {p: [0, 0] for p in SHIFTS}
    alarms = []
    work = os.path.join(scratch, "work")
    for i, (base, new) in enumerate(pairs):
        # what the gate consults on a real night: the baseline and the nights just before
        before = [n for n in nights[:nights.index(new)] if n is not base]
        history = [goods[base.folder]] + [goods[n.folder] for n in before[-9:]]
        res = replay(base, new, limits, noisy_max, history, work)
        kind = ("noisy" if res.get("too_noisy") else "alarm" if res["exit"] == 1 else
                "shift" if res.get("machine_shift") else "quiet")
        aa[kind] += 1
        if kind == "alarm":
            alarms.append("%s vs %s: %s" % (new.label, base.label,
                                            ", ".join(sorted(regressed_kernels(res)))))
        others = [k for k in new.kernels if k != "memset"]
        for pct in SLOWDOWNS:
            k = rng.choice(others)
            r = replay(base, new, limits, noisy_max, history, work, k, pct)
            caught[pct][1] += 1
            caught[pct][0] += k in regressed_kernels(r)
        for pct in SHIFTS:
            r = replay(base, new, limits, noisy_max, history, work, "*", pct)
            events[pct][1] += 1
            events[pct][0] += bool(r.get("machine_shift"))
        if log:
            log("pair %d of %d: %s" % (i + 1, len(pairs), kind))
    n = len(pairs)
    judged = n - aa["noisy"]
    up = upper_bound(aa["alarm"], judged) if judged else 1.0
    line = ("false alarms %d of %d nights (upper 95 %% %.1f %%); caught %d of %d injected 20 %% "
            "single-kernel slowdowns" % (aa["alarm"], judged, 100 * up, *caught[20]))
    with open(table_path, "w") as f:
        f.write("# Gate calibration\n\n%s\n\n" % line)
        f.write("%d recorded nights, %d ordered pairs of one shape replayed (seed %d); each "
                "night is in many pairs, so the pairs are not independent; thresholds: %s\n\n"
                % (len(nights), n, seed, ", ".join("%s %s" % kv for kv in sorted(limits.items())
                                                    if kv[0] != "source")))
        f.write("| A/A pairs | quiet | false alarm | machine-wide change | too noisy |\n"
                "|---|---|---|---|---|\n| %d | %d | %d | %d | %d |\n\n" % (
                    n, aa["quiet"], aa["alarm"], aa["shift"], aa["noisy"]))
        f.write("| change injected | caught (that kernel regressed; a shift: reported as one "
                "machine-wide change) | of |\n"
                "|---|---|---|\n")
        for pct in SLOWDOWNS:
            f.write("| one kernel %d %% slower | %d | %d |\n" % (pct, *caught[pct]))
        for pct in SHIFTS:
            f.write("| every point %d %% slower: one machine-wide event | %d | %d |\n" % (
                pct, *events[pct]))
        if alarms:
            f.write("\nFalse alarms:\n\n" + "".join("- %s\n" % a for a in alarms))
    return line
