# size_classes.py — the L1/L2/L3/DRAM size classes of scripts/table, importable by other tools.
# Python 3 standard library.  scripts/table has no .py suffix, so it is loaded by path here once;
# trend and compare-cpus then call the very rule the winners table uses, never a copy of it.
"""size_class(ws_bytes, l1, l2, l3) -> "L1" | "L2" | "L3" | "DRAM", and CLASSES in order."""

import importlib.machinery
import importlib.util
import os

_path = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "table")
_loader = importlib.machinery.SourceFileLoader("storebench_table", _path)
_table = importlib.util.module_from_spec(importlib.util.spec_from_loader(_loader.name, _loader))
_loader.exec_module(_table)

size_class = _table.size_class
CLASSES = ("L1", "L2", "L3", "DRAM")


def of_row(run, row):
    """Class of a CSV row: working set per thread against the run's own cache sizes."""
    return size_class(int(float(row["ws_bytes"])), run.cache_bytes("l1d"), run.cache_bytes("l2"),
                      run.cache_bytes("l3"))
