# storebench/units.py — byte sizes as people write and read them, and the geometric mean.
# Python 3 standard library.  Binary units as storebench prints them, so a table, a plot and the
# binary's own output name a size the same way.
"""parse_bytes('48KiB') == 49152, fmt_bytes(1536) == '1.5 KiB', geomean([...])."""

import math
import re

_UNITS = {"": 1, "b": 1, "k": 1 << 10, "kib": 1 << 10, "m": 1 << 20, "mib": 1 << 20,
          "g": 1 << 30, "gib": 1 << 30, "t": 1 << 40, "tib": 1 << 40,
          "kb": 1000, "mb": 1000 ** 2, "gb": 1000 ** 3, "tb": 1000 ** 4}


def parse_bytes(text):
    """'48KiB', '1m', '4096' -> bytes (binary units; kB/MB/GB are decimal). ValueError if not."""
    m = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([a-zA-Z]*)\s*", text or "")
    if not m or m.group(2).lower() not in _UNITS:
        raise ValueError("not a size: %r (use e.g. 4096, 48KiB, 1MiB, 1GiB)" % text)
    n = int(float(m.group(1)) * _UNITS[m.group(2).lower()])
    if n >= 1 << 64:
        raise ValueError("not a size: %r is more than 2^64 - 1 bytes" % text)
    return n


def fmt_bytes(n):
    """Binary units, shortest exact form first: 4096 -> '4 KiB', 1536 -> '1.5 KiB', 100 -> '100 B'."""
    n = int(n)
    for unit, scale in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= scale:
            v = n / scale
            return "%d %s" % (v, unit) if v == int(v) else "%.3g %s" % (v, unit)
    return "%d B" % n


def geomean(values):
    """Geometric mean of the positive values; None when there is none."""
    values = [v for v in values if v is not None and v > 0]
    if not values:
        return None
    return math.exp(sum(math.log(v) for v in values) / len(values))
