# storebench/nightly/samples.py — a night's raw samples, kept beside its CSV: every round's GB/s
# of every point, in the order storebench measured them, compressed.
# Python 3 standard library.  Why: a calibration of the gate replays recorded nights (issue 41),
# and the CSV keeps only each point's statistics over its rounds.
"""samples.tsv.xz: one line per round sample, in measurement order, under a header line:
point<TAB>gbps<TAB>cpu_share.  Written from the night's Google Benchmark JSON, whose iteration
entries are the rounds' repetitions as they were measured (rounds shuffle the points, so the
order is the night's time order).  A 3-minute night on the Turin guest, 330 points x 12 rounds:
27 KB against its JSON's 2.9 MB."""

import lzma
import os

from storebench.nightly import gate

NAME = "samples.tsv.xz"
HEADER = ("point", "gbps", "cpu_share")


def write(json_path, out_path):
    """Write json_path's samples to out_path (whole or not at all); how many."""
    doc = gate.load_gbench(json_path)
    lines = ["\t".join(HEADER)]
    for b in doc["benchmarks"]:
        gbps = gate.gbps_of(b)
        if b.get("run_type", "iteration") != "iteration" or not gbps:
            continue
        lines.append("%s\t%.6g\t%.4g" % (gate.point_name(b.get("run_name", b["name"])), gbps,
                                         b.get("cpu_share", 1.0)))
    tmp = out_path + ".part"
    with lzma.open(tmp, "wt", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
    os.replace(tmp, out_path)
    return len(lines) - 1


def read(path):
    """[(point, gbps, cpu_share)] in measurement order; gate.SetupError when unreadable."""
    try:
        with lzma.open(path, "rt", encoding="utf-8") as f:
            head, *body = f.read().splitlines()
    except (OSError, EOFError, lzma.LZMAError, UnicodeDecodeError, ValueError) as e:
        raise gate.SetupError(f"cannot read the samples {path}: {e}")
    if tuple(head.split("\t")) != HEADER:
        raise gate.SetupError(f"{path} is not a samples file (header {head[:60]!r})")
    out = []
    for n, line in enumerate(body, 2):
        f = line.split("\t")
        try:
            out.append((f[0], float(f[1]), float(f[2])))
        except (IndexError, ValueError):
            raise gate.SetupError(f"{path}:{n}: not point, GB/s, cpu share: {line[:60]!r}")
    return out
