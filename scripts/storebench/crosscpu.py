# storebench/crosscpu.py — the one rule of a figure across CPUs: a CPU's value of a kernel in a
# size class, pooled over its runs, with an interval; two CPUs' ratio with its interval.
# Python 3 standard library.  Why: a ratio of one run to one run on guests whose speed moves by
# 2x within a minute is as much the minute as the CPU (issue 42); scripts/compare-cpus prints
# these figures and says where two CPUs are not told apart.
"""A CPU's figure of a kernel in a size class and thread count:

* per run, the geometric mean over the class's working sets of the rows' median GB/s, and of
  their 95 % interval ends (gbps_ci_low, gbps_ci_high: storebench's interval over its rounds);
* over the runs of one CPU, the geometric mean of the runs' values, and as its interval the
  envelope: the lowest run's low end to the highest run's high end, so that how far the runs
  moved enters it (on a shared guest that is what decides whether a difference is the CPU's).
  A run whose rows have no interval (one round) adds its value to the envelope; one run without
  an interval gives the figure none.

Two machines' runs are not paired.  The ratio B/A of two figures has the interval
[B low / A high, B high / A low], and B and A are **apart** only when that interval excludes 1
(the two envelopes do not overlap); otherwise they are not told apart."""

import math
from collections import namedtuple

from storebench.rows import num
from storebench.units import geomean

# value: geometric mean over the runs; low, high: the envelope (None without an interval);
# runs: how many runs it pools; flagged: a row of it carries a quality flag; values: each run's
Figure = namedtuple("Figure", "value low high runs flagged values")


def run_value(rows):
    """(value, low, high) of one run's rows of a kernel over a class's working sets; low and high
    None where a row has no interval."""
    value = geomean(num(r["gbps_median"]) for r in rows)
    lows = [num(r.get("gbps_ci_low")) for r in rows]
    highs = [num(r.get("gbps_ci_high")) for r in rows]
    if any(v is None or v <= 0 for v in lows + highs):
        return value, None, None
    return value, geomean(lows), geomean(highs)


def pool(per_run, flagged):
    """A Figure from [(value, low, high)] of a CPU's runs."""
    values = [v for v, _, _ in per_run]
    value = geomean(values)
    if len(per_run) == 1 and per_run[0][1] is None:
        return Figure(value, None, None, 1, flagged, values)
    low = min(lo if lo is not None else v for v, lo, _ in per_run)
    high = max(hi if hi is not None else v for v, _, hi in per_run)
    return Figure(value, low, high, len(per_run), flagged, values)


def ratio(b, a):
    """(B/A, low, high) of two Figures; low and high None where either has no interval."""
    r = b.value / a.value
    if a.low is None or b.low is None:
        return r, None, None
    return r, b.low / a.high, b.high / a.low


def apart(b, a):
    """True when the ratio's interval excludes 1; None without an interval."""
    _, lo, hi = ratio(b, a)
    if lo is None:
        return None
    return lo > 1 or hi < 1


def fmt_ratio(b, a):
    """'0.47 [0.31, 0.72]', '1.02 [0.91, 1.15] ~' (not told apart), '0.47 (no interval)'."""
    r, lo, hi = ratio(b, a)
    if lo is None:
        return "%.2f (no interval)" % r
    return "%.2f [%.2f, %.2f]%s" % (r, lo, hi, "" if apart(b, a) else " ~")


def moved(figures):
    """(median, largest) of how far a figure's runs moved: its largest run value over its
    smallest, less 1, over the figures of several runs; None without such."""
    spans = sorted(max(f.values) / min(f.values) - 1 for f in figures if len(f.values) > 1)
    if not spans:
        return None
    mid = spans[len(spans) // 2] if len(spans) % 2 else \
        math.sqrt((1 + spans[len(spans) // 2 - 1]) * (1 + spans[len(spans) // 2])) - 1
    return mid, spans[-1]


# A CPU's answer in a size class (winner_sets below)
Answer = namedtuple("Answer", "winners decided groups")


def class_answer(groups):
    """The answer of one CPU in one size class and thread count, from its groups there (one dict
    {kernel: winner_set} per working set and run): the kernels in the winner set of every decided
    group (a group is decided when none of its kernels is open), how many groups were decided, of
    how many.  winners is None where no group was decided, and empty where every group decided
    but no kernel won in all of them (a crossover inside the class)."""
    decided = [g for g in groups if g and "open" not in g.values()]
    if not decided:
        return Answer(None, 0, len(groups))
    winners = set.intersection(*({k for k, v in g.items() if v == "in"} for g in decided))
    return Answer(sorted(winners), len(decided), len(groups))


def same_answer(b, a):
    """How two CPUs' Answers compare: ('same', kernels in both), ('differ', []) where both
    decided and no kernel won on both, None where either has no answer."""
    if not a or not b or not a.winners or not b.winners:
        return None
    common = sorted(set(a.winners) & set(b.winners))
    return ("same", common) if common else ("differ", [])


ANSWER_RULE = ("A CPU's winners in a class: the kernels its runs put in the winner set of "
               "every decided group there (a working set of one run, decided when no kernel is "
               "open; storebench's paired rounds, results/README.md), with how many groups "
               "were decided; `undecided`: none was, `none in all`: the winner changes inside "
               "the class.  Classes are each CPU's own levels, so L3 on one CPU and L3 on "
               "another may be sizes far apart.")


RULE = ("B/A [interval]: each CPU's figure is the geometric mean over its runs of the class's "
        "geometric-mean GB/s, its interval the envelope of its runs' 95 % intervals (the "
        "lowest low end to the highest high end: how far the runs moved is in it); the "
        "ratio's interval is [B low / A high, B high / A low]. ~ marks a ratio whose interval "
        "holds 1: the two CPUs are not told apart there. (no interval): one run of one round "
        "has none; give several runs or rounds.")
