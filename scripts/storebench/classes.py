# storebench/classes.py — which cache level a point's working set lives in, per thread.
# Python 3 standard library.  The binary decides (bench/machine/levels.h, the one rule): each row's
# ws_class column names the level its working set lies well inside at its per-thread shares, empty
# between two, and the run's metadata names the levels in order (level_names) and the rule
# (level_rule).  This module keeps no rule or level name of its own; it only reads those, and a
# thread's share of a level for labels (the CSV's l2_threads/l3_threads columns say how).
"""size_class(run, row) -> the row's level (as the run's level_names spell it) or
None (between two, or a CSV from before ws_class); names(runs) -> the levels in order;
share(run, rows, level) -> a thread's bytes of one level; rule(run) -> the sentence for a note;
class_rows(run, exe) -> a CSV from before ws_class classed by the binary (`storebench class`)."""

import re
import subprocess

from storebench.rows import ival
from storebench.units import fmt_bytes


# Why a run has no classes, for a note: its rows do not say them.
NO_CLASSES = ("the CSV has no size classes: it is from a storebench before the ws_class column "
              "(2026-12-03); run it again to class its sizes")


# How a run's classes were had when its CSV predates the column (class_rows), for a note.
CLASSED = ("by `storebench class`, this binary's level rule over the cache sizes in the CSV's "
           "own metadata (a CSV from before the ws_class column)")


def has_classes(run):
    """Whether the run's rows carry their class (CSVs from before ws_class do not, until
    class_rows gives them theirs)."""
    return "ws_class" in run.columns


def class_rows(run, exe):
    """Give a run from before the ws_class column its rows' classes by the binary EXE's level rule
    (`storebench class`, over the CSV's own metadata); None when done, else why not, one line."""
    try:
        r = subprocess.run([exe, "class", run.path], capture_output=True, text=True)
    except OSError as e:
        return "%s class: %s" % (exe, e.strerror)
    got = r.stdout.split("\n")[:-1]
    if r.returncode != 0 or len(got) != len(run.rows):
        return "%s class %s: %s" % (exe, run.path, (r.stderr.strip().splitlines() or [
            "%d classes for %d rows" % (len(got), len(run.rows))])[-1])
    for row, cls in zip(run.rows, got):
        row["ws_class"] = cls
    run.columns = list(run.columns) + ["ws_class"]
    run.meta["ws_class_source"] = CLASSED
    return None


def names(*runs):
    """The level names of the runs' metadata in order, each once: () when none names them."""
    out = []
    for run in runs:
        for name in run.meta.get("level_names", "").split(","):
            if name and name not in out:
                out.append(name)
    return tuple(out)


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


def _levels_at(run, threads, which):
    """{'L1d': bytes, ...} of the metadata's levels_t<threads>_<which> (reported, used)."""
    out = {}
    for item in run.meta.get("levels_t%s_%s" % (threads, which), "").split(","):
        name, _, value = item.partition(":")
        if value.isdigit():
            out[name] = int(value)
    return out


def measured_share(run, rows, level):
    """A thread's share of LEVEL at the rows' thread count where the binary sized the run by the
    level as measured, not as reported (levels_t<threads>_used against _reported); else None."""
    threads = {r.get("threads") for r in rows}
    if len(threads) != 1:
        return None
    t = threads.pop()
    name = "L" + level[1:]
    used = _levels_at(run, t, "used").get(name)
    return used if used and used != _levels_at(run, t, "reported").get(name) else None


def share(run, rows, level):
    """(bytes, n): one thread's share of cache level 'l1d', 'l2' or 'l3' at the rows' point, with
    n the most threads of the rows in one instance; (None, 1) when the level is unknown or absent.
    A level the run measured (measured_share) is that share, n 1.
    L1d goes with L2 when both are per core (the same CPUs share them); otherwise, with no column
    saying how threads sit in L1d instances, a thread owns a whole L1d."""
    measured = measured_share(run, rows, level)
    if measured:
        return measured, 1
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


def size_class(run, row):
    """The level the row's working set lies well inside, as the binary wrote it (ws_class); None
    between two levels, when the cache sizes were unknown, or in a CSV from before the column."""
    return row.get("ws_class") or None


def largest_inside(run, rows, level):
    """The largest working set of ROWS well inside LEVEL, None when none is."""
    return max((ival(r, "ws_bytes") for r in rows if size_class(run, r) == level), default=None)


def in_cache_and_memory(run, rows):
    """((ws, class), (ws, class)) of ROWS, the working sets a one-number view shows: in cache the
    largest in the run's second level (past the L1d, still a cache; else the largest in its
    first), in memory the largest in its last; (None, None) for a view no row is in, or when the
    CSV has no classes."""
    levels = names(run)
    if len(levels) < 3:
        return (None, None), (None, None)
    cache = next(((ws, c) for c in levels[1::-1]
                  for ws in [largest_inside(run, rows, c)] if ws), (None, None))
    return cache, (largest_inside(run, rows, levels[-1]), levels[-1])


def cache_levels(run):
    """[(label, key)] of the data caches the run's metadata sizes, smallest level first; key as in
    the metadata's cache_<key>_bytes (l1d, l2, ...), the label that key capitalised (L1d, L2)."""
    keys = []
    for k in run.meta:
        m = re.fullmatch(r"cache_(l(\d)d?)_bytes", k)
        if m and run.cache_bytes(m.group(1)):
            keys.append((int(m.group(2)), m.group(1)))
    return [("L" + key[1:], key) for _, key in sorted(keys)]


def instances(run):
    """'L1d 48 KiB, L2 1 MiB, L3 32 MiB': the run's cache instance sizes, for a note."""
    sizes = ["%s %s" % (label, fmt_bytes(run.cache_bytes(key))) for label, key in cache_levels(run)]
    return ", ".join(sizes) or "sizes unknown"


def rule(run, sizes=None):
    """One sentence on how classes were drawn, for the notes under a table; SIZES: the instance
    sizes to name (several runs': 'A: ..., B: ...'), the run's own by default."""
    if run.meta.get("ws_class_source"):
        return "Classes %s (instances: %s)." % (run.meta["ws_class_source"],
                                                sizes or instances(run))
    if not run.meta.get("level_rule"):
        return NO_CLASSES[0].upper() + NO_CLASSES[1:] + "."
    return "Classes by the %s (instances: %s)%s." % (run.meta["level_rule"], sizes or instances(run),
                                                    measured_note(run))


def measured_note(run):
    """'; measured, a thread's share: L3 4.7 MiB at 1 thread, ...' for the levels the run took
    as measured instead of as reported (--levels), '' when none."""
    parts = []
    for key in sorted(run.meta, key=lambda k: int(re.sub(r"\D", "", k) or 0)):
        m = re.fullmatch(r"levels_t(\d+)_used", key)
        if not m:
            continue
        reported = _levels_at(run, m.group(1), "reported")
        for name, value in _levels_at(run, m.group(1), "used").items():
            if reported.get(name) not in (None, value):
                parts.append("%s %s at %s thread%s" % (name, fmt_bytes(value), m.group(1),
                                                       "" if m.group(1) == "1" else "s"))
    return "; measured, a thread's share: " + ", ".join(parts) if parts else ""
