#!/usr/bin/env python3
# csv_schema_test.py — results/README.md's column table must list exactly bench/output/csv_columns.def's
# columns, in order, each with a unit and a meaning: the documented schema cannot drift from code.
# Usage: csv_schema_test.py <csv_columns.def> <results/README.md>
import re
import sys


def def_columns(path):
    cols = []
    with open(path) as f:
        for line in f:
            m = re.match(r"\s*COLUMN\(\s*([a-z0-9_]+)\s*,", line)
            if m:
                cols.append(m.group(1))
    return cols


def readme_rows(path):
    rows, in_table = [], False
    with open(path) as f:
        for line in f:
            if line.startswith("## "):
                in_table = line.strip() == "## CSV columns"
                continue
            if not in_table or not line.startswith("|"):
                continue
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if cells[0] in ("column", "") or set(cells[0]) <= set("-:"):
                continue
            rows.append(cells)
    return rows


def main():
    cols = def_columns(sys.argv[1])
    rows = readme_rows(sys.argv[2])
    names = [r[0] for r in rows]
    errors = []
    if not cols:
        errors.append("no COLUMN rows in " + sys.argv[1])
    for c in cols:
        if c not in names:
            errors.append(f"column {c} is in csv_columns.def but not in the README table")
    for n in names:
        if n not in cols:
            errors.append(f"README table lists {n}, which csv_columns.def does not have")
    if not errors and names != cols:
        errors.append("README table order differs from csv_columns.def: " + ",".join(names))
    for r in rows:
        if len(r) != 3 or not r[1] or not r[2]:
            errors.append(f"README row for {r[0]} needs: name | unit | meaning")
    for e in errors:
        print("FAIL:", e)
    if errors:
        return 1
    print(f"ok: {len(cols)} columns documented in order")
    return 0


sys.exit(main())
