# storebench/dryrun.py — what `storebench run --dry-run` says of a sweep, read in one place.
# Python 3 standard library.  The binary plans every point (its working set, the cache level it
# lies well inside, `class=`) and every thread count (a thread's share of each cache level at
# that count and placement, `share_<level>=`); scripts that need those numbers ask it here
# rather than recompute a share or a class from the cache sizes.
"""plan(storebench, args) -> [Point]; shares(storebench, threads, args) -> {level key: bytes}."""

import subprocess
from collections import namedtuple

__all__ = ["DryRunError", "Point", "plan", "shares"]

# One planned point: its name, bytes per thread, size class ('between' for none), its thread
# count and that count's shares ({'l1d', 'l2', 'l3', 'llc'} -> bytes, 0 for a level it lacks).
Point = namedtuple("Point", "name ws_bytes cls threads shares")


class DryRunError(Exception):
    """storebench could not plan the sweep; the text is its stderr's last line."""


def _fields(line):
    return dict(w.split("=", 1) for w in line.split("#", 1)[0].split() if "=" in w)


def plan(storebench, args):
    """The points `storebench run --dry-run ARGS` plans, in its order."""
    r = subprocess.run([storebench, "run", "--dry-run", *args], capture_output=True, text=True)
    if r.returncode != 0:
        raise DryRunError("'storebench run --dry-run %s' failed: %s" % (
            " ".join(args), (r.stderr.strip().splitlines() or ["?"])[-1]))
    out, threads, share = [], 0, {}
    for line in r.stdout.splitlines():
        f = _fields(line)
        if line.startswith("threads=") and "share_l1d" in f:
            threads = int(f["threads"])
            share = {k[len("share_"):]: int(v) for k, v in f.items() if k.startswith("share_")}
        elif line.lstrip().startswith("point="):
            out.append(Point(f["point"], int(f["ws_bytes"]), f.get("class", "between"), threads,
                             share))
    return out


def shares(storebench, threads, args=()):
    """A thread's share of each cache level at THREADS threads (ARGS: the placement, a replayed
    machine), from a one-point plan."""
    points = plan(storebench, ["--kernels", "memset", "--call", "4KiB", "--threads", str(threads),
                               *args])
    if not points:
        raise DryRunError("storebench planned no point at %d threads" % threads)
    return points[0].shares
