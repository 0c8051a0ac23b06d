# advise_cross.py — where one store path stops beating another: crossovers between two kernels'
# bandwidth curves over call size, counted only where the margin clears the measured spread.
# Python 3 standard library only; pure functions over (size, median, low, high) points, so tests feed it numbers.
"""Crossovers between two measured curves.

A point is (size, median, low, high): GB/s and the range its repetitions or rounds spanned.
At one size, kernel A clearly beats B when median_A - median_B exceeds the combined spread,
(high_A - low_A)/2 + (high_B - low_B)/2; otherwise the size is a tie (or unusable: a point the
quality column flags, or one missing from either curve).  A crossover from A to B counts only
where B's clear wins form a run of at least MIN_RUN sizes that A never clearly wins inside: a
lone clear win amid the other kernel's wins is noise, not a crossing.  Each crossover carries its
band: from the last clear win of the old leader to the first of the new one; inside it the two
are equal within noise, so any threshold in the band serves.
"""

MIN_RUN = 2  # clear wins in a row before a new leader counts (one is a blip on a shared host)


def verdict(a, b):
    """+1 when a clearly beats b, -1 when b clearly beats a, 0 when within noise; a and b are
    (median, low, high) or None (unusable)."""
    if a is None or b is None:
        return 0
    spread = (a[2] - a[1]) / 2 + (b[2] - b[1]) / 2
    margin = a[0] - b[0]
    if margin > spread:
        return 1
    if -margin > spread:
        return -1
    return 0


def verdicts(curve_a, curve_b):
    """[(size, verdict)] over the sizes both curves have, ascending; curves map size ->
    (median, low, high) or None."""
    return [(s, verdict(curve_a[s], curve_b[s])) for s in sorted(set(curve_a) & set(curve_b))]


def _runs(marks):
    """Clear verdicts grouped into runs of one winner: [[winner, [sizes...]], ...]."""
    runs = []
    for size, v in marks:
        if v == 0:
            continue
        if runs and runs[-1][0] == v:
            runs[-1][1].append(size)
        else:
            runs.append([v, [size]])
    return runs


def _merge(runs):
    merged = []
    for v, sizes in runs:
        if merged and merged[-1][0] == v:
            merged[-1][1].extend(sizes)
        else:
            merged.append([v, list(sizes)])
    return merged


def find(curve_a, curve_b, name_a="a", name_b="b", min_run=MIN_RUN):
    """The crossovers between two curves, ascending in size.

    Returns {"leader": name of the clear winner at the smallest sizes or None, "crossovers":
    [{"size", "band": (low, high), "from", "to"}], "ties": sizes within noise, "blips": clear
    wins dropped as too short}.  A crossover's size is the first clear win of the new leader;
    band low is the old leader's last clear win."""
    marks = verdicts(curve_a, curve_b)
    runs = _runs(marks)
    # Drop short runs one at a time, shortest first, so two blips cannot hide each other; the
    # first run stays (it names the leader at small sizes even when it is short).
    blips = []
    while True:
        runs = _merge(runs)
        short = [i for i, (v, sizes) in enumerate(runs) if i > 0 and len(sizes) < min_run]
        if not short:
            break
        i = min(short, key=lambda k: (len(runs[k][1]), k))
        blips.extend(runs[i][1])
        del runs[i]
    names = {1: name_a, -1: name_b}
    out = []
    for prev, cur in zip(runs, runs[1:]):
        out.append({"size": cur[1][0], "band": (prev[1][-1], cur[1][0]),
                    "from": names[prev[0]], "to": names[cur[0]]})
    return {"leader": names[runs[0][0]] if runs else None, "crossovers": out,
            "ties": [s for s, v in marks if v == 0], "blips": sorted(blips),
            "sizes": [s for s, _ in marks], "runs": [(names[v], sizes) for v, sizes in runs]}


def contrary(result, raw_a, raw_b, name_a="a", name_b="b"):
    """Where a stated lead is not what the medians read: {leader: [sizes]} of the sizes between
    each leader's first clear win and the next crossover at which the other kernel's median is
    higher, read from raw_a/raw_b, the curves with the flagged points kept.  Such a size is a tie
    to the finder (flagged, or within noise), so the lead carries over it; the report names it
    so that a reader does not take the lead for a reading there."""
    bounds = [sizes[0] for _, sizes in result["runs"]][1:] + [float("inf")]
    out = {}
    for (who, sizes), end in zip(result["runs"], bounds):
        mine, theirs = (raw_a, raw_b) if who == name_a else (raw_b, raw_a)
        for s in result["sizes"]:
            if sizes[0] <= s < end and mine.get(s) and theirs.get(s) and \
                    theirs[s][0] > mine[s][0]:
                out.setdefault(who, []).append(s)
    return out


def lost_again(result, new):
    """The first crossover out of `new` after the first one into it (None: it holds): glibc has
    no upper bound for a path, so such a loss can only be reported."""
    into = [c for c in result["crossovers"] if c["to"] == new]
    if not into:
        return None
    later = [c for c in result["crossovers"] if c["from"] == new and c["size"] > into[0]["size"]]
    return later[0] if later else None


def threshold(result, old, new, current, smallest):
    """Where glibc should switch from path `old` (below) to path `new` (above), given the finder's
    result for the pair and the current threshold.  Returns (value, why): value None keeps the
    current threshold; the string "never" means the new path never clearly wins (turn it off).

    Only the first crossover into `new` can be used: glibc has one threshold per path."""
    into = [c for c in result["crossovers"] if c["to"] == new]
    if result["leader"] is None:
        return None, "no size where either path clearly wins"
    if result["leader"] == new and not [c for c in result["crossovers"] if c["to"] == old]:
        # The new path leads from its first clear win and never loses it again; below that the
        # two are equal within noise, so the threshold goes to the first win, said as such (not
        # "every size": the report says "leads from" the same size).
        start = result["runs"][0][1][0] if result["runs"] else smallest
        if current <= start:
            return None, "%s leads from %d B; the threshold is already at or below it" % (
                new, start)
        if start <= smallest:
            return smallest, "%s leads at every size measured" % new
        return start, "%s leads from %d B (equal within noise below it)" % (new, start)
    if result["leader"] == new:
        # Leads small, loses later: the switch glibc can make is only "never"/"always"; keep.
        return None, "%s leads at small sizes and loses above them: one threshold cannot follow" % new
    if not into:
        if result["sizes"] and current > result["sizes"][-1]:
            return "never", "%s never clearly beats %s" % (new, old)
        above = [s for who, sizes in result["runs"] if who == old for s in sizes if s > current]
        if not above:
            return None, "%s and %s are equal within noise above the current threshold" % (old, new)
        return "never", "%s never clearly beats %s; %s wins clearly above the threshold (%d B up)" % (
            new, old, old, above[0])
    lo, hi = into[0]["band"]
    # The sweep cannot tell sizes apart closer than one step: a threshold within a step of the
    # band is already in it as far as these measurements know.
    below = [s for s in result["sizes"] if s < lo]
    above = [s for s in result["sizes"] if s > hi]
    if (below[-1] if below else lo) <= current <= (above[0] if above else hi):
        return None, "the current threshold lies in the crossover band %d..%d (within a step)" % (
            lo, hi)
    value = lo if current < lo else hi
    return value, "crossover band %d..%d" % (lo, hi)
