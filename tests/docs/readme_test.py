#!/usr/bin/env python3
# readme_test.py — the figures README.md, docs/ci.md and docs/glibc.md quote from committed runs,
# recomputed from the files they cite.  Python 3 standard library and storebench.reader (the one CSV reader).
# Why: a number in the README is a claim; it must be what the run it names measured (issue 21.20).
"""usage: readme_test.py REPO_ROOT

Each entry below is a piece of README.md (or docs/ci.md) text with figures in it, the committed
files it cites, and the function that recomputes those figures from the files: the test fails
when the text is no longer in the page, or when the files no longer give its figures.  Every
plot README embeds must be what today's scripts/plot draws from the CSV it was drawn from.
"""

import filecmp
import itertools
import os
import re
import statistics
import subprocess
import sys
import tempfile

ROOT = sys.argv[1]
sys.path.insert(0, os.path.join(ROOT, "scripts"))
from storebench import reader  # noqa: E402
from testlib import Checker  # noqa: E402

check = Checker()
RUNS = os.path.join(ROOT, "results", "turin-vm")


def runs(*stamps):
    return [reader.load(os.path.join(RUNS, "20261203T%sZ.csv" % s)) for s in stamps]


def group(r):
    return (r["call_bytes"], r["ws_bytes"], r["threads"], r["rw_ratio"])


def winner_sets(run):
    """{point: in/out/open} of a run's rows."""
    return {r["point"]: r["winner_set"] for r in run.rows}


def decided(run):
    """(groups decided, groups) from the run's winner_sets metadata."""
    entries = [e.split() for e in run.meta["winner_sets"].split(",") if e]
    return sum(e[1] == "decided" for e in entries), len(entries)


def twin_apart(run):
    """Groups in which memset_twin and memset were put on opposite sides (in / out, or one the
    best and the other on the edge below it); "-" for a run without memset_twin."""
    by = {}
    for r in run.rows:
        if r["kernel"] in ("memset", "memset_twin"):
            by.setdefault(group(r), {})[r["kernel"]] = (r["winner_set"], r["group_rank"] == "1")
    pairs = [list(v.values()) for v in by.values() if len(v) == 2]
    if not pairs:
        return "-"
    return str(sum({a, b} == {"in", "out"} or (a_best and b == "edge") or (b_best and a == "edge")
                   for (a, a_best), (b, b_best) in pairs))


def contradictions(rs):
    """Points in in one run and out in another, over every pair of runs."""
    sets = [winner_sets(r) for r in rs]
    return sum({a[p], b[p]} == {"in", "out"} for a, b in itertools.combinations(sets, 2)
               for p in a if p in b)


def memset_coverage(rs):
    """The share of (row, other run) pairs whose vs_memset interval holds the other run's
    ratio."""
    ratio = [{r["point"]: float(r["vs_memset_ratio"]) for r in x.rows if r["vs_memset_ratio"]}
             for x in rs]
    held = []
    for i, x in enumerate(rs):
        for r in x.rows:
            if r["vs_memset_ci_low"]:
                held += [float(r["vs_memset_ci_low"]) <= m[r["point"]] <=
                         float(r["vs_memset_ci_high"]) for j, m in enumerate(ratio)
                         if j != i and r["point"] in m]
    return "%.0f %%" % (100 * statistics.mean(held))


def night(name):
    with open(os.path.join(RUNS, "nights-20261202", name, "summary.md")) as f:
        head = f.read(4000)
    if "**No baseline**" in head and "Exit status 0." in head:
        return 0, 0  # the first night: nothing to gate against
    m = re.search(r"\*\*([A-Za-z ]+)\*\* \(exit status (\d)\)(?:: \d+ points ran, \d+ compared: "
                  r"(\d+) regressed)?", head)
    return (int(m.group(2)), int(m.group(3) or 0)) if m else (None, None)


QUICK = ("184327", "184445", "184603")
SIX = ("184734", "184851", "184952")


def answer_runs(stamps):
    return [reader.load(os.path.join(RUNS, "20261206T%sZ.csv" % s)) for s in stamps]


def answer_rows():
    """The answer table: per command, groups decided and open kernels per run, the A/A control,
    contradictions between runs and the vs-memset intervals' hold on the other runs."""
    out = []
    for stamps in (QUICK, SIX):
        rs = answer_runs(stamps)
        counts = [decided(r) for r in rs]
        twins = {twin_apart(r) for r in rs}
        out.append("| %s of %d | %s | %s | %d | %s |" % (
            ", ".join(str(d) for d, _ in counts), counts[0][1],
            ", ".join(str(sum(v == "open" for v in winner_sets(r).values())) for r in rs),
            "-" if twins == {"-"} else ", ".join(twin_apart(r) for r in rs),
            contradictions(rs), memset_coverage(rs)))
    return out


def entries(run):
    """The winner_sets entries of a run, each split: group, answer, in, [edge,] open."""
    return [e.split() for e in run.meta["winner_sets"].split(",") if e]


def call_of(entry):
    return int(entry[0].split("/")[0].split(":")[1])


def answer_sentences():
    """The figures of the answer section's prose, from the same runs as its table."""
    quick, six = answer_runs(QUICK), answer_runs(SIX)
    best = lambda run, sizes: [float(r["vs_memset_ratio"]) for r in run.rows  # noqa: E731
                               if r["group_rank"] == "1" and int(r["call_bytes"]) in sizes
                               and r["vs_memset_ratio"]]
    l1d = [100 * (x - 1) for run in six for x in best(run, (8192, 16384, 32768))]
    l2 = [100 * (x - 1) for run in six for x in best(run, (128 << 10, 256 << 10, 512 << 10))]
    sets = lambda run, sizes: [e[2] for e in entries(run) if call_of(e) in sizes]  # noqa: E731
    check(all(sets(run, (8 << 10, 16 << 10, 32 << 10)) == ["avx2_t_u4"] * 3 for run in six),
          "in L1d avx2_t_u4 alone is the winner set of every 6-kernel run")
    check(all(sets(run, (2 << 20, 4 << 20)) == ["memset+rep_stosb"] * 2 for run in six) and
          [sets(run, (1 << 20,)) for run in six] == [
              ["memset+rep_stosb"], ["memset+rep_stosb+avx2_t_u4+avx512_t_u2"],
              ["memset+rep_stosb"]],
          "at 2 and 4 MiB memset and rep_stosb in every 6-kernel run, at 1 MiB the AVX stores "
          "beside them in the second")
    at128 = [sets(run, (128 << 20,)) for run in six]
    check(at128 == [["avx2_t_u4"], ["memset+rep_stosb"], ["memset+rep_stosb+avx2_nt_u4"]],
          f"128 MiB: avx2_t_u4, then memset and rep_stosb, then those with avx2_nt_u4: {at128}")
    # the 2-thread rep stos state: memset at 6 MiB fast in the first quick run, half in the rest
    at6 = [float(r["gbps_median"]) for run in quick for r in run.rows
           if r["point"] == "memset/call:6291456/ws:6291456/threads:2/rw:100"]
    # how far a point moved over the three quick runs: its median GB/s, its ratio to memset
    def moved(key):
        vals = [{r["point"]: float(r[key]) for r in run.rows if r[key]} for run in quick]
        common = set.intersection(*(set(v) for v in vals))
        spread = sorted(max(v[p] for v in vals) / min(v[p] for v in vals) - 1 for p in common)
        return 100 * statistics.median(spread), 100 * spread[int(0.9 * (len(spread) - 1))]
    gb, ratio = moved("gbps_median"), moved("vs_memset_ratio")
    medians = [{r["point"]: float(r["gbps_median"]) for r in run.rows} for run in quick]
    held = [float(r["gbps_ci_low"]) <= m[r["point"]] <= float(r["gbps_ci_high"])
            for i, run in enumerate(quick) for r in run.rows if r["gbps_ci_low"]
            for j, m in enumerate(medians) if j != i]
    undecided = [[e for e in entries(run) if e[1] != "decided"] for run in quick]
    return ["%s %% over memset; in L2 (64-512 KiB) avx512_t_u2 (beside avx2_t_u4 in the first "
            "run), %s %% over memset at 128-512 KiB" % (
                span(l1d, "%.0f"), span(l2, "%.0f")),
            "stored %.0f GB/s at 6 MiB in the first quick run" % at6[0],
            "and %s GB/s in the next two" % span(at6[1:], "%.0f"),
            "leave %s groups a run undecided" % span([len(g) for g in undecided], "%d"),
            "moved by %.0f %% (the median over points; %.0f %% at the 90th percentile)" % gb,
            "held another run's median at %.0f %% of points" % (100 * statistics.mean(held)),
            "moved hardly less, %.0f %% (%.0f %%)" % ratio]


def nights_sentence():
    got = [night("2026-12-02" + ("" if n == 1 else "-%d" % n)) for n in range(1, 12)]
    check(all(g == (0, 0) for g in got[:10]), f"nights 1-10 exit 0 with no regression: {got}")
    check(got[10][0] == 1, f"night 11 exits 1: {got[10]}")
    return ["rep_stosb`, exited 1 with %d confirmed regressions" % got[10][1]]


def span(values, fmt):
    """'191-197': the range of VALUES in FMT, one number when both ends print the same."""
    lo, hi = fmt % min(values), fmt % max(values)
    return lo if lo == hi else "%s-%s" % (lo, hi)


def result_section():
    """The figures of "What a result looks like", from the run it shows."""
    run = reader.load(os.path.join(RUNS, "20261203T034314Z.csv"))
    one = {(r["kernel"], int(r["ws_bytes"])): r for r in run.rows
           if r["threads"] == "1" and r["rw_ratio"] == "100"}
    kib = lambda *n: [x * 1024 for x in n]  # noqa: E731
    gbps = lambda k, sizes: [float(one[(k, s)]["gbps_median"]) for s in sizes]  # noqa: E731
    ratio = lambda k, sizes: [float(one[(k, s)]["vs_memset_ratio"]) for s in sizes]  # noqa: E731
    verdicts = lambda k, sizes: {one[(k, s)]["vs_memset_verdict"] for s in sizes}  # noqa: E731
    l1, l2 = kib(12, 24), kib(192, 384)
    upto12m = [s for s in sorted({s for _, s in one}) if s <= 12 << 20]
    dram = kib(48 << 10, 96 << 10, 128 << 10)
    check(verdicts("avx512_t_u8", l1 + l2) == {"decided"}, "avx512_t_u8 in L1d/L2 decided")
    check(verdicts("rep_stosq", upto12m) == {"undecided"}, "rep_stosq to 12 MiB undecided")
    check(verdicts("avx512_nt_u1", dram) == {"undecided"}, "NT in DRAM undecided")
    check(one[("rep_stosq", 24 << 20)]["vs_memset_verdict"] == "decided", "rep_stosq 24 MiB")
    flagged = sum(r["quality"] != "ok" for r in run.rows)
    reasons = {r["quality"] for r in run.rows} - {"ok"}
    return ["quick preset, %d points" % len(run.rows),
            "%d points flagged (`%s`)" % (flagged, ", ".join(sorted(reasons))),
            "writes\n%s GB/s, %s x memset" % (span(gbps("avx512_t_u8", l1), "%.0f"),
                                             span(ratio("avx512_t_u8", l1), "%.2f")),
            "in L2 (192 and 384 KiB) %s GB/s, %s x" % (span(gbps("avx512_t_u8", l2), "%.0f"),
                                                      span(ratio("avx512_t_u8", l2), "%.2f")),
            "within %s of each other" % span(ratio("rep_stosq", upto12m), "%.2f"),
            "rep_stosq leads memset %.2f x" % float(one[("rep_stosq", 24 << 20)]["vs_memset_ratio"]),
            "match memset (%s, undecided) at %s GB/s" % (
                span(ratio("avx512_nt_u1", dram), "%.2f"),
                span(gbps("avx512_nt_u1", dram) + gbps("memset", dram), "%.0f")),
            "falls to %s of it" % span(ratio("avx512_t_u8", dram), "%.2f"),
            "run at %s of memset" % span(ratio("avx512_nt_u1", upto12m), "%.2f")]


def session_figures():
    """The figures of the march table, memset_const's C rows and storebench load (2026-12-04)."""
    def at(stamp):
        return reader.load(os.path.join(RUNS, "20261204T%sZ.csv" % stamp))

    run = at("183102")
    gb = {(r["kernel"], int(r["ws_bytes"])): float(r["gbps_median"]) for r in run.rows}
    width = {r["kernel"]: int(r["width_bytes"]) for r in run.rows}
    hand = lambda k, ws: max(v for (h, w), v in gb.items()  # noqa: E731
                             if w == ws and not h.startswith("cc_") and h != "memset" and
                             width[h] == width[k])
    levels = ("cc_x86_64", "cc_v2", "cc_v3", "cc_v4")
    big = max(w for _, w in gb)
    l2 = ", ".join("%.2f" % (gb[(k, 512 << 10)] / hand(k, 512 << 10)) for k in levels)
    mem = span([gb[(k, big)] / hand(k, big) for k in levels], "%.2f")
    const = at("172048")
    ticks = {(r["kernel"], int(r["call_bytes"])): float(r["ticks_per_call_median"])
             for r in const.rows if r["ws_mode"] == "hot"}
    saves = [100 * (1 - ticks[("memset_const", n)] / ticks[("memset", n)]) for n in (6, 64, 128, 192)]

    def load(stamp, key):
        return float(reader.load(os.path.join(RUNS, "20261204T%sZ-load.csv" % stamp)).meta[key])

    return ["%s in L2, %s at 1 GiB" % (l2, mem),
            "6 C: %.1f ticks against %.1f" % (ticks[("memset_const", 6)], ticks[("memset", 6)]),
            "the constant size saves %s %% up to 192 bytes" % span(saves, "%.0f"),
            "memset wrote %.1f GB/s and read as much (min %.1f, max %.1f" % (
                load("174544", "summary_write_gbps_mean"), load("174544", "summary_write_gbps_min"),
                load("174544", "summary_write_gbps_max")),
            "avx512_nt_u4 %.1f (%.1f to" % (load("174618", "summary_write_gbps_mean"),
                                            load("174618", "summary_write_gbps_min")),
            "storebench wrote %.1f and read %.1f GB/s per second of the run" % (
                load("174830", "summary_write_gbps_mean"), load("174830", "summary_read_gbps_mean"))]


def levels_of(path):
    """{threads: [L1d, L2, L3 bytes, L1d, L2, L3, DRAM ns]} of a kept levels file's entries."""
    entry = {}
    with open(path) as f:
        for line in f:
            field = line.rstrip("\n").split("\t")
            if field[0] == "entry":
                entry[int(field[1])] = [int(v) for v in field[4:7]] + [float(v) for v in field[7:11]]
    return entry


def levels_figures():
    """The measured cache levels of the Turin guest's two kept scans and the quick run between
    them (README: Planning a run)."""
    entry = levels_of(os.path.join(ROOT, "tests", "fixtures", "levels", "turin-vm-2vcpu.levels"))
    later = levels_of(os.path.join(RUNS, "20261206T013650Z.levels"))
    quick = reader.load(os.path.join(RUNS, "20261206T005913Z.csv"))
    used = [dict(i.split(":") for i in quick.meta["levels_t%d_used" % t].split(","))["L3"]
            for t in (1, 2)]
    one, two = entry[1], entry[2]
    dram = lambda llc: -(-4 * llc // 4096) * 4096 / 2**20  # noqa: E731 (DRAM_LLC_MULTIPLE x, 4 KiB)
    return ["found L1d %d KiB, L2 %.1f MiB and L3 %.1f MiB at one thread, L3 %.1f MiB a thread at "
            "two (latencies\n%.1f, %.1f, %.1f ns, DRAM %.0f ns)" % (
                one[0] >> 10, one[1] / 2**20, one[2] / 2**20, two[2] / 2**20, one[3], one[4],
                one[5], one[6]),
            "DRAM became %.0f MiB a thread at one\nthread and %.0f MiB at two" % (
                dram(one[2]), dram(two[2])),
            "L3 read %.1f MiB at\none thread and %.1f MiB a thread at two" % (
                later[1][2] / 2**20, later[2][2] / 2**20),
            "L3 measured at\n%.1f MiB and %.1f MiB a thread) ran %d points" % (
                int(used[0]) / 2**20, int(used[1]) / 2**20, len(quick.rows))]


def glibc_page():
    """docs/glibc.md: its variants table is what scripts/table prints from the run it cites, and
    its paired figures are that run's vs_memset columns."""
    csv = os.path.join(RUNS, "20261204T210349Z.csv")
    out = subprocess.run([os.path.join(ROOT, "scripts", "table"), "--section", "libc", "--format",
                          "md", csv], capture_output=True, text=True)
    rows = [l for l in out.stdout.splitlines() if l.startswith("|")]
    check(out.returncode == 0 and len(rows) >= 12, "table --section libc of %s" % csv)
    run = reader.load(csv)

    def vs(kernel, ws):
        r = next(r for r in run.rows if r["kernel"] == kernel and int(r["ws_bytes"]) == ws)
        f = [100 * (float(r[c]) - 1) for c in ("vs_memset_ratio", "vs_memset_ci_low",
                                                 "vs_memset_ci_high")]
        return "%+.1f %% [%+.1f, %+.1f]" % tuple(f)

    return rows + ["avx512_t_u4 over memset\n%s at 24 KiB" % vs("avx512_t_u4", 24576),
                   "libc_avx512 over memset %s at 512 KiB" % vs("libc_avx512", 524288)]


CALIBRATION = os.path.join(RUNS, "aa-nights-20261206-calibration.md")


def calibration_figures():
    """docs/ci.md's calibration: its line, its rows of the scatter limits (all but the 5 %
    column) and its sentence on the whole gate's pairs, as the committed table has them."""
    with open(CALIBRATION) as f:
        lines = f.read().splitlines()
    out = [lines[2]]
    scatter = lines.index(next(ln for ln in lines if ln.startswith("| scatter limit |")))
    for ln in lines[scatter:]:
        m = re.fullmatch(r"\| (\*\*)?([0-9.]+ %|off)(?:\*\*)? \| (\d+) of 1000 \| ([0-9.]+ %) \| "
                         r"(\d+) \| \d+ of \d+ \| (\d+ of \d+) \| (\d+ of \d+) \| "
                         r"(\d+ of \d+) \| (\d+) \| (\d+) \|", ln)
        if not m:
            continue
        head = "**%s** (vm)" % m.group(2) if m.group(1) else m.group(2)
        out.append("| %s | %s |" % (head, " | ".join(m.groups()[2:])))
    text = "\n".join(lines)
    pairs = dict(re.findall(r"\| one kernel (\d+ % slower) \| (\d+) \| \d+ \|", text))
    injected = re.findall(r"\| one kernel \d+ % slower \| \d+ \| (\d+) \|", text)[0]
    aa = re.search(r"^\| (\d+) \| (\d+) \| (\d+) \| ([0-9.]+ %) \| (\d+) \| (\d+) \| 0 \| "
                   r"(\d+) \|$", text, re.M)
    n, quiet, alarm, upper, slower, faster, disturbed = aa.groups()
    out.append("The whole gate over the %s pairs of a night and the one before it: %s quiet, "
               "%s false alarms (upper 95 %% %s), %s inconclusive, %s machine-wide slowdown "
               "(exit 3), %s speed-ups" % (n, quiet, alarm, upper, disturbed, slower, faster))
    out.append("Over %s pairs with the changes injected: the 20 %% slowdown caught in %s, 30 %% "
               "in %s, every point 20 %% and 40 %% slower one event in %s and %s" % (
                   injected, pairs["20 % slower"], pairs["30 % slower"],
                   *re.findall(r"\| every point \d+ % slower: one machine-wide event \| (\d+) \|",
                               text)))
    return out


def embedded_plots(readme):
    """Every plot README embeds is what today's scripts/plot draws from the CSV beside its folder
    (gnuplot's PNG is byte for byte the same from the same input on Debian 12): a change to the
    plots that leaves the README's picture behind fails here until it is drawn again."""
    for png in re.findall(r"!\[[^]]*\]\((results/[^)]+-plots/[^)]+\.png)\)", readme):
        folder, name = os.path.split(png)
        csv = os.path.join(ROOT, folder[:-len("-plots")] + ".csv")
        with tempfile.TemporaryDirectory() as tmp:
            r = subprocess.run([os.path.join(ROOT, "scripts", "plot"), csv, "-o", tmp, "--only",
                                name.split("-")[0], "--format", "png"],
                               capture_output=True, text=True)
            drawn = os.path.join(tmp, name)
            same = os.path.isfile(drawn) and filecmp.cmp(drawn, os.path.join(ROOT, png),
                                                         shallow=False)
        check(r.returncode == 0 and same,
              f"README's {png} is not what scripts/plot draws from {os.path.relpath(csv, ROOT)} "
              f"today: draw it again (exit {r.returncode}: {r.stderr.strip()[-200:]})")


def main():
    with open(os.path.join(ROOT, "README.md")) as f:
        readme = f.read()
    with open(os.path.join(ROOT, "docs", "ci.md")) as f:
        ci = f.read()
    with open(os.path.join(ROOT, "docs", "glibc.md")) as f:
        glibc = f.read()
    embedded_plots(readme)
    for text, page, name in ([(t, readme, "README.md") for t in
                              answer_rows() + answer_sentences() + result_section() +
                              session_figures() + levels_figures()] +
                             [(t, ci, "docs/ci.md") for t in
                              nights_sentence() + calibration_figures()] +
                             [(t, glibc, "docs/glibc.md") for t in glibc_page()]):
        # line breaks and indentation are the page's wrapping, not its figures
        check(" ".join(text.split()) in " ".join(page.split()),
              f"{name} does not say what its cited runs give: {text!r}")
    return check.finish("readme figures")


sys.exit(main())
