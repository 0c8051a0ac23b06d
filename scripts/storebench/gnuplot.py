# storebench/gnuplot.py — run gnuplot on data the driver wrote, with every text passed as data.
# Python 3 standard library + gnuplot 5.4.  Why this shape: a path or a label spliced into a
# gnuplot command is code (a `"` breaks it, a crafted machine name runs commands), so gnuplot runs
# in a private folder on fixed file names, reads the numbers from a data file, and gets each label
# as a single-quoted string literal, the one gnuplot form with no escapes and no macros inside.
"""string(s): a gnuplot literal; write_blocks(path, blocks); run(scripts, defs, cwd)."""

import os
import subprocess

GPDIR = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "gnuplot")
DATA = "series.tsv"  # the data file's name inside the folder gnuplot runs in


class GnuplotError(Exception):
    """gnuplot failed or complained; str(e) is its last stderr line."""


def string(text):
    """A gnuplot string expression that evaluates to text: single-quoted pieces ('' is a quote,
    nothing else is special), joined by "\\n" where text has line breaks; other control
    characters become spaces (a label is one printable line each)."""
    lines = str(text).split("\n")
    clean = ["".join(" " if ord(c) < 32 or ord(c) == 127 else c for c in ln) for ln in lines]
    return ' . "\\n" . '.join("'%s'" % ln.replace("'", "''") for ln in clean)


def _field(v):
    if v is None:
        return "NaN"
    if isinstance(v, float):
        return "%.9g" % v
    return str(v)


def write_blocks(path, blocks):
    """Data file of blocks (gnuplot's `index i`): each a list of tuples of numbers (None: NaN),
    tab-separated, blocks apart by two blank lines.  An empty block keeps its index with one NaN
    row, so block i is always series i."""
    with open(path, "w") as f:
        for block in blocks:
            rows = block or [(None, None)]
            f.write("".join("\t".join(_field(v) for v in row) + "\n" for row in rows))
            f.write("\n\n")


def run(scripts, defs, cwd):
    """gnuplot -e 'defs' GPDIR/script... in cwd; GnuplotError on a failure or any stderr output
    (gnuplot warns on stderr about data it could not use)."""
    proc = subprocess.run(["gnuplot", "-e", "; ".join(defs)] +
                          [os.path.join(GPDIR, s) for s in scripts],
                          cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if proc.returncode != 0 or proc.stderr.strip():
        err = proc.stderr.strip().splitlines()
        raise GnuplotError(err[-1] if err else "exit status %d" % proc.returncode)
