# storebench/reader.py — read a storebench CSV: its `# key=value` metadata and its columns by name.
# Python 3 standard library only; shared by scripts/plot, scripts/table, scripts/nightly, compare-cpus.
# One reader means one set of error messages and one idea of what a cache size or a CPU label is.
"""Read storebench result CSVs.

    run = reader.load(path, required=("kernel", "gbps_median"))
    run.meta["cpu_codename"], run.columns, run.rows (list of dicts, str values)
    run.cache_bytes("l2"), run.cpu_label(), run.date()

Every problem with the file raises CsvError whose text is one line meant for stderr; tools turn it
into exit status 2 with `fail()`.
"""

import argparse
import csv
import math
import re
import sys

__all__ = ["CsvError", "Run", "load", "fail", "ArgParser", "num", "ival", "fmt_bytes",
           "parse_bytes", "geomean", "size_class", "DIMS", "FRACTIONAL", "shared", "SHARED_BELOW"]

# The columns that say which point a row is (with the kernel).  Some follow others (chunk_bytes is
# the call size when nothing is read), so only one that varies at a fixed rest is an axis of its own.
DIMS = ("ws_mode", "threads", "rw_ratio", "rw_mode", "rw_layout", "chunk_bytes", "placement", "membind",
        "pages", "misalign_bytes", "fill_byte", "call_bytes", "ws_bytes")


class CsvError(Exception):
    """A CSV that cannot be used; str(e) is one line naming the file and the problem."""


def fail(prog, err):
    """Print one line on stderr and exit with status 2 (bad input), the project-wide convention."""
    sys.stderr.write("%s: %s\n" % (prog, str(err).splitlines()[0] if str(err) else "error"))
    sys.exit(2)


class ArgParser(argparse.ArgumentParser):
    """Usage errors are bad input too: one line on stderr, exit status 2."""

    def error(self, message):
        fail(self.prog, message + " (see --help)")


def num(text):
    """Float from a CSV field; None for the empty field (not measurable) or a non-number."""
    if text is None or text == "":
        return None
    try:
        v = float(text)
    except ValueError:
        return None
    return v if math.isfinite(v) else None


FRACTIONAL = ("rw_ratio",)  # '66.67' percent written is legal; other numeric columns are whole


def ival(row, col):
    """Numeric field as int (as float where FRACTIONAL allows a fraction), None when empty."""
    v = num(row.get(col))
    if v is None:
        return None
    return v if col in FRACTIONAL and v != int(v) else int(v)


_UNITS = {"": 1, "b": 1, "k": 1 << 10, "kib": 1 << 10, "m": 1 << 20, "mib": 1 << 20,
          "g": 1 << 30, "gib": 1 << 30, "t": 1 << 40, "tib": 1 << 40,
          "kb": 1000, "mb": 1000 ** 2, "gb": 1000 ** 3, "tb": 1000 ** 4}


def parse_bytes(text):
    """'48KiB', '1m', '4096' -> bytes (binary units; kB/MB/GB are decimal). ValueError if not."""
    m = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([a-zA-Z]*)\s*", text or "")
    if not m or m.group(2).lower() not in _UNITS:
        raise ValueError("not a size: %r (use e.g. 4096, 48KiB, 1MiB, 1GiB)" % text)
    return int(float(m.group(1)) * _UNITS[m.group(2).lower()])


def fmt_bytes(n):
    """Binary units, shortest exact form first: 4096 -> '4 KiB', 1536 -> '1.5 KiB', 100 -> '100 B'."""
    n = int(n)
    for unit, scale in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= scale:
            v = n / scale
            return "%d %s" % (v, unit) if v == int(v) else "%.3g %s" % (v, unit)
    return "%d B" % n


def geomean(values):
    values = [v for v in values if v is not None and v > 0]
    if not values:
        return None
    return math.exp(sum(math.log(v) for v in values) / len(values))


def size_class(ws, l1, l2, l3):
    """'L1', 'L2', 'L3' or 'DRAM' for a working set per thread against per-instance cache sizes;
    a level whose size is unknown (None) is skipped."""
    if l1 and ws <= l1:
        return "L1"
    if l2 and ws <= l2:
        return "L2"
    if l3 and ws <= l3:
        return "L3"
    return "DRAM"


SHARED_BELOW = 0.9  # cpu_share_min under this: another task shared a pinned CPU during the point


def shared(row):
    """True when the row's point ran while other work shared a pinned CPU (its numbers are low);
    False when it did not or when the CSV predates the cpu_share_min column."""
    v = num(row.get("cpu_share_min"))
    return v is not None and v < SHARED_BELOW


class Run:
    """One CSV: path, meta (dict, file order), columns (header order), rows (dicts of str)."""

    def __init__(self, path, meta, columns, rows):
        self.path, self.meta, self.columns, self.rows = path, meta, columns, rows

    def require(self, names, why=""):
        missing = [c for c in names if c not in self.columns]
        if missing:
            raise CsvError("%s: lacks column%s %s%s" % (
                self.path, "s" if len(missing) > 1 else "", ", ".join(missing),
                " (needed for %s)" % why if why else ""))

    def cache_bytes(self, level):
        """Per-instance size of cache 'l1d', 'l2', 'l3' from the metadata; None when unknown."""
        keys = ["cache_%s_bytes" % level]
        if level == "l1d":
            keys.append("cache_l1_bytes")
        for k in keys:
            v = num(self.meta.get(k))
            if v:
                return int(v)
        return None

    def cache_share(self, level, rows):
        """(bytes, threads): one thread's share of cache 'l1d', 'l2' or 'l3' at the thread count and
        placement of rows — the cache size over the most threads any of the rows put in one
        instance of it (the l2_threads / l3_threads columns; L1d is private).  (None, 1) when the
        size is unknown; threads 1 for CSVs that predate those columns."""
        size = self.cache_bytes(level)
        col = "%s_threads" % level
        threads = max([ival(r, col) for r in rows if num(r.get(col))] or [1]) if level != "l1d" else 1
        if not size:
            return None, 1
        return size // max(threads, 1), max(threads, 1)

    def llc_bytes(self):
        for level in ("l4", "l3", "l2"):
            v = self.cache_bytes(level)
            if v:
                return v
        return None

    def cpu_label(self):
        """Short CPU name: the codename when known, else the brand string, else family/model."""
        code = self.meta.get("cpu_codename", "")
        if code and code != "unknown":
            return code
        brand = self.meta.get("cpu_brand", "")
        if brand:
            return brand
        fam, mod = self.meta.get("cpu_family"), self.meta.get("cpu_model")
        return "family %s model %s" % (fam, mod) if fam else "unknown CPU"

    def date(self):
        """UTC date of the run (YYYY-MM-DD) from the metadata, '' when absent."""
        for k in ("utc", "utc_time", "utc_start", "date", "time"):
            v = self.meta.get(k, "")
            m = re.match(r"\d{4}-\d{2}-\d{2}", v)
            if m:
                return m.group(0)
        return ""

    def drop_unverified(self):
        """Remove rows whose written bytes failed the check (their numbers mean nothing); returns
        how many were removed.  A CSV without a verified column is taken as is."""
        if "verified" not in self.columns:
            return 0
        keep = [r for r in self.rows if r["verified"] == "ok"]
        dropped = len(self.rows) - len(keep)
        self.rows = keep
        return dropped

    def axes(self, candidates, rows=None):
        """Those of candidates that vary on their own in rows: two rows equal in the kernel and
        every other DIMS column but different in this one.  Derived columns do not count."""
        rows = self.rows if rows is None else rows
        out = []
        for c in candidates:
            if c not in self.columns:
                continue
            rest = [d for d in ("kernel",) + DIMS if d != c and d in self.columns]
            seen = {}
            for r in rows:
                v = seen.setdefault(tuple(r[d] for d in rest), r[c])
                if v != r[c]:
                    out.append(c)
                    break
        return out

    def distinct(self, column, rows=None):
        """Distinct values of a column in file order."""
        seen = {}
        for r in self.rows if rows is None else rows:
            seen.setdefault(r.get(column, ""), None)
        return list(seen)


def load(path, required=()):
    """Read path; metadata lines are '# key=value' before the header (other '#' lines are kept
    out of the way as comments).  Raises CsvError for a missing, empty, header-only or malformed
    file, or one lacking a column named in required."""
    try:
        with open(path, newline="") as f:
            lines = f.read().splitlines()
    except FileNotFoundError:
        raise CsvError("%s: no such file" % path)
    except IsADirectoryError:
        raise CsvError("%s: is a directory, not a CSV" % path)
    except (OSError, UnicodeDecodeError) as e:
        raise CsvError("%s: cannot read: %s" % (path, getattr(e, "strerror", None) or e))
    meta, body = {}, []
    for line in lines:
        if line.startswith("#"):
            if not body:
                key, eq, value = line[1:].strip().partition("=")
                if eq and key.strip():
                    meta[key.strip()] = value.strip()
            continue
        if line.strip():
            body.append(line)
    if not body:
        raise CsvError("%s: empty CSV (no header line)" % path)
    reader = csv.reader(body)
    columns = [c.strip() for c in next(reader)]
    if len(set(columns)) != len(columns) or "" in columns:
        raise CsvError("%s: malformed header (empty or repeated column names)" % path)
    rows = []
    for lineno, fields in enumerate(reader, 2):
        if len(fields) != len(columns):
            raise CsvError("%s: data line %d has %d fields, header has %d" % (
                path, lineno, len(fields), len(columns)))
        rows.append(dict(zip(columns, fields)))
    if not rows:
        raise CsvError("%s: no data rows (header only)" % path)
    run = Run(path, meta, columns, rows)
    run.require(required)
    return run
