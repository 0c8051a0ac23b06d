# advise_verify.py — proof for `advise`: libc memset re-measured in child processes under the default
# and the advised GLIBC_TUNABLES, interleaved in rounds, and the gain per size class with its spread.
# Python 3 standard library only.  Rounds alternate the order (default first, then advised first) so drift cancels.
"""Verification of advised tunables.

Each round runs two `storebench run --kernels memset` children over the same sizes, one per
setting, the order alternating from round to round.  Per size and round the gain is the paired
ratio advised/default; a size class's gain per round is the geometric mean of its sizes' ratios.
The class's gain is the median over rounds and its spread the range of the rounds, without the
best and the worst round once there are five or more (one stalled round must not decide).
A class is `gain` when even the low end of that range is a gain, `loss` when even the high end
is a loss, and `noise` otherwise.

A tunable is confirmed (confirm()) when a class it changes is a gain, none is a loss, and each
gain's low end clears the drift: the largest movement any control class showed (the farther end
of its range from 0), since the controls ran in the same children where no tunable changes
anything.  A control that moved 2 % cannot explain a gain whose every kept round is above 21 %;
it does explain one of 2.5 %.
"""

import math
import statistics

from storebench import advise_measure as am
from storebench.rows import ival, num
from storebench.units import fmt_bytes, geomean


def sizes_between(lo, hi, count):
    """count sizes spread geometrically strictly inside (lo, hi), rounded to 64 bytes when above
    4 KiB (the kernels' line granule; below it exact bytes keep small classes apart)."""
    out = []
    for k in range(1, count + 1):
        s = lo * (hi / lo) ** (k / (count + 1))
        s = int(round(s / 64) * 64) if s > 4096 else int(round(s))
        if lo < s < hi and s not in out:
            out.append(s)
    return out


def plan(changes, smallest, largest, levels=(), per_class=2, controls=2):
    """Size classes to verify: [(name, kind, [sizes], tag)].  Each region a tunable moves
    ((tag, lo, hi) in changes) is cut at the cache levels inside it ((name, bytes) in levels,
    per-thread shares, as the binary plans them) into 'changed' classes, each named by the first
    level whose share holds it ('beyond L3' past the last); 'control' classes lie below and
    above all of them, where no tunable changes anything."""
    classes = []
    for tag, lo, hi in changes:
        hi = min(hi, largest)
        cuts = [lo] + [b for _, b in levels if lo < b < hi] + [hi]
        for a, b in zip(cuts, cuts[1:]):
            level = next((n for n, size in levels if b <= size),
                         "beyond " + levels[-1][0] if levels else "sizes unknown")
            classes.append(("%s %s..%s (%s)" % (tag, fmt_bytes(a), fmt_bytes(b), level),
                            "changed", sizes_between(a, b, per_class), tag))
    lows = [lo for _, lo, _ in changes]
    highs = [min(hi, largest) for _, _, hi in changes]
    if lows and min(lows) / 4 >= smallest:
        lo = min(lows)
        classes.append(("control below %s" % fmt_bytes(lo), "control",
                        sizes_between(lo / 2 ** (controls + 1), lo, controls), None))
    if highs and max(highs) * 4 <= largest:
        hi = max(highs)
        classes.append(("control above %s" % fmt_bytes(hi), "control",
                        sizes_between(hi, hi * 2 ** (controls + 1), controls), None))
    return [c for c in classes if c[2]]


def _span(values):
    vals = sorted(values)
    if len(vals) >= 5:
        vals = vals[1:-1]
    return vals[0], vals[-1]


def run_rounds(exe, folder, classes, threads, advised, rounds, min_time, default=None,
               progress=None):
    """Measure; returns {"rounds": [{"default": {size: gbps}, "advised": {...}, "paths": [..]}]}.
    default: the GLIBC_TUNABLES string of the baseline (None: the environment's, unchanged)."""
    sizes = sorted({s for c in classes for s in c[2]})
    calls = ",".join(str(s) for s in sizes)
    out = []
    for k in range(rounds):
        order = ("default", "advised") if k % 2 == 0 else ("advised", "default")
        got, paths = {}, []
        for which in order:
            path = "%s/verify-r%d-%s.csv" % (folder, k + 1, which)
            run = am.run(exe, path, "memset", calls, str(threads), 1, min_time,
                         tunables=advised if which == "advised" else default, progress=progress)
            paths.append(path)
            got[which] = {ival(r, "call_bytes"): num(r["gbps_median"])
                          for r in run.rows if r["kernel"] == "memset"}
        got["paths"] = paths
        out.append(got)
    return out


RULE = ("confirmed when a class the tunable changes gains in every kept round, none loses, and "
        "each gain's low end exceeds the largest movement of a control (%s; the controls ran in "
        "the same children, where no tunable changes anything)")


def drift(table):
    """The largest movement of any control class: the farther end of its round range from 0
    (0.0 when there is no control, or none was measured)."""
    return max((max(abs(r["low"]), abs(r["high"])) for r in table
                if r["kind"] == "control" and r["low"] is not None), default=0.0)


def confirm(mine, table):
    """(confirmed, why) for the classes `mine` of one tunable, by the rule above."""
    d = drift(table)
    gains = [r for r in mine if r["verdict"] == "gain"]
    if any(r["verdict"] == "loss" for r in mine):
        return False, "a class it changes lost"
    if not gains:
        return False, "no class it changes gained in every kept round"
    short = [r for r in gains if r["low"] <= d]
    if short:
        return False, "%s's low end %+.1f%% does not clear the controls' drift %.1f%%" % (
            short[0]["name"], 100 * short[0]["low"], 100 * d)
    return True, "every gain's low end clears the controls' drift %.1f%%" % (100 * d)


def summarize(classes, measured):
    """Per class: {"name", "kind", "sizes", "default", "advised" (GB/s over rounds and sizes,
    geometric), "change" (advised / default - 1 of those), "gain" (median of the rounds' paired
    ratios - 1), "low", "high" (spread of the round gains), "verdict": gain | loss | noise}.
    The paired gain and the change of the means can disagree in sign (a round far off the rest
    moves the means, not the median): then the verdict is noise, never a gain the GB/s deny."""
    table = []
    for name, kind, sizes, tag in classes:
        per_round, d_all, a_all = [], [], []
        for rnd in measured:
            ratios = []
            for s in sizes:
                d, a = rnd["default"].get(s), rnd["advised"].get(s)
                if d and a:
                    ratios.append(a / d)
                    d_all.append(d)
                    a_all.append(a)
            if ratios:
                per_round.append(math.exp(sum(math.log(r) for r in ratios) / len(ratios)))
        if not per_round:
            table.append({"name": name, "kind": kind, "tag": tag, "sizes": sizes, "default": None,
                          "advised": None, "change": None, "gain": None, "low": None,
                          "high": None, "verdict": "noise", "rounds": 0})
            continue
        lo, hi = _span(per_round)
        change = geomean(a_all) / geomean(d_all) - 1
        verdict = "gain" if lo > 1 and change > 0 else "loss" if hi < 1 and change < 0 else "noise"
        table.append({"name": name, "kind": kind, "tag": tag, "sizes": sizes,
                      "default": geomean(d_all), "advised": geomean(a_all), "change": change,
                      "gain": statistics.median(per_round) - 1, "low": lo - 1, "high": hi - 1,
                      "verdict": verdict, "rounds": len(per_round)})
    return table
