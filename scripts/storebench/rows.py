# storebench/rows.py — fields of a CSV row as numbers, and the row selections every command uses.
# Python 3 standard library.  The bandwidth curve ("aligned, store only, working set = call
# size") is defined here once, so a table, a plot, a trend and a comparison pick the same rows.
"""Row fields (num, ival), the point's identifying columns (DIMS) and row selectors."""

import math

# The columns that say which point a row is (with the kernel).  Some follow others (chunk_bytes is
# the call size when nothing is read), so only one that varies at a fixed rest is an axis of its own.
DIMS = ("ws_mode", "threads", "rw_ratio", "rw_mode", "rw_layout", "chunk_bytes", "placement", "membind",
        "pages", "misalign_bytes", "fill_byte", "call_bytes", "call_dist", "ws_bytes")
FRACTIONAL = ("rw_ratio",)  # '66.67' percent written is legal; other numeric columns are whole


def num(text):
    """Float from a CSV field; None for the empty field (not measurable) or a non-number."""
    if text is None or text == "":
        return None
    try:
        v = float(text)
    except ValueError:
        return None
    return v if math.isfinite(v) else None


def ival(row, col):
    """Numeric field as int (as float where FRACTIONAL allows a fraction), None when empty."""
    v = num(row.get(col))
    if v is None:
        return None
    return v if col in FRACTIONAL and v != int(v) else int(v)


def store_only(rows):
    """Rows that only write calls of one size: the whole rw ratio is 100 % (it may be fractional
    elsewhere) and no size distribution (call_dist: their call_bytes is a mean, no size of a
    curve or a ticks table)."""
    return [r for r in rows if num(r.get("rw_ratio")) == 100 and not r.get("call_dist")]


def curve(rows):
    """The bandwidth curve: aligned, store-only rows whose working set is the call size.  A CSV
    without a misalign column is aligned (older runs had no misalignment)."""
    return [r for r in store_only(rows)
            if r.get("ws_mode") == "call" and num(r.get("misalign_bytes")) in (0, None)]


def has_victim(row):
    """Whether a victim or chase was measured beside the row's writers (docs/victim.md); a CSV
    from before the victim column has none."""
    return row.get("victim") not in (None, "", "none")


def without_victim(rows):
    """The rows the bandwidth tables and plots read: a victim's rows are the victim section's."""
    return [r for r in rows if not has_victim(r)]


def by_kernel(rows, kernel):
    return [r for r in rows if r["kernel"] == kernel]


def kernels(rows):
    """Distinct kernels in file order."""
    return list(dict.fromkeys(r["kernel"] for r in rows))
