# storebench/labels.py — the name a run goes by in tables and legends.
# Python 3 standard library.  Two hosts with one CPU model must not share a legend entry, and a
# name must say which run it is: machine id and date by default, the user's --label otherwise.
"""default_labels(runs) -> one distinct label per run; LETTERS: the short names of several
inputs side by side (compare-cpus' tables, the overlays' titles and cache marks)."""

import os

# The short name of the i-th input where several stand side by side: A, B, ...
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def default_labels(runs):
    """machine_id + date from each run's metadata (CPU name where there is no machine id); where
    two still match, the CSV's file name, then its path, tells them apart."""
    labels = []
    for run in runs:
        name = run.meta.get("machine_id") or run.cpu_label()
        labels.append(name + (" " + run.date() if run.date() else ""))
    for how in (lambda p: os.path.splitext(os.path.basename(p))[0], os.path.abspath):
        dup = [i for i, lab in enumerate(labels) if labels.count(lab) > 1]
        if not dup:
            break
        for i in dup:
            labels[i] = "%s [%s]" % (labels[i], how(runs[i].path))
    return labels
