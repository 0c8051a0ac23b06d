# storebench/classes.py — which cache level a point's working set lives in, per thread.
# Python 3 standard library.  A thread owns a share of each cache level: the instance's size over
# the threads of the point placed in it (rows carry l2_threads and l3_threads; the metadata the
# sizes).  32 MiB per thread at 2 threads is DRAM on a 32 MiB L3 shared by both.  The binary uses
# the same shares for its cache words, so class, plot mark and sweep agree.
"""size_class(run, row) -> 'L1' | 'L2' | 'L3' | 'DRAM' | None (between regimes);
shares(run, row) -> per-thread bytes; inside(...): the rule."""

from storebench.rows import ival
from storebench.units import fmt_bytes

CLASSES = ("L1", "L2", "L3", "DRAM")


def _threads_in(run, row, level):
    """Threads of this row's point in one instance of the level.  Rows from before the l2_threads/
    l3_threads columns: threads spread over the instances evenly (storebench's spread order)."""
    col = ival(row, "%s_threads" % level)
    if col is not None:
        return col
    threads = ival(row, "threads") or 1
    inst = ival(run.meta, "cache_%s_instances" % level) or 1
    per = ival(run.meta, "cache_%s_shared_cpus" % level)
    n = -(-threads // inst)
    return min(n, per) if per else n


def share(run, rows, level):
    """(bytes, n): one thread's share of cache level 'l1d', 'l2' or 'l3' at the rows' point, with
    n the most threads of the rows in one instance; (None, 1) when the level is unknown or absent.
    L1d goes with L2 when both are per core (the same CPUs share them); otherwise, with no column
    saying how threads sit in L1d instances, a thread owns a whole L1d."""
    size = run.cache_bytes(level)
    if not size:
        return None, 1
    if level == "l1d":
        same = run.meta.get("cache_l1d_shared_cpus") == run.meta.get("cache_l2_shared_cpus")
        n = max(_threads_in(run, r, "l2") for r in rows) if same else 1
    else:
        n = max(_threads_in(run, r, level) for r in rows)
    return (size // n, n) if n else (None, 1)  # l3_threads 0: the machine has no L3


def shares(run, row):
    """(L1d, L2, L3) bytes one thread of the row's point owns; None for an unknown or absent level."""
    return tuple(share(run, [row], level)[0] for level in ("l1d", "l2", "l3"))


def inside(ws, regime, l1d, l2, l3, llc):
    """Whether a working set per thread sits well inside REGIME ('L1', 'L2', 'L3', 'DRAM'), the
    one rule of the tables, plots and the nightly shapes: a cache level's sizes at most half of a
    thread's share of it and at least 4 x its share of the level below; DRAM at least 4 x its
    LLC share.  At a capacity a point's number swings with the exact size (memset 108 -> 87 GB/s
    from 512 KiB to 1 MiB on a 1 MiB L2), so sizes between regimes belong to none."""
    if regime == "DRAM":
        return bool(llc) and ws >= 4 * llc
    level, below = {"L1": (l1d, None), "L2": (l2, l1d), "L3": (l3, l2)}.get(regime, (None, None))
    return bool(level) and ws <= level / 2 and (not below or ws >= 4 * below)


def size_class(run, row):
    """'L1', 'L2', 'L3' or 'DRAM' for the row's working set well inside that regime at its
    per-thread shares (inside); None between regimes or when the cache sizes are unknown."""
    l1d, l2, l3 = shares(run, row)
    if not (l1d and l2):
        return None
    for name in CLASSES:
        if inside(ival(row, "ws_bytes"), name, l1d, l2, l3, l3 or l2):
            return name
    return None


def largest_inside(run, rows, regime):
    """The largest working set of ROWS well inside REGIME at their shares, None when none is."""
    return max((ival(r, "ws_bytes") for r in rows if size_class(run, r) == regime), default=None)


def instances(run):
    """'L1d 48 KiB, L2 1 MiB, L3 32 MiB': the run's cache instance sizes, for a note."""
    sizes = ["%s %s" % (n, fmt_bytes(b)) for n, b in
             (("L1d", run.cache_bytes("l1d")), ("L2", run.cache_bytes("l2")),
              ("L3", run.cache_bytes("l3"))) if b]
    return ", ".join(sizes) or "sizes unknown"


def rule(run, sizes=None):
    """One sentence on how classes were drawn, for the notes under a table; SIZES: the instance
    sizes to name (several runs': 'A: ..., B: ...'), the run's own by default."""
    return ("Classes by working set per thread against each thread's share of a cache level "
            "(instance size / threads of the point in it; instances: %s), well inside one: L1 up "
            "to half the L1d share, L2 and L3 from 4 x the level below to half the level, DRAM "
            "from 4 x the LLC share; sizes between are transitions, in no class."
            % (sizes or instances(run)))
