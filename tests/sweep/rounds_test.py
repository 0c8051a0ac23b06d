#!/usr/bin/env python3
# rounds_test.py — `storebench run --rounds N --seed S`: every round measures every point once in
# a seeded shuffled order, the statistics of a row are over all its rounds, a stopped run keeps the
# points it measured; the drift canary's series is in both files and a real competing memory hog
# flags drift; a run killed outright (SIGKILL) keeps on disk every row a canary sample made final,
# and with rounds every row over the rounds that had ended.
# Usage: rounds_test.py <storebench> <csv_columns.def> rounds|canary|canary_sigkill|rounds_sigkill|
#        rewrite_sigkill|contest_rewrites
import json
import os
import random
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time

import testlib

SB, DEF, PART = os.path.abspath(sys.argv[1]), sys.argv[2], sys.argv[3]
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
from storebench import reader  # noqa: E402
COLUMNS = [m.group(1) for m in re.finditer(r"^COLUMN\(\s*([a-z0-9_]+)", open(DEF).read(), re.M)]
PROGRESS = re.compile(r"^storebench: round (\d+)/(\d+) point (\d+)/(\d+) .*  (\S+)$")
check = testlib.Checker()


def run(args, cwd):
    return subprocess.run([SB, "run"] + args, cwd=cwd, capture_output=True, text=True)


def refused(cases):
    """Each (args, what) is bad input: one stderr line, exit 2, no file in the directory."""
    for args, what in cases:
        with tempfile.TemporaryDirectory() as e:
            r = run(SWEEP + args, e)
            lines = r.stderr.strip().splitlines()
            check(r.returncode == 2 and len(lines) == 1 and os.listdir(e) == [],
                  f"{what}: exit {r.returncode}, {lines}, files {os.listdir(e)}")
            print(f"ok: {what}: {r.stderr.strip()}")


def read_csv(path):
    meta, rows = testlib.read_csv(path)
    return meta, [dict(zip(COLUMNS, r)) for r in rows[1:]], rows[0] if rows else []


def order_of(stderr):
    """[(round, name)] in the order the points were measured, from the progress lines."""
    return [(int(m.group(1)), m.group(5)) for m in map(PROGRESS.match, stderr.splitlines()) if m]


def point_of(run_name):
    return re.sub(r"/(min_time|repeats|manual_time).*", "", run_name)


# 12 cheap points: enough that two seeds giving one order (1 in 12!^3) cannot happen by chance
SWEEP = ["--kernels", "memset,rep_stosb", "--call", "4KiB,8KiB,16KiB,32KiB,64KiB,128KiB",
         "--threads", "1", "--min-time", "0.001"]


def rounds():
    with tempfile.TemporaryDirectory() as d:
        natural = subprocess.run([SB, "run"] + SWEEP + ["--benchmark_list_tests"], cwd=d,
                                 capture_output=True, text=True).stdout.split()
        check(len(natural) == 12, f"--benchmark_list_tests: {natural}")
        runs = {}
        # order and statistics only: no drift canary (canary() has it), whose first touch of
        # 1.3 GiB (a guest reporting a 508 MiB L3) took 4.5 s a run
        for name, seed in (("a", "42"), ("b", "42"), ("c", "43")):
            r = run(SWEEP + ["--repetitions", "4", "--rounds", "3", "--seed", seed,
                             "--canary", "off", "--csv", name + ".csv"], d)
            check(r.returncode == 0, f"rounds run {name} exit {r.returncode}: {r.stderr[-1500:]}")
            runs[name] = (order_of(r.stderr),) + read_csv(os.path.join(d, name + ".csv"))
            # the plan's time by the dry-run model, said before the first point (no --budget)
            check(re.search(r"^storebench: plan: 3 rounds of 12 points, estimated [0-9.]+ s by "
                            r"--dry-run's model$", r.stderr, re.M),
                  f"rounds run {name}: no plan line: {r.stderr[:400]}")
        order, meta, rows, header = runs["a"]
        check(header == COLUMNS, "header differs from csv_columns.def")
        check(len(order) == 3 * 12, f"{len(order)} measurements, want 3 rounds x 12 points")
        for rnd in (1, 2, 3):
            names = [n for r, n in order if r == rnd]
            check(sorted(names) == sorted(natural),
                  f"round {rnd} does not measure every point exactly once: {names}")
        check([n for _, n in order[:12]] != natural, "round 1 is the sweep's order: not shuffled")
        check(len({tuple(n for r, n in order if r == k) for k in (1, 2, 3)}) == 3,
              "the three rounds have the same order")
        check(order == runs["b"][0], "seed 42 twice: two different orders")
        check(order != runs["c"][0], "seeds 42 and 43: the same order")
        check((meta.get("rounds"), meta.get("seed"), meta.get("repetitions_per_round")) ==
              ("3", "42", "2"), f"metadata rounds/seed/repetitions_per_round: {meta}")
        # every repetition runs timed batches for at least --min-time (Google Benchmark's rule),
        # and the timed seconds are a share of the wall time
        least = sum(int(x["repetitions"]) for x in rows) * 0.001
        check(float(meta.get("timed_s", 0)) >= round(least, 1) and
              0 < float(meta.get("timed_share", 0)) <= 1,
              f"timed_s {meta.get('timed_s')} (at least {least:.3f}), timed_share "
              f"{meta.get('timed_share')}")
        # rows in the sweep's order, each over every repetition of its 3 rounds (ceil(4/3) each)
        check([f"{x['kernel']}/call:{x['call_bytes']}" for x in rows] ==
              [n.split("/ws:")[0] for n in natural], "rows are not in the sweep's order")
        doc = json.load(open(os.path.join(d, "a.json")))
        reps = {}
        for b in doc["benchmarks"]:
            if b.get("run_type") == "iteration":
                reps.setdefault(point_of(b["run_name"]), []).append(b["GB/s"])
        check(doc["context"].get("seed") == "42", "JSON context lacks the seed")
        for x in rows:
            head = f"{x['kernel']}/call:{x['call_bytes']}/"
            name = next(n for n in natural if n.startswith(head))
            g = reps.get(name, [])
            check(x["verified"] == "ok" and x["repetitions"] == "6" and len(g) == 6,
                  f"{name}: {x['repetitions']} repetitions in the row, {len(g)} in the JSON, "
                  "want 3 rounds x 2")
            if len(g) != 6 or x["verified"] != "ok":
                continue
            check(x["rounds"] == "3", f"{name}: rounds column {x['rounds']}")
            # the statistics are over all six, not the last round's two
            for col, want in (("gbps_median", statistics.median(g)), ("gbps_min", min(g)),
                              ("gbps_max", max(g)), ("gbps_mean", statistics.mean(g)),
                              ("gbps_cv", statistics.stdev(g) / statistics.mean(g))):
                check(abs(float(x[col]) - want) <= 2e-3 * abs(want) + 1e-9,
                      f"{name}: {col} {x[col]}, the six repetitions give {want:.6g}")
        print(f"ok: 3 rounds x 12 points, seeded shuffle replayed, statistics over 6 repetitions")

        # bad values: one line, exit 2, no file
        refused(((["--rounds", "0"], "zero rounds"), (["--rounds", "2.5"], "fraction"),
                 (["--rounds", "1001"], "beyond the limit"), (["--seed", "-1"], "negative seed"),
                 (["--seed", "18446744073709551616"], "seed beyond 2^64-1"),
                 (["--seed", "0x10"], "hex seed")))

        # stopped in a later round: every point measured so far has its row, with the rounds it got
        p = subprocess.Popen([SB, "run"] + SWEEP + ["--min-time", "0.02", "--repetitions", "5",
                                                    "--rounds", "5", "--csv", "stop.csv"],
                             cwd=d, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        seen, deadline = "", time.time() + 60
        while time.time() < deadline and "round 3/5" not in seen:
            seen += p.stderr.readline()
        p.send_signal(signal.SIGINT)
        err = seen + p.communicate(timeout=120)[1]
        check(p.returncode == 130, f"SIGINT in round 3: exit {p.returncode}")
        meta, rows, header = read_csv(os.path.join(d, "stop.csv"))
        check(header == COLUMNS and len(rows) == 12, f"stopped run: {len(rows)} rows, want 12")
        check(all(x["verified"] == "ok" and x["rounds"] in ("2", "3") and
                  x["repetitions"] == x["rounds"] for x in rows),
              f"stopped in round 3: rounds {[x['rounds'] for x in rows]}, want 2 or 3, one "
              "repetition each")
        check(json.load(open(os.path.join(d, "stop.json")))["benchmarks"],
              "stopped run: JSON without benchmarks")
        print(f"ok: SIGINT in round 3 of 5: 12 rows of 2-3 rounds; {err.strip().splitlines()[-1]}")


def series_of(meta):
    """The canary's samples [(t_s, gbps)] from the metadata."""
    return [tuple(map(float, x.split(":"))) for x in meta.get("canary_series", "").split(",") if x]


def out_of_band(meta):
    """(least, most) samples outside the band around the series' median (canary_ref_gbps): the
    series' 4 digits can put a sample within 1e-3 of the band's edge on either side of it (38.79
    against a median of 31.03 at a band of 0.25)."""
    s, band = series_of(meta), float(meta["canary_band"])
    ref = statistics.median(g for _, g in s)
    check(abs(float(meta["canary_ref_gbps"]) / ref - 1) < 1e-3,
          f"canary_ref_gbps {meta['canary_ref_gbps']} is not the median of {s}")
    off = [abs(g / ref - 1) - band for _, g in s]
    return sum(d > 1e-3 for d in off), sum(d > -1e-3 for d in off)


def out_counted(meta):
    """Whether canary_out_samples is what the series says, within out_of_band's rounding."""
    least, most = out_of_band(meta)
    return least <= int(meta["canary_out_samples"]) <= most


def judged_out(meta, key):
    """Whether a sample of canary KEY (but the starting one, which closes no window) was out
    of band when it was taken: at --rounds 1 that sample judged its window's rows against the
    median of the series so far, and they stay so, whatever the end's median says."""
    g = [float(x.split(":")[1]) for x in meta.get(key + "_series", "").split(",") if x]
    band = float(meta["canary_band"])
    return any(abs(g[i] / statistics.median(g[:i + 1]) - 1) > band for i in range(1, len(g)))


def any_canary_out(meta):
    """Whether a canary of any regime had a sample out of its band, when it was taken or
    against the end's median."""
    return any(int(meta.get(k + "_out_samples", "0")) or judged_out(meta, k)
               for k in ("canary", "canary_l2", "canary_llc"))


def canary():
    with tempfile.TemporaryDirectory() as d:
        r = run(SWEEP + ["--repetitions", "1", "--csv", "on.csv"], d)
        check(r.returncode == 0, f"canary run exit {r.returncode}: {r.stderr[-1500:]}")
        meta, rows, header = read_csv(os.path.join(d, "on.csv"))
        check(header == COLUMNS and len(rows) == 12, f"canary run: {len(rows)} rows")
        s = series_of(meta)
        check(len(s) >= 2 and all(g > 0 for _, g in s) and
              all(a[0] < b[0] for a, b in zip(s, s[1:])),
              f"canary_series wants a start and an end sample, in time order: {s}")
        check((meta.get("canary"), meta.get("canary_kernel"), meta.get("canary_threads")) ==
              ("on", "memset", "1"), f"canary keys: {meta}")
        check(int(meta["canary_call_bytes"]) == min(int(meta["cold_ws_bytes"]), 1 << 30) // 64 * 64,
              f"canary_call_bytes {meta['canary_call_bytes']}: want 4 x LLC (cold_ws_bytes "
              f"{meta['cold_ws_bytes']}) up to 1 GiB")
        check(out_counted(meta), "canary_out_samples")
        check(not any("drift" in x["quality"] for x in rows) or any_canary_out(meta),
              "drift rows without an out-of-band sample of any canary")
        ctx = json.load(open(os.path.join(d, "on.json")))["context"]
        check(all(ctx.get(k) == v for k, v in meta.items()
                  if k.startswith("canary") and k != "canary_sample"),
              "the JSON context lacks the canary's keys or differs")
        # the scripts' reader sees the summary written after the rows, and each sample's line
        run_ = reader.load(os.path.join(d, "on.csv"))
        check(all(run_.meta.get(k) == meta[k] for k in ("canary", "canary_series",
                                                         "canary_out_samples", "canary_band")),
              f"reader: canary keys {[(k, v) for k, v in run_.meta.items() if 'canary' in k]}")
        check(",".join(run_.values("canary_sample")) == meta["canary_series"],
              f"canary_sample lines {run_.values('canary_sample')} are not the series")
        print(f"ok: canary series of {len(s)} samples in the CSV and JSON: {meta['canary_series']}")

        # 10 rounds of 6 groups of 20 ms turns, about 3 s: each later sample is the median of
        # its window's passes, one a tick (canary_tick_s) at the first group boundary after it
        # is due, and 3 of its own; the starting one rests on its 3
        r = run(SWEEP[:-1] + ["0.02", "--repetitions", "10", "--rounds", "10", "--canary-period",
                              "1", "--csv", "ticks.csv"], d)
        check(r.returncode == 0, f"ticks run exit {r.returncode}: {r.stderr[-1500:]}")
        meta, _, _ = read_csv(os.path.join(d, "ticks.csv"))
        tick = float(meta.get("canary_tick_s", "0"))
        check(tick == 0.25, f"canary_tick_s {meta.get('canary_tick_s')}, want 0.25")
        # ticks lie further apart where 40 x a tick's own time is longer (a guest reporting a
        # huge LLC makes every canary large): the run says how far, at most
        apart = float(meta.get("canary_tick_max_s", "0"))
        check(apart >= tick, f"canary_tick_max_s {meta.get('canary_tick_max_s')} below the tick")
        for key in ("canary", "canary_l2", "canary_llc"):
            if key + "_series" not in meta:
                continue
            t = [float(x.split(":")[0]) for x in meta[key + "_series"].split(",")]
            passes = [int(x) for x in meta.get(key + "_passes", "").split(",") if x]
            # a tick waits for a group boundary (a turn of 40 ms and its round's overhead
            # here, well under 0.5 s even on a loaded machine), and the series' times are
            # rounded to 0.1 s
            want = [(3, 3)] + [(3 + int((b - a) / (apart + 0.5)), 3 + int((b - a + 0.1) / tick))
                               for a, b in zip(t, t[1:])]
            check(len(t) >= 3 and len(passes) == len(t) and
                  all(lo <= n <= hi for n, (lo, hi) in zip(passes, want)) and
                  sum(passes) > 3 * len(t),
                  f"{key}_passes {passes} at {t}: want within {want}")
        print(f"ok: canary windows of {meta.get('canary_passes')} passes at "
              f"{meta.get('canary_series')}")

        r = run(SWEEP + ["--repetitions", "1", "--canary", "off", "--csv", "off.csv"], d)
        meta, rows, _ = read_csv(os.path.join(d, "off.csv"))
        check(r.returncode == 0 and meta.get("canary") == "off" and "canary_series" not in meta
              and not any("drift" in x["quality"] for x in rows), "--canary off")
        refused(((["--canary", "yes"], "canary neither on nor off"),
                 (["--canary-period", "0.5"], "canary period below 1 s")))

        # real drift: a second storebench storing to DRAM on every CPU joins before the DRAM
        # points, the sweep's last two, after some 4 s of cache points and their canary samples
        # (the run is held with SIGSTOP until the hog stores), so the hog's samples are a
        # minority and the band's centre, their median, stays the quiet machine's; the DRAM
        # canary must leave its band and the DRAM points around it must say drift
        at = SWEEP.index("--call") + 1
        sweep = SWEEP[:at] + [SWEEP[at] + ",DRAM"] + SWEEP[at + 1:-1] + ["0.3"]
        p = subprocess.Popen([SB, "run"] + sweep + ["--repetitions", "1", "--canary-period", "1",
                                                    "--csv", "drift.csv"],
                             cwd=d, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        seen = ""
        while "point 13/" not in seen and p.poll() is None:
            seen += p.stderr.readline()
        p.send_signal(signal.SIGSTOP)
        hog = subprocess.Popen([SB, "run", "--kernels", "memset", "--call", "64MiB", "--threads",
                                "all", "--canary", "off", "--min-time", "60", "--repetitions", "1",
                                "--csv", "hog.csv"], cwd=d, stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE, text=True)
        try:
            hog_seen = ""
            while "point 1/1" not in hog_seen and hog.poll() is None:
                hog_seen += hog.stderr.readline()
            time.sleep(1.5)  # its first touch and calibration done: it stores to DRAM now
            p.send_signal(signal.SIGCONT)
            err = seen + p.communicate(timeout=150)[1]
        finally:
            p.send_signal(signal.SIGCONT)
            hog.kill()  # a hog, not a result: no need to let it finish its point
            hog.wait()
        check(p.returncode == 0, f"drift run exit {p.returncode}: {err[-1500:]}")
        meta, rows, _ = read_csv(os.path.join(d, "drift.csv"))
        drift = [x for x in rows if "drift" in x["quality"]]
        check(out_of_band(meta)[1] >= 1 and int(meta["canary_out_samples"]) >= 1 and
              out_counted(meta),
              f"a memory hog on every CPU left the canary in its band: {meta['canary_series']} "
              f"(band {meta['canary_band']})")
        check(drift, "the canary left its band but no row is flagged drift")
        # the hog also takes CPU time from the cache points and their canaries: a cache point
        # may be drift too, but only where its own regime's canary left its band
        l2, llc = (2 * int(meta.get(k + "_call_bytes", "0")) for k in ("canary_l2", "canary_llc"))
        own = ["canary_l2" if int(x["ws_bytes"]) <= l2 else "canary_llc"
               if int(x["ws_bytes"]) <= llc else "canary" for x in drift]
        check(any(k == "canary" for k in own) and all(judged_out(meta, k) for k in own),
              "the DRAM points are flagged drift, and any other only where its regime's canary "
              f"left its band: {sorted({x['call_bytes'] for x in drift})}, "
              f"{[(k, meta.get(k + '_series')) for k in sorted(set(own))]}")
        print(f"ok: a memset hog on every CPU: canary {meta['canary_series']}, "
              f"{len(drift)} of {len(rows)} rows flagged drift")


def lines_after_header(path):
    """The whole lines of path after its header (a row being written may be cut)."""
    with open(path, errors="replace") as f:
        lines = f.read().split("\n")[:-1]
    head = next((i for i, x in enumerate(lines) if not x.startswith("#")), len(lines))
    return lines[head + 1:]


def killable(sweep, d, name):
    """The sweep's point names, and a run of it into d/name under way: (names, path, process,
    its stderr lines so far (read on a thread), that thread, the rows on disk now)."""
    natural = subprocess.run([SB, "run"] + sweep + ["--benchmark_list_tests"], cwd=d,
                             capture_output=True, text=True).stdout.split()
    path = os.path.join(d, name)
    p = subprocess.Popen([SB, "run"] + sweep + ["--csv", path], cwd=d,
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    err = []
    reading = threading.Thread(target=lambda: err.extend(p.stderr), daemon=True)
    reading.start()

    def rows_on_disk():
        return [x for x in lines_after_header(path) if not x.startswith("#")] \
            if os.path.exists(path) else []

    return natural, path, p, err, reading, rows_on_disk


def kill_and_read(p, reading, path, what):
    """SIGKILL p if it still runs; the reader's view of its CSV, or None (the check says why)
    when it had ended first or the CSV does not read.  what: the state the kill was meant for."""
    running = p.poll() is None
    p.kill()
    p.wait()
    reading.join(10)
    if not check(running, f"{what}, then the kill (exited {p.returncode} first)" if not running
                 else what):
        return None
    try:
        return reader.load(path, required=COLUMNS)
    except reader.CsvError as e:
        check(False, f"the killed run's CSV does not read: {e}")
        return None


def canary_sigkill():
    """SIGKILL (nothing of storebench runs after it: a CI timeout, the OOM killer) mid-sweep with
    the canary on and a 1 s period: the CSV on disk is whole and keeps every row that a canary
    sample judged, each followed by that sample; only the points since the last sample are lost."""
    sweep = ["--kernels", "memset,rep_stosb,sse2_t_u1", "--call", "4KiB..16MiB", "--threads",
             "1", "--min-time", "0.1", "--repetitions", "2", "--canary-period", "1"]
    with tempfile.TemporaryDirectory() as d:
        natural, path, p, err, reading, on_disk = killable(sweep, d, "k.csv")
        seen = []
        while not seen:
            time.sleep(0.05)
            rows = on_disk()
            if p.poll() is not None:
                break  # ended first: its rows may all be from the end
            seen = rows
        # a few more points, so some are measured after the last sample when the kill lands
        points = sum("point " in x for x in err)
        while p.poll() is None and sum("point " in x for x in err) < points + 3:
            time.sleep(0.05)
        seen = on_disk() if p.poll() is None else seen
        check(seen, "rows on disk while the sweep still ran")
        run_ = kill_and_read(p, reading, path, f"the sweep still ran ({len(seen)} rows seen)")
        if not run_:
            return
        meta, rows = run_.meta, run_.rows
        check(run_.columns == COLUMNS, "the killed run's header differs from csv_columns.def")
        check((meta.get("canary"), meta.get("canary_kernel"), meta.get("canary_period_s")) ==
              ("on", "memset", "1") and meta.get("kernels") and meta.get("cpu_vendor"),
              f"the killed run's preamble: {[(k, v) for k, v in meta.items() if 'canary' in k]}")
        check("canary_series" not in meta, "canary_series is the end's summary, yet it is there")
        samples = [tuple(map(float, x.split(":"))) for x in run_.values("canary_sample")]
        check(len(samples) >= 2 and all(a[0] < b[0] for a, b in zip(samples, samples[1:])) and
              samples[0][1] == float(meta["canary_start_gbps"]),
              f"canary_sample lines: a start and a later sample, in time order: {samples}")
        names = [f"{x['kernel']}/call:{x['call_bytes']}/" for x in rows]
        check(len(seen) <= len(rows) < len(natural) and
              all(n.startswith(h) for n, h in zip(natural, names)),
              f"{len(rows)} rows: the sweep's first points, at least the {len(seen)} seen on "
              f"disk before the kill, fewer than its {len(natural)}")
        check(all(x["verified"] == "ok" and x["quality"] for x in rows),
              "every kept row is verified and has its quality")
        tail = lines_after_header(path)
        check(tail and tail[0].startswith("# canary_sample=") and
              tail[-1].startswith("# canary_sample="),
              f"the starting sample follows the header and a sample ends the file: {tail[-1:]}")
        check(os.path.getsize(os.path.join(d, "k.json")) == 0,
              "the JSON is written when the sweep ends: a killed run leaves it empty")
        started = sum("point " in x for x in err)
        print(f"ok: SIGKILL at point {started} of {len(natural)}: {len(rows)} rows kept, "
              f"{len(samples)} canary samples, {len(seen)} rows seen before the kill")


def rounds_sigkill():
    """SIGKILL in round 2 of 4 (canary on, as by default): the CSV on disk has a row for every
    point, in the sweep's order, each over the rounds that had ended (round 1, or more on a slow
    machine where the kill lands late), verified, with its canary sample lines after the rows;
    the round in progress is what is lost."""
    sweep = SWEEP + ["--repetitions", "4", "--rounds", "4", "--min-time", "0.02"]
    with tempfile.TemporaryDirectory() as d:
        natural, path, p, err, reading, rows_on_disk = killable(sweep, d, "r.csv")
        # the kill lands once round 1's rows are on disk and round 2 is under way
        while p.poll() is None and not (rows_on_disk() and
                                        any(x.startswith("storebench: round 2/") for x in err)):
            time.sleep(0.02)
        run_ = kill_and_read(p, reading, path, "rows on disk while round 2 still ran")
        if not run_:
            return
        rows = run_.rows
        names = [f"{x['kernel']}/call:{x['call_bytes']}/" for x in rows]
        check(len(rows) == len(natural) and all(n.startswith(h) for n, h in zip(natural, names)),
              f"{len(rows)} rows, want one per point ({len(natural)}) in the sweep's order")
        got = {x["rounds"] for x in rows}
        check(len(got) == 1 and got <= {"1", "2", "3"} and
              all(x["repetitions"] == x["rounds"] and x["verified"] == "ok" and x["quality"]
                  for x in rows),
              f"every row over the same whole rounds, fewer than 4 (a repetition each), "
              f"verified, with its quality: rounds {sorted(got)}")
        tail = lines_after_header(path)
        check(tail[-1].startswith("# canary_sample=") and "canary_series" not in run_.meta,
              f"the canary's samples so far follow the rows, its summary is the end's: "
              f"{tail[-1:]}")
        print(f"ok: SIGKILL in round 2 of 4: {len(rows)} rows over {sorted(got)} round(s) kept")


def rewrite_sigkill():
    """SIGKILL at 20 random moments of a run whose rounds take milliseconds, so the kills land
    in every part of them, the rewrite of the CSV after each round included: the CSV is always
    a whole one, one row per point over the same whole rounds (the old rewrite cut the file to
    its header first, and a kill there left a header-only or cut CSV)."""
    sweep = ["--kernels", "memset,rep_stosb", "--call", "4KiB,8KiB", "--threads", "1",
             "--min-time", "0.0002", "--repetitions", "1000", "--rounds", "1000",
             "--canary", "off"]
    rng = random.Random(20)
    with tempfile.TemporaryDirectory() as d:
        for i in range(20):
            natural, path, p, err, reading, rows_on_disk = killable(sweep, d, "w%d.csv" % i)
            while p.poll() is None and not rows_on_disk():
                time.sleep(0.002)
            time.sleep(rng.uniform(0, 0.05))
            run_ = kill_and_read(p, reading, path, "rows on disk while the rounds still ran")
            if not run_:
                return
            got = {x["rounds"] for x in run_.rows}
            if not check(len(run_.rows) == len(natural) and len(got) == 1,
                         f"kill {i + 1}: {len(run_.rows)} rows over rounds {sorted(got)}, want "
                         f"{len(natural)} over one count of whole rounds"):
                return
        left = sorted(f for f in os.listdir(d) if f.endswith(".tmp"))
        print(f"ok: 20 SIGKILLs at random moments of 4-point rounds: every CSV whole "
              f"({len(left)} killed mid-rewrite left their <csv>.<pid>.tmp beside it)")


def contest_rewrites():
    """The contests' rounds of --budget, a duel of a few milliseconds each, rewrite the CSV at
    most once a second (every rewrite is a new file renamed into place: a new inode, a new
    modification time), the planned rounds after each; the last rewrite holds the rounds every point got, the contests'
    included (the old code rewrote it after every duel, some hundreds of times here)."""
    sweep = ["--kernels", "memset,memset_twin", "--call", "4KiB", "--threads", "1",
             "--rounds", "2", "--budget", "3", "--tie-band", "0.0001", "--min-time", "0.0002",
             "--canary", "off"]
    with tempfile.TemporaryDirectory() as d:
        _, path, p, err, reading, _ = killable(sweep, d, "c.csv")
        inodes, t0 = set(), time.monotonic()
        while p.poll() is None:
            try:
                st = os.stat(path)
                inodes.add((st.st_ino, st.st_mtime_ns, st.st_size))
            except FileNotFoundError:
                pass
            time.sleep(0.001)
        wall = time.monotonic() - t0
        reading.join(10)
        run_ = reader.load(path)
        rounds = {int(x["rounds"]) for x in run_.rows}
        check(p.returncode == 0 and min(rounds) > 20,
              f"exit {p.returncode}, rounds {sorted(rounds)}: want the contests' duels in the "
              f"rows (over 20 rounds each)")
        check(len(inodes) <= wall + 4,
              f"{len(inodes)} rewrites of the CSV in {wall:.1f} s, want at most one a second "
              f"(and the planned rounds' and the last)")
        print(f"ok: {len(inodes)} rewrites in {wall:.1f} s of {max(rounds)} rounds")


{"rounds": rounds, "canary": canary, "canary_sigkill": canary_sigkill,
 "rounds_sigkill": rounds_sigkill, "rewrite_sigkill": rewrite_sigkill,
 "contest_rewrites": contest_rewrites}[PART]()
sys.exit(check.finish(f"rounds {PART}"))
