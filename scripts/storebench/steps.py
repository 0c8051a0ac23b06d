# storebench/steps.py — how smooth a run's bandwidth curves are where they should be flat.
# Python 3 standard library.  Inside a plateau (well within one cache level's per-thread share,
# or well beyond the last, with calls large enough to amortise their start-up) a CPU's store
# bandwidth hardly changes from one size to the next, so a large step between neighbouring sizes
# there is mostly the machine moving under the sweep (host drift, a busy neighbour).  Counting
# those steps compares two ways of measuring (e.g. `--rounds 1` against `--rounds 3`) on the
# same machine; scripts/table --section steps prints the count.
"""plateau(run, row) -> the row's class or None; steps(run) -> [Step]; summary(...)."""

from collections import namedtuple
from statistics import median

from storebench import classes, quality
from storebench.rows import DIMS, curve, ival, num

__all__ = ["RULE", "Step", "plateau", "steps", "summary"]

# In the first class (L1d) calls below a quarter of a thread's share still amortise their
# start-up, so the curve climbs there whatever the host does: those sizes are no plateau.
FIRST_FROM = 4
RULE = ("plateaus are the rows' size classes (ws_class, the run's level_rule), in the first "
        "class from 1/%d of a thread's L1d share only (smaller calls still amortise their "
        "start-up); sizes between classes are transitions and never counted" % FIRST_FROM)
# The columns that move along a curve (chunk_bytes is the call size when nothing is read).
SIZES = ("call_bytes", "ws_bytes", "chunk_bytes")
# One pair of neighbouring sizes inside one plateau: step = |GB/s of the larger / smaller - 1|.
Step = namedtuple("Step", "kernel threads plateau ws_a ws_b step flagged")


def plateau(run, row):
    """The class the row's working set lies well inside, None in a transition, below the first
    class's plateau, or when the CSV has no classes."""
    c = classes.size_class(run, row)
    levels = classes.names(run)
    if c is None or not levels or c != levels[0]:
        return c
    l1 = classes.shares(run, row)[0]
    return c if l1 and ival(row, "ws_bytes") * FIRST_FROM >= l1 else None


def steps(run):
    """Every pair of neighbouring working sets of one curve (a kernel at one point of every other
    axis) that lie in the same plateau, in file order of the curves."""
    curves = {}
    for r in curve(run.rows):
        if num(r.get("gbps_median")) is None:
            continue
        key = (r["kernel"],) + tuple(r.get(c, "") for c in DIMS if c not in SIZES)
        curves.setdefault(key, []).append(r)
    out = []
    for rows in curves.values():
        rows.sort(key=lambda r: ival(r, "ws_bytes"))
        for a, b in zip(rows, rows[1:]):
            p = plateau(run, a)
            if p is None or plateau(run, b) != p:
                continue
            ga, gb = num(a["gbps_median"]), num(b["gbps_median"])
            if ga <= 0:
                continue
            out.append(Step(a["kernel"], ival(a, "threads"), p, ival(a, "ws_bytes"),
                            ival(b, "ws_bytes"), abs(gb / ga - 1),
                            quality.suspect(a) or quality.suspect(b)))
    return out


def summary(found, limit, order=()):
    """{plateau or 'all': (pairs, steps over limit, median step, pairs with a flagged point)}
    for the plateaus that have pairs, in ORDER (the run's class names), 'all' last."""
    out = {}
    for name in list(dict.fromkeys(list(order) + [x.plateau for x in found])) + ["all"]:
        s = [x for x in found if name in ("all", x.plateau)]
        if s:
            out[name] = (len(s), sum(x.step > limit for x in s), median(x.step for x in s),
                         sum(x.flagged for x in s))
    return out
