# storebench/nightly/calibrate.py — the gate's false alarms and power, measured on recorded
# nights instead of hoped for.
# Python 3 standard library (compare.py, which the gate runs, needs scipy).  Why: ten quiet
# nights prove little (zero alarms in ten still allows 26 % a night); a recording replayed
# through the gate's own code gives rates with bounds, and any fleet can make its own.
"""scripts/nightly --calibrate RECORDING...

A RECORDING is a folder of nights (run folders holding nightly.csv and samples.tsv.xz, as
scripts/nightly --keep-samples leaves them) or a .tar.xz of one.  Two parts:

The kernel rule over synthetic nights (kernel_figures).  A night fails only where a whole
kernel moved apart from the kernels beside it by more than the kernel threshold
(gate.kernel_moves), so how often that rule fires on A/A nights bounds the gate's false alarms.
A synthetic night is a recorded one with its rounds resampled in blocks (synthetic); it is
judged against a history drawn the same way from other recorded nights (its references, and
the nights on which a state is seen), as is, with one
kernel slowed by P % (all its points), and with every point slowed (a host-wide shift: one
event when the gate's machine_shift reports it and no kernel moved apart from it).  A thousand
such nights take seconds; the table compares kernel thresholds (THRESHOLDS) on them.

The whole gate over recorded pairs (_replay_pairs).  Each recorded night judged against the
night recorded before it (of the same shape), with the nights before that as its history, as a
real night is, by gate.judge_night (compare.py included), the code scripts/nightly runs before
it re-measures what looks regressed; an alarm
is a point left a regression there (the re-measurement, which a replay cannot make, could only
clear some of them).  The same pairs then carry an injected change, made exactly on the
recorded numbers: one kernel slowed by P % (its samples, its GB/s columns and its paired ratio
to memset with that ratio's interval scaled by 1 / (1 + P/100), which moves every log ratio,
so the Hodges-Lehmann estimate and interval, by the same log), or every point slowed (GB/s only: the
ratios to memset stay).  The kernel slowed there is drawn among all but memset, which the
point rule judges by the kernels beside it: their recorded ratios to memset do not move with an
injection into memset's own samples."""

import json
import lzma
import math
import os
import random
import shutil
import statistics
import tarfile
import tempfile
import time
from collections import defaultdict, namedtuple

from storebench import reader
from storebench.nightly import gate, runs, samples

SLOWDOWNS = (5, 10, 20, 30)  # percent, one kernel
SHIFTS = (20, 40)            # percent, every point
BOUND = 0.95                 # the false-alarm rate's one-sided upper bound
NIGHTS = 1000                # synthetic A/A nights the kernel rule judges
PAIRS = 10                   # pairs of recorded nights replayed with the injected changes
BLOCK = 3                    # consecutive rounds a synthetic night draws together
THRESHOLDS = (0.10, 0.12, 0.13, 0.15, 0.17, 0.20)  # kernel thresholds the table compares
OUTLIER_ZS = (None, 2.5, 3.0, 3.5, 4.0, 5.0)      # kernel outlier cuts it compares (None: off)
SCATTERS = (None, 0.015, 0.02, 0.025, 0.03, 0.04, 0.05)  # scatter limits it compares (None: off)
MARGINS = (None, 0.03, 0.05, 0.07, 0.10)  # state margins it compares (None: no state seen)
# P % slower is P % more time, GB/s / (1 + P/100), as storebench's --inject-slowdown makes it
# (a 20 % slowdown reads 0.833 of the GB/s).

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


def load(recordings, scratch, skipped=None):
    """Every A/A night of the recordings as Night tuples, in the order they ran (utc_time).  A
    diagnostic night (--inject-slowdown: a history branch keeps them beside the rest) is no
    A/A night: it is left out, its folder's name appended to skipped when given."""
    nights = []
    for i, path in enumerate(recordings):
        for folder in _nights_in(path, os.path.join(scratch, "rec%d" % i)):
            csv_path = os.path.join(folder, "nightly.csv")
            try:
                run = reader.load(csv_path)
                if runs.diagnostic_of(run.meta):
                    if skipped is not None:
                        skipped.append(os.path.basename(folder))
                    continue
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
    """The scale of point's GB/s: slow is a kernel name, a point's name, "*" for every point,
    None for none."""
    if slow is None or pct == 0:
        return 1.0
    if slow in ("*", point) or point.split("/", 1)[0] == slow:
        return 1 / (1 + pct / 100)
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
    cols = GBPS_COLUMNS + (RATIO_COLUMNS if slow != "*" else ())

    def scale(r):
        k = _factor(r.get("point", ""), slow, pct)
        for c in cols:
            if k != 1.0 and r.get(c):
                try:
                    r[c] = "%.6g" % (float(r[c]) * k)
                except ValueError:
                    pass
    reader.rewrite(night.csv, path, scale)


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


def _rounds(night):
    """point -> the night's samples of it, round by round in the order measured."""
    out = {}
    for point, gbps, _ in night.samples:
        out.setdefault(point, []).append(gbps)
    return out


def synthetic(rounds, good, rng):
    """A night drawn from a recorded one (its _rounds and its good points, gate.good_by_point):
    each good point's median over rounds drawn in circular blocks of BLOCK consecutive ones, the
    same rounds for every point: a round's points ran within seconds of each other, so a state
    of the host that they shared stays shared."""
    n = min(len(v) for v in rounds.values())
    picks = []
    while len(picks) < n:
        start = rng.randrange(n)
        picks += [(start + i) % n for i in range(BLOCK)]
    picks = picks[:n]
    return {p: (statistics.median(rounds[p][i] for i in picks), None)
            for p in good if p in rounds}


def _scaled(night, slow, pct):
    return {p: (g * _factor(p, slow, pct), None) for p, (g, _) in night.items()}


def _shift_of(night, history, limits):
    """gate.machine_shift over a synthetic night against its references' medians."""
    pts = [dict(ratio=g / ref, status="unchanged") for p, (g, _) in night.items()
           for ref in [gate.reference_gbps(p, history)] if ref]
    return gate.machine_shift(pts, limits)


def kernel_figures(nights, limits, count, seed):
    """Draw count synthetic A/A nights (each from a recorded night, with a history drawn from
    gate.HISTORY_NIGHTS other recorded nights, all resampled; its first
    gate.KERNEL_REFERENCE_NIGHTS are the references) and judge each with the gate's kernel rule
    (gate.kernel_moves), as is and changed.  Returns dict(aa: [(each night's kernel moves,
    their scatter)], slow: {pct: [(the slowed kernel's move, the night's scatter)]}, shift:
    {pct: [(machine-wide change reported, the night's kernel moves, their scatter)]}); a move
    is (ratio, z, nearest, kernel) as gate.kernel_moves gives them (_move_tuples), a scatter as
    gate.moves_scatter."""
    rng = random.Random(seed)
    rounds = [_rounds(n) for n in nights]
    good = [gate.good_by_point(n.csv) for n in nights]
    kinds = gate.kinds_of(nights[0].csv)
    history_n = min(gate.HISTORY_NIGHTS, len(nights) - 1)
    out = dict(aa=[], slow={p: [] for p in SLOWDOWNS}, shift={p: [] for p in SHIFTS})
    for _ in range(count):
        i = rng.randrange(len(nights))
        others = rng.sample([j for j in range(len(nights)) if j != i], history_n)
        tonight = synthetic(rounds[i], good[i], rng)
        history = [synthetic(rounds[j], good[j], rng) for j in others]
        moves = gate.kernel_moves(tonight, history, kinds)
        out["aa"].append((_move_tuples(moves), gate.moves_scatter(moves)))
        for pct in SLOWDOWNS:
            k = rng.choice(sorted(moves))
            slowed = gate.kernel_moves(_scaled(tonight, k, pct), history, kinds)
            m = slowed[k]
            out["slow"][pct].append(((m["ratio"], m["z"], m["nearest"], k),
                                     gate.moves_scatter(slowed)))
        for pct in SHIFTS:
            changed = _scaled(tonight, "*", pct)
            moved = gate.kernel_moves(changed, history, kinds)
            shift = _shift_of(changed, history, limits) or {}
            out["shift"][pct].append((shift.get("direction") == "slower", _move_tuples(moved),
                                      gate.moves_scatter(moved)))
    return out


def _move_tuples(moves):
    """A night's kernel_moves as (ratio, z, nearest, kernel) tuples."""
    return [(m["ratio"], m["z"], m["nearest"], k) for k, m in moves.items()]


Rates = namedtuple("Rates", "fa caught events unsure judged")


def _rates(fig, t, z, scatter_max=None, margin=None):
    """Rates at kernel threshold t, outlier cut z (None: the threshold alone), scatter limit
    scatter_max (None: every night judged) and state margin (None: no state is seen), as
    gate.kernel_apart and gate.too_disturbed judge: fa, the A/A nights a kernel fails on;
    unsure, the A/A nights one would fail on but that are too disturbed (inconclusive, no
    alarm); caught {pct: slowed kernels failing on nights judged}, judged {pct: those nights};
    events {pct: shifts reported as one machine-wide change with no kernel failing}."""
    lim, apart = _rule(t, z, scatter_max, margin)

    def fails(moves, scatter):
        return any(apart(*m) for m in moves) and not gate.too_disturbed(scatter, lim)
    fa = sum(fails(ms, sc) for ms, sc in fig["aa"])
    unsure = sum(any(apart(*m) for m in ms) and gate.too_disturbed(sc, lim)
                 for ms, sc in fig["aa"])
    judged = {p: [m for m, sc in v if not gate.too_disturbed(sc, lim)]
              for p, v in fig["slow"].items()}
    caught = {p: sum(apart(*m) for m in v) for p, v in judged.items()}
    events = {p: sum(ev and not fails(ms, sc) for ev, ms, sc in v)
              for p, v in fig["shift"].items()}
    return Rates(fa, caught, events, unsure, {p: len(v) for p, v in judged.items()})


def _rule(t, z, scatter_max, margin):
    """(limits, apart(ratio, z, nearest, kernel)): the kernel rule at these limits, as
    gate.kernel_apart judges a move kernel_figures kept."""
    lim = dict(kernel_threshold=t, kernel_outlier_z=z, kernel_scatter_max=scatter_max,
               kernel_state_margin=margin)

    def apart(r, zz, near, _kernel=None):
        return gate.kernel_apart(dict(ratio=r, z=None if z is None else zz, nearest=near), lim)
    return lim, apart


def by_kernel(fig, t, z, scatter_max=None, margin=None):
    """kernel -> (the A/A nights judged on which it failed, {pct: (its slowdowns caught, those
    judged)}) at these limits: where the false alarms and the misses of the kernel rule lie."""
    lim, apart = _rule(t, z, scatter_max, margin)
    out = defaultdict(lambda: [0, {p: [0, 0] for p in SLOWDOWNS}])
    for moves, sc in fig["aa"]:
        for m in moves:
            out[m[3]][0] += apart(*m) and not gate.too_disturbed(sc, lim)
    for pct, v in fig["slow"].items():
        for m, sc in v:
            if not gate.too_disturbed(sc, lim):
                out[m[3]][1][pct][0] += apart(*m)
                out[m[3]][1][pct][1] += 1
    return {k: (fa, {p: tuple(c) for p, c in slow.items()}) for k, (fa, slow) in out.items()}


def calibrate(nights, limits, noisy_max, table_path, max_pairs=PAIRS, synthetic_nights=NIGHTS,
              seed=1, log=None, command=""):
    """The gate's figures from the loaded nights (load); return the one line.  table_path gets
    the full table (Markdown), headed by when and by what command (command) it was made: the
    kernel rule over synthetic_nights drawn nights at limits' kernel_threshold and
    kernel_outlier_z and at the others of THRESHOLDS and OUTLIER_ZS, then each recorded night
    replayed through the whole gate (gate.judge_night) against the one recorded before it,
    max_pairs of those pairs (0: all) also with the injected changes."""
    if synthetic_nights < 1:
        raise CalibrationError("a calibration needs one synthetic night or more "
                               "(--calibration-nights)")
    fig = kernel_figures(nights, limits, synthetic_nights, seed)
    if log:
        log("%d synthetic nights judged by the kernel rule" % synthetic_nights)
    scratch = tempfile.mkdtemp(prefix="sb-calibrate-")
    try:
        replayed = _replay_move_tuples(nights, limits, noisy_max, max_pairs, seed, scratch, log)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    n = synthetic_nights
    t, z = limits["kernel_threshold"], limits["kernel_outlier_z"]
    sm, sg = limits.get("kernel_scatter_max"), limits.get("kernel_state_margin")
    now = _rates(fig, t, z, sm, sg)
    line = ("false alarms %d of %d nights (upper 95 %% %.1f %%); caught %d of %d injected 20 %% "
            "single-kernel slowdowns" % (now.fa, n, 100 * upper_bound(now.fa, n),
                                         now.caught[20], now.judged[20]))
    if now.judged[20] < n:
        line += ("; %d of %d slowed nights and %d of %d A/A nights too disturbed to judge a "
                 "kernel (inconclusive)" % (n - now.judged[20], n, now.unsure, n))
    head = (" | false alarms | upper 95 % | A/A inconclusive | " +
            " | ".join("caught %d %%" % p for p in SLOWDOWNS) + " | " +
            " | ".join("shift %d %%: one event" % p for p in SHIFTS) + " |\n" +
            "|---" * (4 + len(SLOWDOWNS) + len(SHIFTS)) + "|\n")

    def row(label, bold, r):
        mark = "**" if bold else ""
        return "| %s%s%s | %d of %d | %.1f %% | %d | %s | %s |\n" % (
            mark, label, mark, r.fa, n, 100 * upper_bound(r.fa, n), r.unsure,
            " | ".join("%d of %d" % (r.caught[p], r.judged[p]) for p in SLOWDOWNS),
            " | ".join("%d" % r.events[p] for p in SHIFTS))
    with open(table_path, "w") as f:
        f.write("# Gate calibration\n\n%s\n\nMade %s by `%s`.\n\n" % (
            line, time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), command))
        f.write("%d recorded nights (%s to %s).  A night can fail only where the kernel rule "
                "(gate.kernel_moves, gate.kernel_apart) puts a whole kernel %.0f %% or more "
                "apart from the kernels beside it and %.1f robust deviations below the "
                "night's kernels, on a night whose kernel moves scatter %s, where it stood "
                "on none of the nights behind it (within %s of it), so its false "
                "alarms bound the gate's.  %d synthetic A/A "
                "nights (seed %d): a recorded night's rounds resampled in blocks of %d, "
                "with a history of %d other recorded nights, resampled too, the first %d its "
                "references.  The "
                "nights are drawn from %d recorded ones: they carry those nights' states, no "
                "others, and the bound is for nights like them.  A night scattered wider "
                "fails nothing: what would fail there is inconclusive (exit 3), neither an "
                "alarm nor a catch, and a slowdown is caught of the nights judged.\n\n" % (
                    len(nights), nights[0].label, nights[-1].label, 100 * t, z,
                    "at most %.1f %%" % (100 * sm) if sm is not None else "any amount",
                    _pct(sg), n, seed, BLOCK, min(gate.HISTORY_NIGHTS, len(nights) - 1),
                    min(gate.KERNEL_REFERENCE_NIGHTS, len(nights) - 1), len(nights)))
        f.write("At the outlier cut, scatter limit and state margin in force (%.1f, %s, %s):"
                "\n\n| kernel threshold%s" % (z, _pct(sm), _pct(sg), head))
        for th in sorted(set(THRESHOLDS) | {t}):
            f.write(row("%.0f %%" % (100 * th), th == t, _rates(fig, th, z, sm, sg)))
        f.write("\nAt the kernel threshold, scatter limit and state margin in force (%.0f %%, "
                "%s, %s):\n\n| outlier cut%s" % (100 * t, _pct(sm), _pct(sg), head))
        for cut in sorted(set(OUTLIER_ZS) | {z}, key=lambda c: -1 if c is None else c):
            f.write(row("off" if cut is None else "%.1f" % cut, cut == z,
                        _rates(fig, t, cut, sm, sg)))
        f.write("\nAt the kernel threshold, outlier cut and state margin in force (%.0f %%, "
                "%.1f, %s):\n\n| scatter limit%s" % (100 * t, z, _pct(sg), head))
        for top in sorted(set(SCATTERS) | {sm}, key=lambda c: 1e9 if c is None else c):
            f.write(row(_pct(top), top == sm, _rates(fig, t, z, top, sg)))
        f.write("\nAt the kernel threshold, outlier cut and scatter limit in force (%.0f %%, "
                "%.1f, %s):\n\n| state margin%s" % (100 * t, z, _pct(sm), head))
        for near in sorted(set(MARGINS) | {sg}, key=lambda c: -1 if c is None else c):
            f.write(row(_pct(near), near == sg, _rates(fig, t, z, sm, near)))
        f.write("\nBy kernel, at the limits in force: the A/A nights judged on which the kernel "
                "failed, and of the nights it was the one slowed and that were judged, how many "
                "caught it (a kernel whose states this host visits is where the false alarms "
                "and the misses lie):\n\n| kernel | A/A nights it failed | " +
                " | ".join("%d %% slower caught" % p for p in SLOWDOWNS) + " |\n" +
                "|---" * (2 + len(SLOWDOWNS)) + "|\n")
        for k, (fa, slow) in sorted(by_kernel(fig, t, z, sm, sg).items()):
            f.write("| %s | %d | %s |\n" % (k, fa, " | ".join("%d of %d" % slow[p]
                                                               for p in SLOWDOWNS)))
        f.write("\nThe bold rows are the limits in force (--kernel-threshold, "
                "--kernel-outlier-z, --kernel-scatter-max and --kernel-state-margin, else the "
                "profile's).  A slowdown "
                "is caught when the slowed kernel fails by the rule, of the nights judged; a "
                "shift (every point slower) is one event when the gate reports a machine-wide "
                "change and no kernel fails by the rule.\n\n")
        f.write(replayed)
    return line


def _pct(fraction):
    """A scatter limit or state margin as the table shows it: '2.0 %', or 'off' for None."""
    return "off" if fraction is None else "%.1f %%" % (100 * fraction)


def _replay_move_tuples(nights, limits, noisy_max, max_pairs, seed, scratch, log):
    """Each recorded night through the whole gate against the night recorded before it (one
    of the same shape), every pair as is and max_pairs of them (0: all) with the injected
    changes; the table's second part.  A real night is judged against the night before it
    with the nights before that as its history: a pair in the other order, or nights far
    apart, would judge a night by nights it never had behind it."""
    rng = random.Random(seed)
    pairs = [(b, n) for b, n in zip(nights, nights[1:]) if b.shape == n.shape]
    if not pairs:
        raise CalibrationError("no two recorded nights have the same shape (the same points)")
    changed = set(range(len(pairs)))
    if 0 < max_pairs < len(pairs):
        changed = set(rng.sample(range(len(pairs)), max_pairs))
    # each night as a reference of later ones, as the replayed gate left it (gate.json's points)
    goods = {n.folder: gate.reference_points(n.csv) for n in nights}
    aa = dict(quiet=0, alarm=0, shift=0, faster=0, noisy=0, disturbed=0)
    caught = {p: [0, 0] for p in SLOWDOWNS}
    events = {p: [0, 0] for p in SHIFTS}
    alarms = []
    work = os.path.join(scratch, "work")
    for i, (base, new) in enumerate(pairs):
        # what the gate consults on a real night: the baseline, then the nights just before
        # tonight, newest first
        before = [n for n in nights[:nights.index(new)] if n is not base]
        history = [goods[base.folder]] + [goods[n.folder]
                                          for n in reversed(before[1 - gate.HISTORY_NIGHTS:])]
        res = replay(base, new, limits, noisy_max, history, work)
        goods[new.folder] = gate.reference_points(new.csv, res)
        shift = res.get("machine_shift") or {}
        kind = ("noisy" if res.get("too_noisy") else "alarm" if res["exit"] == 1 else
                "shift" if shift.get("direction") == "slower" else
                "disturbed" if res["exit"] == gate.INCONCLUSIVE else
                "faster" if shift else "quiet")
        aa[kind] += 1
        if kind == "alarm":
            alarms.append("%s vs %s: %s" % (new.label, base.label,
                                            ", ".join(sorted(regressed_kernels(res)))))
        if log:
            log("pair %d of %d: %s" % (i + 1, len(pairs), kind))
        if i not in changed:
            continue
        for pct in SLOWDOWNS:
            k = rng.choice([k for k in new.kernels if k != "memset"])
            r = replay(base, new, limits, noisy_max, history, work, k, pct)
            caught[pct][1] += 1
            caught[pct][0] += k in regressed_kernels(r)
        for pct in SHIFTS:
            r = replay(base, new, limits, noisy_max, history, work, "*", pct)
            events[pct][1] += 1
            events[pct][0] += (r.get("machine_shift") or {}).get("direction") == "slower" \
                and not regressed_kernels(r)
    n = len(pairs)
    out = ["## The whole gate over recorded pairs\n\nEach recorded night against the one "
           "recorded before it (%d pairs of one shape), with the nights before that as its "
           "history, judged by gate.judge_night, compare.py included, as scripts/nightly does "
           "before it re-measures: an alarm is a point left a regression there (the "
           "re-measurement, which a replay cannot make, could only clear some).  The pairs "
           "share nights, so they are not independent, and the bound below is as if they "
           "were.  %d of them (seed %d) then carry the injected changes.\n\n" % (
               n, len(changed), seed),
           "| A/A pairs | quiet | false alarm | upper 95 %% | machine-wide change, slower "
           "(exit 3) | machine faster (reported, exit 0) | too noisy "
           "| too disturbed to judge a kernel |\n|---|---|---|---|---|---|---|---|\n"
           "| %d | %d | %d | %.1f %% | %d | %d | %d | %d |\n\n" % (
               n, aa["quiet"], aa["alarm"], 100 * upper_bound(aa["alarm"], n), aa["shift"],
               aa["faster"], aa["noisy"], aa["disturbed"]),
           "| change injected | caught (that kernel regressed; a shift: one machine-wide change "
           "and no regression) | of |\n|---|---|---|\n"]
    out += ["| one kernel %d %% slower | %d | %d |\n" % (p, *caught[p]) for p in SLOWDOWNS]
    out += ["| every point %d %% slower: one machine-wide event | %d | %d |\n" % (p, *events[p])
            for p in SHIFTS]
    if alarms:
        out.append("\nFalse alarms:\n\n" + "".join("- %s\n" % a for a in alarms))
    return "".join(out)
