# storebench/reader.py — read a storebench CSV: its `# key=value` metadata and its columns by name.
# Python 3 standard library only; every command in scripts/ reads CSVs through it.
# One reader means one set of error messages and one idea of what a cache size or a CPU label is.
"""Read storebench result CSVs.

    run = reader.load(path, required=("kernel", "gbps_median"))
    run.meta["cpu_codename"], run.columns, run.rows (list of dicts, str values)
    run.values("canary_sample"), run.cache_bytes("l2"), run.cpu_label(), run.date()

Metadata lines may come anywhere: the preamble before the header, and with the drift canary a
`# canary_sample=` line after the rows each sample judged and the canary's summary at the end
(results/README.md: When rows are written).  A key on several lines reads as its last value in
meta; values() gives all of them.

Every problem with the file raises CsvError whose text is one line meant for stderr; tools turn it
into exit status 2 with storebench.cli.fail().

Encoding: storebench writes UTF-8.  A byte that is not UTF-8 in a '#' line (metadata, e.g. a
command line with a Latin-1 file name) reads as U+FFFD and the file stays usable; in the header or
a data row it is an error naming the line, never a guess.
"""

import csv
import io
import re

from storebench import inputs
from storebench.rows import DIMS, num

__all__ = ["CsvError", "Run", "load"]


class CsvError(Exception):
    """A CSV that cannot be used; str(e) is one line naming the file and the problem."""


class Run:
    """One CSV: path, meta (dict, file order; a repeated key keeps its last value), columns
    (header order), rows (dicts of str)."""

    def __init__(self, path, meta, columns, rows, meta_lines=()):
        self.path, self.meta, self.columns, self.rows = path, meta, columns, rows
        self.meta_lines = list(meta_lines)  # every (key, value) line, in file order

    def values(self, key):
        """Every value key has in the file, in file order: one per line, e.g. canary_sample,
        which storebench writes once per canary sample (t_s:gbps, as in canary_series)."""
        return [v for k, v in self.meta_lines if k == key]

    def require(self, names, why=""):
        missing = [c for c in names if c not in self.columns]
        if missing and self.is_load():
            # the usual mistake: a time series where a run's points are wanted
            raise CsvError("%s: a load time series (storebench load), not a run's points: "
                           "scripts/plot draws it" % self.path)
        if missing:
            raise CsvError("%s: lacks column%s %s%s" % (
                self.path, "s" if len(missing) > 1 else "", ", ".join(missing),
                " (needed for %s)" % why if why else ""))

    def is_load(self):
        """Whether this is a `storebench load` time series (its t_s column), not a run."""
        return "t_s" in self.columns and "kernel" not in self.columns

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


def _decode(path, lineno, raw):
    """One line as text under the module's encoding policy."""
    if raw.startswith(b"#"):
        return raw.decode("utf-8", errors="replace")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise CsvError("%s: line %d is not UTF-8 (byte 0x%02x at column %d); storebench writes "
                       "UTF-8, so the file was changed or is not a storebench CSV" % (
                           path, lineno, raw[e.start], e.start + 1))


# The GB/s a row may hold: every reader (table, plot, compare-cpus, trend, nightly) refuses
# the same rows with the same message, instead of printing -5.00, a dash or gnuplot's error.
GBPS_COLUMNS = ("gbps_median", "gbps_mean", "gbps_min", "gbps_max", "gbps_ci_low",
                "gbps_ci_high")  # read_gbps is 0 where nothing is read
GBPS_MAX = 1e6  # 1 PB/s: above any memory system's aggregate store rate
# A `storebench load` time series: its rates may be 0 (nothing read at rw 100), never negative,
# nan or inf, and its times only go forward.
LOAD_GBPS_COLUMNS = ("read_gbps", "write_gbps", "total_gbps", "thread_min_gbps")


def _load_row_problem(row, last_t):
    """Why a load series' row is not one storebench writes ('' when it is), and its time."""
    for c in LOAD_GBPS_COLUMNS:
        try:
            v = float(row.get(c, "0") or "0")
        except ValueError:
            v = float("nan")
        if not 0 <= v < GBPS_MAX:
            return "%s '%s' is no rate (want GB/s from 0 to %g)" % (c, row.get(c), GBPS_MAX), None
    try:
        t = float(row["t_s"])
    except ValueError:
        t = float("nan")
    if not t > (last_t if last_t is not None else float("-inf")) or t == float("inf"):
        return "t_s '%s' does not follow %s (times only go forward)" % (row["t_s"], last_t), None
    return "", t


def _plausible_gbps(text):
    try:
        v = float(text)
    except ValueError:
        return False
    return 0 < v < GBPS_MAX  # also false for nan and inf


def load(path, required=()):
    """Read path; metadata lines are '# key=value' anywhere in the file, before the header or
    between and after the rows (other '#' lines are kept out of the way as comments).  Raises
    CsvError for a missing, empty, header-only or malformed file, or one lacking a column named
    in required."""
    try:
        data = inputs.read_regular(path, inputs.CSV_LIMIT)
    except inputs.InputError as e:
        raise CsvError("%s: %s%s" % (path, e, ", not a CSV" if str(e) == "is a directory" else ""))
    lines = [_decode(path, n, raw) for n, raw in enumerate(data.splitlines(), 1)]
    meta, meta_lines, body, where = {}, [], [], []
    for lineno, line in enumerate(lines, 1):
        if line.startswith("#"):
            key, eq, value = line[1:].strip().partition("=")
            if eq and key.strip():
                meta[key.strip()] = value.strip()
                meta_lines.append((key.strip(), value.strip()))
            continue
        if line.strip():
            body.append(line)
            where.append(lineno)  # the file's line, as an editor shows it
    if not body:
        raise CsvError("%s: empty CSV (no header line)" % path)
    reader = csv.reader(body)
    columns = [c.strip() for c in next(reader)]
    if len(set(columns)) != len(columns) or "" in columns:
        raise CsvError("%s: malformed header (empty or repeated column names)" % path)
    rows, seen, last_t = [], {}, None
    for fields in reader:
        line = where[min(reader.line_num, len(where)) - 1]  # the row's last line in the file
        if len(fields) != len(columns):
            raise CsvError("%s: line %d has %d fields, the header (line %d) has %d" % (
                path, line, len(fields), where[0], len(columns)))
        row = dict(zip(columns, fields))
        # storebench writes one row a point: a second one is two files pasted together or an
        # edit, and every reader would merge the two differently
        point = row.get("point")
        if point and point in seen:
            raise CsvError("%s: lines %d and %d are the same point %s (storebench writes one "
                           "row a point)" % (path, seen[point], line, point))
        if point:
            seen[point] = line
        for c in GBPS_COLUMNS:
            v = row.get(c, "")
            if v and not _plausible_gbps(v):
                raise CsvError("%s: line %d: %s '%s' is no bandwidth (want GB/s above 0 and "
                               "below %g)" % (path, line, c, v, GBPS_MAX))
        if "t_s" in row:
            why, last_t = _load_row_problem(row, last_t)
            if why:
                raise CsvError("%s: line %d: %s" % (path, line, why))
        rows.append(row)
    if not rows:
        raise CsvError("%s: no data rows (header only)" % path)
    run = Run(path, meta, columns, rows, meta_lines)
    run.require(required)
    return run


def rewrite(src, dst, change):
    """Write src's CSV to dst with change(row) applied to each data row (a dict by column, changed
    in place); metadata lines, blank lines and the header stay as they were, where they were."""
    with open(src, newline="") as f:
        lines = f.read().splitlines(keepends=True)
    out, header = [], None
    for line in lines:
        if line.startswith("#") or not line.strip():
            out.append(line)
            continue
        fields = next(csv.reader([line]))
        if header is None:
            header = fields
            out.append(line)
            continue
        row = dict(zip(header, fields))
        change(row)
        buf = io.StringIO()
        csv.writer(buf, lineterminator="\n").writerow([row.get(c, "") for c in header])
        out.append(buf.getvalue())
    with open(dst, "w", newline="") as f:
        f.writelines(out)
