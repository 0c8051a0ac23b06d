#!/usr/bin/env python3
# nightly_test.py — scripts/nightly, scripts/trend and scripts/compare-cpus on real storebench runs.
# Python 3 standard library; runs the built storebench with tiny sweeps under a temporary folder.
# Why: the gate must stay quiet on two normal runs and go red on a real, injected slowdown.
"""usage: nightly_test.py REPO_ROOT STOREBENCH usage|gate

usage  bad options, a missing binary, a too-small budget, bad storebench arguments: exit status
       2, one line on stderr, no run folder left behind.
gate   three real runs of a tiny sweep (>= 9 repetitions): the first has no baseline (0), the
       second is gated against it (0), the third with --inject-slowdown is flagged (1); then the
       summary, gate.json, trend plot, a pinned baseline, a baseline with no common point (2),
       the budget guard, and a compare-cpus table over two of the runs.
       When another job shares the CPUs, most points come out noisy (cv > 5%) and nightly,
       rightly, refuses to judge (status 2, "too noisy to gate"); the scenario is then tried
       again, and after three busy attempts the test reports itself skipped (77), never passed.
"""

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

ROOT, STOREBENCH, MODE = sys.argv[1], os.path.abspath(sys.argv[2]), sys.argv[3]
NIGHTLY = os.path.join(ROOT, "scripts", "nightly")
# Kernels every x86-64 CPU runs, sizes in L1 and L2 (least disturbed by a busy neighbour),
# one thread, a short min time: seconds per run, still 9 repetitions from the nightly preset.
# The last allowed CPU: single-thread runs of other jobs default to the first one.
SWEEP = ["--kernels", "memset,rep_stosb,sse2_t_u4", "--call", "16KiB,256KiB", "--threads", "1",
         "--min-time", "0.005", "--placement", "cpus:%d" % max(os.sched_getaffinity(0))]
# The test machine is shared and small: a 15% threshold and a 40% injected slowdown keep the
# verdicts about the gate, not about a neighbour's compile job (whose noise shows as cv > 5%).
GATE = ["--threshold", "15", "--budget", "5m"]
FAILS = []


def check(cond, what):
    if not cond:
        FAILS.append(what)
    return cond


def nightly(tmp, *args):
    r = subprocess.run([NIGHTLY, "--storebench", STOREBENCH, "--results-dir", tmp, *args],
                       capture_output=True, text=True)
    return r


def usage(tmp):
    cases = [
        (["--no-such-option"], "unknown option"),
        (["--budget", "soon"], "not a duration"),
        (["--budget", "0"], "positive"),
        (["--threshold", "-3"], "out of range"),
        (["--alpha", "1.5"], "out of range"),
        (["--machine-id", "a/b"], "--machine-id"),
        (["--baseline", os.path.join(tmp, "none.json")], "no such file"),
        (["--budget"], "needs a value"),
        (["--budget", "3"], "too small"),
        (["--machine-id", "u", "--", "--no-such-storebench-option"], "unknown option"),
    ]
    for args, text in cases:
        r = nightly(tmp, *args)
        lines = r.stderr.strip().splitlines()
        check(r.returncode == 2, f"{args}: exit status 2 (got {r.returncode})")
        check(len(lines) == 1, f"{args}: one line on stderr (got {lines})")
        check(text in r.stderr, f"{args}: stderr names the problem ({text!r}): {r.stderr.strip()}")
    r = subprocess.run([NIGHTLY, "--storebench", os.path.join(tmp, "nope"), "--results-dir", tmp],
                       capture_output=True, text=True)
    check(r.returncode == 2 and "not found" in r.stderr, "missing storebench: exit status 2")
    check(os.listdir(tmp) in ([], ["u"]), f"no run folder left behind: {os.listdir(tmp)}")
    if os.path.isdir(os.path.join(tmp, "u")):
        check(os.listdir(os.path.join(tmp, "u")) == [], "no run folder left for bad arguments")
    r = subprocess.run([NIGHTLY, "--help"], capture_output=True, text=True)
    check(r.returncode == 0 and "--budget" in r.stdout, "--help exits 0 and documents --budget")


def load_gate(run_dir):
    with open(os.path.join(run_dir, "gate.json")) as f:
        return json.load(f)


def measured(tmp, *args):
    """A nightly run that measures: when the machine is too busy to judge, nightly says so
    (status 2, "too noisy to gate") and this attempt cannot show the gate either way."""
    r = nightly(tmp, *args)
    if r.returncode == 2 and "too noisy to gate" in r.stderr:
        raise Busy(r.stderr.strip().splitlines()[-1])
    return r


def run_dir_of(r):
    out = r.stdout.strip().splitlines()
    return out[-1] if out else ""


class Busy(Exception):
    """Most points noisy: the machine is shared right now, the gate cannot be shown either way."""


def mostly_noisy(g):
    pts = g.get("points", [])
    return pts and sum(p["status"] == "noisy" for p in pts) * 2 > len(pts)


def gate(tmp):
    for attempt in range(3):
        FAILS.clear()
        try:
            return gate_once(os.path.join(tmp, str(attempt)))
        except Busy as e:
            print(f"attempt {attempt + 1}: {e}")
    print("SKIP: the machine was busy in three attempts (most points had cv > 5%)")
    shutil.rmtree(tmp)
    sys.exit(77)


def gate_once(tmp):
    os.makedirs(tmp)
    common = ["--machine-id", "gate-test", *GATE, "--"] + SWEEP
    first = measured(tmp, *common)
    if not check(first.returncode == 0,
                 f"first run: exit 0, got {first.returncode}: {first.stderr[-800:]}"):
        return
    d1 = run_dir_of(first)
    for f in ("nightly.csv", "nightly.json", "summary.md", "gate.json", "run.log"):
        check(os.path.isfile(os.path.join(d1, f)), f"first run wrote {f}")
    with open(os.path.join(d1, "summary.md")) as f:
        check("No baseline" in f.read(), "first run's summary says there is no baseline")

    second = measured(tmp, *common)
    d2 = run_dir_of(second)
    check(second.returncode == 0, f"two normal runs: exit 0, got {second.returncode}: "
          f"{second.stderr[-800:]}")
    g2 = load_gate(d2) if os.path.isfile(os.path.join(d2, "gate.json")) else {}
    check(g2.get("baseline") == os.path.join(d1, "nightly.json"),
          "second run's baseline is the first run")
    if mostly_noisy(g2):
        raise Busy("two normal runs: most points noisy")
    pts = g2.get("points", [])
    check(len(pts) == 6, f"second run compared all 6 points (got {len(pts)})")
    check(all(p["p"] is not None and p["reps"] >= 9 for p in pts),
          "every point has compare.py's U-test p-value over >= 9 repetitions")
    check(not any(p["status"] == "regression" for p in pts), "no point of a normal run regressed")

    slow = measured(tmp, *common, "--inject-slowdown", "40")
    d3 = run_dir_of(slow)
    check(slow.returncode == 1, f"--inject-slowdown 40: exit 1, got {slow.returncode}: "
          f"{slow.stderr[-800:]}")
    g3 = load_gate(d3) if os.path.isfile(os.path.join(d3, "gate.json")) else {}
    if slow.returncode == 0 and mostly_noisy(g3):
        raise Busy("slowed run: most points noisy")
    regs = [p for p in g3.get("points", []) if p["status"] == "regression"]
    check(len(regs) >= 1, "the slowed run has regressed points")
    check(all(p["ratio"] < 0.85 and p["p"] < 0.05 for p in regs),
          "each regression has ratio below 1 - threshold and p < alpha")
    with open(os.path.join(d3, "summary.md")) as f:
        text = f.read()
    check("**REGRESSION**" in text and "## Regressions (%d)" % len(regs) in text,
          "the slowed run's summary lists its regressions")
    check("| cpu_codename |" in text or "| cpu_brand |" in text, "summary carries the machine")

    trend = os.path.join(tmp, "gate-test", "trend.png")
    with open(trend, "rb") as f:
        check(f.read(8) == b"\x89PNG\r\n\x1a\n", "trend.png is a PNG")

    # pinned baseline: the slowed run against the first, through --baseline
    pinned = measured(tmp, "--machine-id", "gate-pinned", "--baseline",
                     os.path.join(d3, "nightly.json"), *GATE, "--", *SWEEP)
    check(pinned.returncode == 0, f"a normal run against a slowed baseline: exit 0 "
          f"(improvements only), got {pinned.returncode}")
    g4 = load_gate(run_dir_of(pinned)) if pinned.returncode == 0 else {}
    if mostly_noisy(g4):
        raise Busy("normal run against the slowed baseline: most points noisy")
    check(any(p["status"] == "improvement" for p in g4.get("points", [])),
          "a normal run against the slowed baseline shows improvements")

    # a baseline sharing no point with tonight's sweep gates nothing: status 2, not a green light
    disjoint = measured(tmp, "--machine-id", "gate-disjoint", "--baseline",
                       os.path.join(d1, "nightly.json"), *GATE, "--", "--kernels", "rep_stosq",
                       "--call", "4KiB", "--threads", "1", "--min-time", "0.005")
    check(disjoint.returncode == 2 and "no point in common" in disjoint.stderr,
          f"no common point with the baseline: exit 2 ({disjoint.returncode}, "
          f"{disjoint.stderr.strip()[-200:]})")

    # the budget guard: 25 s keeps 20 s back for the gate, so this 8-point sweep (about 1 s per
    # point) gets SIGINT after 5 s, finishes its point, and the points measured are gated
    t0 = time.monotonic()
    guard = measured(tmp, "--machine-id", "gate-budget", "--budget", "25", "--", "--kernels",
                    "memset,rep_stosb", "--call", "16KiB,32KiB,64KiB,128KiB", "--threads", "1",
                    "--min-time", "0.1")
    wall = time.monotonic() - t0
    gg = load_gate(run_dir_of(guard)) if guard.returncode == 0 else {}
    check(guard.returncode == 0 and gg.get("budget_stop") and 0 < gg.get("points_run", 0) < 8,
          f"the budget guard stops the sweep early and gates what was measured "
          f"({guard.returncode}, {gg.get('points_run')} points, {guard.stderr.strip()[-200:]})")
    check(wall < 25, f"the guarded run ended within its 25 s budget ({wall:.1f} s)")

    # a busy neighbour on the very CPU being measured: most points scatter, and nightly refuses
    # to judge (status 2) and keeps the run out of the baselines (no gate.json)
    cpu = max(os.sched_getaffinity(0))
    hog = subprocess.Popen([sys.executable, "-c", "import os\nos.sched_setaffinity(0, {%d})\n"
                            "while True:\n    pass" % cpu])
    try:
        busy = nightly(tmp, "--machine-id", "gate-busy", *GATE, "--", *SWEEP)
    finally:
        hog.kill()
        hog.wait()
    bd = os.path.join(tmp, "gate-busy")
    runs = os.listdir(bd) if os.path.isdir(bd) else []
    check(busy.returncode == 2 and "too noisy to gate" in busy.stderr,
          f"a run sharing its CPU with a busy loop is not gated: exit 2 ({busy.returncode}, "
          f"{busy.stderr.strip()[-200:]})")
    check(not any(os.path.isfile(os.path.join(bd, d, "gate.json")) for d in runs),
          "the noisy run is never a baseline (no gate.json)")

    # the default machine id is the folder storebench itself files this machine's results under
    probe = os.path.join(tmp, "id.csv")
    subprocess.run([STOREBENCH, "run", "--kernels", "memset", "--call", "4KiB", "--threads", "1",
                    "--repetitions", "1", "--min-time", "0.001", "--csv", probe],
                   capture_output=True, check=True)
    with open(probe) as f:
        sb_id = next((ln.split("=", 1)[1].strip() for ln in f if ln.startswith("# machine_id=")), "")
    mine = subprocess.run([NIGHTLY, "--storebench", STOREBENCH, "--print-machine-id"],
                          capture_output=True, text=True).stdout.strip()
    check(sb_id and mine == sb_id, f"machine id: scripts/nightly {mine!r}, storebench {sb_id!r}")

    cmp_dir = os.path.join(tmp, "cmp")
    r = subprocess.run([os.path.join(ROOT, "scripts", "compare-cpus"), "-o", cmp_dir,
                        os.path.join(d1, "nightly.csv"), os.path.join(d3, "nightly.csv")],
                       capture_output=True, text=True)
    check(r.returncode == 0, f"compare-cpus over two runs: exit 0 ({r.stderr.strip()})")
    check("Best store strategy per size class" in r.stdout and "B/A" in r.stdout,
          "compare-cpus prints both tables")
    check(os.path.isfile(os.path.join(cmp_dir, "compare-cpus.md")), "compare-cpus.md written")
    r = subprocess.run([os.path.join(ROOT, "scripts", "compare-cpus"),
                        os.path.join(d1, "nightly.csv")], capture_output=True, text=True)
    check(r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1,
          "compare-cpus with one CSV: exit 2, one line")


tmp = tempfile.mkdtemp(prefix="nightly-test-")
{"usage": usage, "gate": gate}[MODE](tmp)
for f in FAILS:
    print("FAIL: " + f)
if FAILS:
    print(f"kept for inspection: {tmp}")
    sys.exit(1)
shutil.rmtree(tmp)
print(f"nightly {MODE}: ok")
