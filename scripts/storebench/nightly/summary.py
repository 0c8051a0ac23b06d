# storebench/nightly/summary.py — summary.md of a nightly run, plus the plot and trend steps it links to.
# Python 3 standard library; reads the run's CSV through storebench.reader (the one CSV reader).
# Why: a red CI light is only useful when the page behind it says which point moved, how sure it is.
"""Write RUN/summary.md from the gate result (scripts/nightly) and the run's CSV metadata."""

import math
import os
import shutil
import subprocess
import sys

from storebench import reader
from storebench.nightly import changes, gate

# Metadata shown in the summary's heading table; the full list follows in a folded table.
HEADLINE_KEYS = ("utc_time", "host", "cpu_brand", "cpu_codename", "cpu_family", "cpu_model",
                 "cpu_stepping", "cpu_microcode", "online_cpus", "numa_nodes", "kernel",
                 "glibc_version", "glibc_tunables", "thp_enabled", "tsc_hz", "compiler", "git_sha",
                 "benchmark_version", "preset", "repetitions", "min_time_s", "inject_slowdown_pct",
                 "diagnostic", "quality_profile")
MAX_ROWS = 30  # of a non-gating section; regressions and improvements are always listed in full
SECTIONS = (("regression", "Regressions (confirmed)"),
            ("unconfirmed", "Unconfirmed (looked regressed, not confirmed; not gated)"),
            ("improvement", "Improvements"),
            ("shifted", "Moved with the machine-wide change (not gated)"),
            ("noisy", "Noisy points (not gated)"),
            ("untested", "Not tested (too few repetitions)"))


def make_plots(root, csv_path, out_dir):
    """scripts/plot's PNGs for this run, relative to the run folder; [] if absent or failing."""
    plot = os.path.join(root, "scripts", "plot")
    if not os.access(plot, os.X_OK):
        return []
    r = subprocess.run([plot, "-o", out_dir, csv_path], capture_output=True, text=True)
    if r.returncode != 0:
        sys.stderr.write("scripts/nightly: scripts/plot failed (plots skipped): %s\n"
                         % (r.stderr.strip().splitlines() or ["?"])[-1])
        return []
    run_dir = os.path.dirname(csv_path)
    found = []
    for dirpath, _, files in os.walk(out_dir):
        found += [os.path.relpath(os.path.join(dirpath, f), run_dir)
                  for f in files if f.endswith(".png")]
    return sorted(found)


def make_trend(root, machine_dir, specs, run_dir):
    """RUN/trend.png over every complete run plus this one (a snapshot that travels with the run
    folder), copied to MACHINE/trend.png (the latest); its path from run_dir, None on failure."""
    cmd = [os.path.join(root, "scripts", "trend"), "--include", run_dir,
           "-o", os.path.join(run_dir, "trend"), machine_dir]
    for s in specs:
        cmd += ["--point", s]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        sys.stderr.write("scripts/nightly: trend plot skipped: %s\n"
                         % (r.stderr.strip().splitlines() or ["?"])[-1])
        return None
    for ext in ("png", "svg", "tsv"):
        shutil.copyfile(os.path.join(run_dir, "trend." + ext),
                        os.path.join(machine_dir, "trend." + ext))
    return "trend.png"


def _pct(v):
    return "—" if v is None else "%.1f%%" % (100 * v)


def _num(v, fmt):
    return "—" if v is None else fmt % v


def _moved(p):
    """What the gate judged a point on: its paired ratio to memset, else its GB/s ratio."""
    return p.get("paired", {}).get("ratio") or p["ratio"] or 1.0


def _point_table(points):
    out = ["| point | baseline GB/s | GB/s | ratio | vs memset | p | cv base | cv new | note |",
           "|---|---:|---:|---:|---:|---:|---:|---:|---|"]
    for p in sorted(points, key=_moved):
        out.append("| `%s` | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            p["name"], _num(p["gbps_base"], "%.2f"), _num(p["gbps_new"], "%.2f"),
            _num(p["ratio"], "%.3f"), _num(p.get("paired", {}).get("ratio"), "%.3f"),
            _num(p["p"], "%.4f"), _pct(p["cv_base"]), _pct(p["cv_new"]), p["why"]))
    return out


def write(path, res, csv_path, plots, trend):
    """summary.md of a night: res the gate's result, plots the run's plot paths (None: not
    drawn, --no-plots), trend the trend plot's path or None."""
    try:
        meta = reader.load(csv_path).meta
    except reader.CsvError as e:
        meta = {"error": str(e)}
    pts = res["points"]
    count = {st: sum(p["status"] == st for p in pts)
             for st in ("regression", "unconfirmed", "improvement", "noisy", "shifted")}
    L = ["# storebench nightly: %s, %s" % (res["machine_id"], res["label"]), ""]
    if res.get("different_machine"):
        # First, before any verdict: the comparison is across machines, software or shapes.
        L.append("**Different machine: gated against a baseline that differs in %s "
                 "(--allow-different-machine).**" % ", ".join(
                     "%s (`%s` vs `%s`)" % tuple(d) for d in res["different_machine"]))
        L.append("")
    if res.get("diagnostic"):
        L.append("**Diagnostic run (%s): its numbers are bent on purpose; never a baseline.**"
                 % res["diagnostic"])
        L.append("")
    if res.get("machine_shift"):
        L.append("**Machine-wide change: %s.** Each point is judged by how it moved against "
                 "it (ratio / %.3f)." % (res["machine_shift"]["note"],
                                         res["machine_shift"]["median"]))
        L.append("")
    if res.get("error"):
        L.append("**Not gated** (exit status %d): %s." % (res["exit"], res["error"]))
        if res.get("too_noisy"):
            L.append("")
            L.append("This run is kept but never used as a baseline (its record is "
                     "not-a-baseline.json, not gate.json).")
    elif not res["baseline"]:
        L.append("**No baseline**: no earlier good run of this machine id%s. Exit status 0."
                 % ("" if res.get("diagnostic") else "; this one is the next run's baseline"))
    else:
        L.append("**%s** (exit status %d): %d points ran, %d compared: %d regressed (confirmed), "
                 "%d unconfirmed, %d improved, %d noisy%s."
                 % ("REGRESSION" if count["regression"] else "MACHINE CHANGED"
                    if res["exit"] == gate.MACHINE_CHANGED else "Inconclusive"
                    if res["exit"] == gate.INCONCLUSIVE else "No regression", res["exit"],
                    res["points_run"], len(pts), count["regression"], count["unconfirmed"],
                    count["improvement"], count["noisy"],
                    ", %d moved with the machine" % count["shifted"] if count["shifted"] else ""))
        if res["only_base"]:
            L.append("")
            L.append("**%d point(s) of the baseline were not measured tonight** (a kernel the CPU "
                     "or OS no longer offers, or a smaller sweep); see the end of this page."
                     % len(res["only_base"]))
    lim = res["limits"]
    L += ["",
          "- baseline: %s" % ("`%s` (%s)" % (res["baseline"], res.get("baseline_label", "pinned"))
                              if res["baseline"] else "none"),
          ] + ["- skipped as a baseline: %s: %s" % s for s in res.get("skipped_baselines", [])] + [
          "- gate (--profile %s): regression = a kernel's paired ratio to memset more than "
          "%g%% below the baseline's with the 95 %% intervals apart (memset, or a run without "
          "rounds: compare.py U-test p < %g **and** median GB/s more than that below the "
          "baseline), of good quality in both runs (cv ≤ %g%%, CPU share ≥ %g; limits from "
          "%s), below its last nights, its whole kernel more than %g%% apart from the kernels "
          "beside it (the median over its points, against its last %d good nights) and more "
          "than %g robust deviations below tonight's kernels, not within %g%% of where it "
          "stood on one of its last nights (a state seen), **and** "
          "confirmed by a re-measurement beside memset or "
          "a stable neighbour; more than %g%% of this run's points flagged gate nothing (%s); a "
          "point flagged in either run is 'noisy' in the tables, not gated"
          % (res["profile"], 100 * lim["threshold"], lim["alpha"], 100 * lim["cv_max"],
             lim["cpu_share_min"], lim["source"], 100 * lim["kernel_threshold"],
             gate.KERNEL_REFERENCE_NIGHTS, lim["kernel_outlier_z"],
             100 * (lim.get("kernel_state_margin") or 0), res["noisy_max"],
             "here %d of %d" % tuple(res["run_noisy"]) if res.get("run_noisy") else "not counted"),
          "- re-measurement: %s" % (res.get("confirm") or "nothing looked regressed"),
          "- ratio = median GB/s of this run / median GB/s of the baseline (< 1 is slower); "
          "vs memset = this run's paired ratio to memset / the baseline's; p = compare.py's "
          "two-sided Mann-Whitney p over the repetitions; cv of the repetitions' batch times",
          "- budget %d s, wall %.0f s, %d points ran; %s%s" % (
              res["budget_s"], res["wall_s"], res["points_run"], res["shape"],
              "; **stopped at the budget** (later points missing)" if res["budget_stop"] else ""),
          "- storebench run arguments: `%s`" % " ".join(res["storebench_args"]),
          "- files: [nightly.csv](nightly.csv), [nightly.json](nightly.json)%s, run.log"
          % (", [compare.txt](compare.txt) (compare.py's table; its times are %s)" % gate.NS_PER_MB
             if res["baseline"] else ""),
          ""]
    for status, title in SECTIONS:
        sel = [p for p in pts if p["status"] == status]
        if sel or status == "regression":
            L += ["## %s (%d)" % (title, len(sel)), ""]
            shown = sel
            if status not in ("regression", "unconfirmed") and len(sel) > MAX_ROWS:
                # the ones that moved most first; every point is in gate.json
                shown = sorted(sel, key=lambda p: -abs(math.log(_moved(p))))[:MAX_ROWS]
            L += _point_table(shown) if sel else ["none"]
            if len(shown) < len(sel):
                L += ["", "%d more in [gate.json](gate.json)." % (len(sel) - len(shown))]
            L.append("")
    kernels = res.get("kernels") or {}
    if kernels:
        # the kernel rule's figures: how far each kernel stood apart from its groups tonight
        scatter = res.get("kernel_scatter")
        top = lim.get("kernel_scatter_max")
        L += ["## Kernels farthest from the kernels beside them (%d judged; a kernel fails "
              "below %.3f and more than %.1f robust deviations below tonight's kernels, "
              "where it stood on none of its last nights; "
              "tonight's moves scatter %s%s)" % (
                  len(kernels), 1 - lim["kernel_threshold"], lim["kernel_outlier_z"],
                  "?" if scatter is None else "%.1f %%" % (100 * scatter),
                  "" if top is None else
                  ", **too disturbed to judge one kernel** (more than %.1f %%)" % (100 * top)
                  if gate.too_disturbed(scatter, lim) else
                  ", judged up to %.1f %%" % (100 * top)), "",
              "| kernel | move against the kernels beside it | robust deviations from tonight's "
              "kernels | against the night it stood nearest on (a state seen within %.0f %%) "
              "| points |" % (100 * (lim.get("kernel_state_margin") or 0)),
              "|---|---|---|---|---|"]
        L += ["| %s | %.3f | %s | %s | %d |" % (
            k, m["ratio"], "—" if m.get("z") is None else "%+.1f" % m["z"],
            "—" if m.get("nearest") is None else "%.3f%s" % (
                m["nearest"], " (seen)" if gate.seen_state(m, lim) else ""), m["points"])
            for k, m in sorted(kernels.items(), key=lambda km: abs(math.log(km[1]["ratio"])),
                               reverse=True)[:5]]
        L.append("")
    if "changes" in res:
        # over the machine's last nights and tonight (storebench/nightly/changes.py)
        new = {(c["series"], c["night"]) for c in res["changes_new"]}
        L += ["## Changes over nights (%d; new tonight %d)" % (len(res["changes"]), len(new)),
              ""]
        L += ["- %s%s" % (changes.note(c), " **(new tonight)**" if (c["series"], c["night"])
                          in new else "") for c in res["changes"]] or ["none"]
        L.append("")
    calm = [p for p in pts if p["status"] == "unchanged" and p["ratio"]]
    if calm:
        # how close the unchanged points came: the margin the threshold left tonight
        L += ["## Largest changes that did not count (%d unchanged)" % len(calm), ""]
        L += _point_table(sorted(calm, key=lambda p: -abs(math.log(_moved(p))))[:5])
        L.append("")
    if res["only_base"] or res["only_new"]:
        L += ["## Points in one run only", ""]
        L += ["- only in the baseline: %s" % (", ".join("`%s`" % n for n in res["only_base"])
                                               or "none"),
              "- only in this run: %s" % (", ".join("`%s`" % n for n in res["only_new"])
                                          or "none"), ""]
    L += ["## Machine", "", "| key | value |", "|---|---|"]
    L += ["| %s | %s |" % (k, meta[k]) for k in HEADLINE_KEYS if k in meta]
    L += ["", "<details><summary>all metadata of this run</summary>", "",
          "| key | value |", "|---|---|"]
    L += ["| %s | `%s` |" % (k, v.replace("|", "\\|")) for k, v in meta.items()]
    L += ["", "</details>", "", "## Plots", ""]
    if trend:
        L.append("![trend over the runs of %s](%s)" % (res["machine_id"], trend))
        L.append("")
    if plots is None:
        L.append("no plots of the run (--no-plots)")
    else:
        L += ["- [%s](%s)" % (os.path.basename(p), p) for p in plots] or [
            "no plots (scripts/plot absent or failed)"]
    with open(path, "w") as f:
        f.write("\n".join(L) + "\n")
