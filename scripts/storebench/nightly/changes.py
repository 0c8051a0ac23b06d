# storebench/nightly/changes.py — change points over a machine's nights: per kernel, and of the
# machine as a whole.
# Python 3 standard library.  Why: a night judges itself against its last nights (gate.py), so a
# slow drift, or a step smaller than one night can prove, passes every night; the history shows
# it (issue 41.4), dated, the way Hunter and Otava split a series with a t-test.
"""Change points over the nights of one machine id.

Two kinds of series, one value a night, from each night's good (`ok`) rows:

* a kernel's level apart from the others: for each of its points, its log GB/s less the median
  log GB/s of its group that night (the kernels of the same size, threads and mix, at least
  GROUP_MIN_KERNELS of them), the median of that over its points.  What the host does to every
  kernel cancels, as in the gate's kernel rule.
* the machine's level: for each point, its log GB/s less its median over all the nights, the
  median of that over the night's points.  A change of the host (clocks, memory, microcode, a
  neighbour for good) moves it, and no kernel's level.

A series is split where a two-sided Welch t-test between the nights before and from a night on
gives its least p-value, each side at least MIN_SIDE nights, when that p is below MAX_P and the
two sides' means differ by at least the minimum magnitude; each side is then split again
(binary segmentation).  A change is new tonight when the series without tonight's night has no
change at that night: the nightly gate reports it once, on the night it is first proven."""

import math
import statistics

from storebench import reader
from storebench.nightly import gate

MIN_SIDE = 3       # nights on each side of a change: one odd night is no change
MAX_P = 0.001      # Otava's default p-value
GROUP_MIN_KERNELS = gate.GROUP_MIN_KERNELS


def _betacf(a, b, x):
    """The continued fraction of the regularized incomplete beta function (modified Lentz)."""
    tiny = 1e-300
    c, d = 1.0, 1.0 - (a + b) * x / (a + 1.0)
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 300):
        for num in (m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
                    -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))):
            d = 1.0 + num * d
            d = 1.0 / (d if abs(d) > tiny else tiny)
            c = 1.0 + num / c
            c = c if abs(c) > tiny else tiny
            h *= d * c
        if abs(d * c - 1.0) < 1e-12:
            break
    return h


def incomplete_beta(a, b, x):
    """I_x(a, b), the regularized incomplete beta function, for 0 <= x <= 1."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    front = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) +
                     a * math.log(x) + b * math.log1p(-x))
    if x < (a + 1.0) / (a + b + 2.0):
        return front * _betacf(a, b, x) / a
    return 1.0 - front * _betacf(b, a, 1.0 - x) / b


def welch_p(xs, ys):
    """The two-sided p-value of Welch's t-test between two samples of two or more values."""
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    vx, vy = statistics.variance(xs) / len(xs), statistics.variance(ys) / len(ys)
    if vx + vy == 0:
        return 1.0 if mx == my else 0.0
    t = (mx - my) / math.sqrt(vx + vy)
    df = (vx + vy) ** 2 / (vx ** 2 / (len(xs) - 1) + vy ** 2 / (len(ys) - 1))
    return incomplete_beta(df / 2, 0.5, df / (df + t * t))


def split(values, magnitude, lo=0, hi=None):
    """Change points of values[lo:hi] (logs): [(index of the first night after, p, ratio of
    the means after / before as a GB/s ratio)], in order."""
    hi = len(values) if hi is None else hi
    best = None
    for k in range(lo + MIN_SIDE, hi - MIN_SIDE + 1):
        p = welch_p(values[lo:k], values[k:hi])
        if best is None or p < best[1]:
            best = (k, p)
    if best is None or best[1] >= MAX_P:
        return []
    k, p = best
    ratio = math.exp(statistics.fmean(values[k:hi]) - statistics.fmean(values[lo:k]))
    if abs(ratio - 1) < magnitude:
        return []
    return split(values, magnitude, lo, k) + [(k, p, ratio)] + split(values, magnitude, k, hi)


def levels(csv_paths):
    """(kernels, machine): per kernel, and for the machine, one value a night (None where the
    night has no good point of it), in the order of csv_paths."""
    nights = []
    for path in csv_paths:
        try:
            rows = reader.load(path).rows
        except reader.CsvError:
            rows = []
        nights.append({r["point"]: math.log(float(r["gbps_median"])) for r in rows
                       if r.get("quality") == "ok" and gate._float(r, "gbps_median")})
    usual = {}
    for night in nights:
        for p, v in night.items():
            usual.setdefault(p, []).append(v)
    usual = {p: statistics.median(v) for p, v in usual.items()}
    machine, kernels = [], {}
    for i, night in enumerate(nights):
        machine.append(statistics.median(v - usual[p] for p, v in night.items())
                       if night else None)
        groups = {}
        for p, v in night.items():
            groups.setdefault(p.split("/", 1)[1], []).append(v)
        centre = {g: statistics.median(v) for g, v in groups.items()
                  if len(v) >= GROUP_MIN_KERNELS}
        apart = {}
        for p, v in night.items():
            kernel, g = p.split("/", 1)
            if g in centre:
                apart.setdefault(kernel, []).append(v - centre[g])
        for k, vs in apart.items():
            kernels.setdefault(k, [None] * len(nights))[i] = statistics.median(vs)
    return kernels, machine


def changes(csv_paths, labels, magnitude):
    """Every change point over the nights: [dict(series: a kernel's name or "machine", night:
    the label of the first night after it, index, ratio, p, nights_before, nights_after)],
    machine first, then by kernel.  Nights without a value of a series are left out of it."""
    kernels, machine = levels(csv_paths)
    out = []
    for name, series in [("machine", machine)] + sorted(kernels.items()):
        idx = [i for i, v in enumerate(series) if v is not None]
        vals = [series[i] for i in idx]
        for k, p, ratio in split(vals, magnitude):
            out.append(dict(series=name, night=labels[idx[k]], index=idx[k], ratio=ratio, p=p,
                            nights_before=k, nights_after=len(vals) - k))
    return out


def new_tonight(csv_paths, labels, magnitude):
    """The changes found with the last night (tonight) and not without it: the ones to report
    tonight, each once."""
    before = {(c["series"], c["index"]) for c in changes(csv_paths[:-1], labels[:-1], magnitude)}
    return [c for c in changes(csv_paths, labels, magnitude)
            if (c["series"], c["index"]) not in before]


def note(change):
    """'machine: 18.2 % slower from 2026-12-06-12 on (5 nights before, 4 from it, p 2e-05)'."""
    r = change["ratio"]
    return "%s: %.1f %% %s from %s on (%d nights before, %d from it, p %.2g)" % (
        change["series"], abs(r - 1) * 100, "slower" if r < 1 else "faster", change["night"],
        change["nights_before"], change["nights_after"], change["p"])
