# storebench/victims.py — the rows with a victim or chase beside the writers, named so that two
# machines' rows meet: a victim of L2/2 is 512 KiB on one CPU and 1 MiB on another.
# Python 3 standard library.  The binary scales --victim sizes by one thread's share of each cache
# at the point's thread count (bench/config/cache_words.h) and writes the bytes; this module finds
# the cache word those bytes are, from the row's shares (storebench.classes), and keeps no rule of
# its own beyond rounding down to whole 64-byte lines as the binary does.
"""word(run, row) -> the row's victim size as a cache word ("L2/2", "LLC", "4LLC") or its bytes
when no simple multiple of a share is it; key(run, row) -> what the row's victim is, comparable
across machines; label(key) -> that key in words; slowdown(row, pre) -> its paired slowdown and
interval as text."""

from storebench.classes import share, size_class
from storebench.rows import ival, num
from storebench.units import fmt_bytes

# The words tried, smallest level first, so the first that fits names the size, each with the
# multiples a preset or docs/victim.md uses (4LLC: a chase in DRAM).  Divisors up to 8 only: a
# size asked in bytes (16KiB) is compared by its bytes, not taken for L2/64.
LEVELS = (("L1d", "l1d", (2, 4)), ("L2", "l2", (2, 4)), ("LLC", "l3", (2, 4, 8)))
DIVISORS = (1, 2, 4, 8)


def word(run, row):
    """The victim's bytes as the cache word the sweep most likely asked: the first level and factor
    whose share, in whole lines, equals them, a level or a part of one before any multiple (on a
    Genoa core 128 KiB is L2/8 and 4L1d alike, and a victim is asked as a part of the level it
    lives in); else the bytes themselves ("192 KiB")."""
    size = ival(row, "victim_bytes")
    if not size:
        return ""
    shares = [(name, share(run, [row], level)[0], multiples) for name, level, multiples in LEVELS]
    for name, per, _ in shares:
        for f in DIVISORS if per else ():
            if per // f // 64 * 64 == size:
                return name if f == 1 else "%s/%d" % (name, f)
    for name, per, multiples in shares:
        for f in multiples if per else ():
            if per * f // 64 * 64 == size:
                return "%d%s" % (f, name)
    return fmt_bytes(size)


def key(run, row):
    """(chase?, mode, size word, threads, delay ns, the writes' level): the same on two machines for
    the same --victim element beside writes of the same cache level, so their rows go side by
    side."""
    return (row.get("victim") == "chase", row.get("victim", ""), word(run, row),
            ival(row, "threads") or 1, ival(row, "victim_delay_ns") or 0,
            size_class(run, row) or "between levels")


def label(k):
    """'own:L2/2 beside 1 thread writing DRAM' / '... , 1000 ns after each pass'."""
    _, mode, size, threads, delay, level = k
    return "%s:%s beside %d thread%s writing %s%s" % (
        mode, size, threads, "" if threads == 1 else "s", level,
        ", %g us after each pass" % (delay / 1e3) if delay else "")


def slowdown(row, pre):
    """('1.230', '[1.100, 1.400]') of the row's paired slowdown (pre: 'victim' or 'chase'); '-'
    where it was not measured or has no interval (fewer trials than an interval needs)."""
    mid, lo, hi = (num(row.get(pre + s)) for s in ("_slowdown", "_slowdown_ci_low",
                                                   "_slowdown_ci_high"))
    if mid is None:
        return "-", "-"
    return "%.3f" % mid, "-" if lo is None or hi is None else "[%.3f, %.3f]" % (lo, hi)
