# advise.py — `scripts/advise`: glibc memset thresholds for this machine, from measured crossovers
# between the kernels that stand for glibc's memset paths, kept only when libc memset proves them.
# Python 3 standard library; runs storebench, ld.so and objdump as child processes.
"""advise: read glibc's starting point, measure the path kernels' crossovers at 1 and all
threads, derive one threshold per path, verify libc memset under it in interleaved rounds, and
report (text, CSV with provenance, plot).  Nothing unverified is recommended."""

import argparse
import datetime
import os
import statistics
import sys
import time

from storebench import advise_cross as ac
from storebench import advise_glibc as ag
from storebench import advise_measure as am
from storebench import advise_report as ar
from storebench import advise_verify as av
from storebench import advise_versions as avv
from storebench import glibc_model as gm
from storebench import classes, cli, dryrun, reader
from storebench.rows import ival, num
from storebench.units import fmt_bytes, parse_bytes

PROG = "advise"
# The sweep's rounds (storebench run --rounds, where the binary has it): every point once per
# round in a shuffled order, so drift of a shared host widens spreads instead of faking a step.
SWEEP_ROUNDS = 3
sc = am.sc
fb = fmt_bytes

DESCRIPTION = """\
glibc memset thresholds for this machine, derived from measured crossovers and proven by
re-measuring libc memset under them.

1. Starting point: glibc version, the effective memset tunables (ld.so --list-tunables),
   GLIBC_TUNABLES, the memset paths this glibc has and the IFUNC variant it picked.
2. Crossovers: the kernels standing for glibc's paths (4 x VEC temporal loop of the variant's
   width, rep stosb, 4 x VEC streaming loop + sfence) from --min-size to --max-size in steps of
   --step, at 1 thread and at all threads.  A crossover counts where the margin exceeds the
   combined spread of the two points and holds for at least 2 sizes in a row.
3. Recommendation: one threshold per path (only tunables this glibc has; what 2.40+ would add
   is printed), chosen at --for-threads, or "keep the default".
4. Proof: libc memset in child processes under the default and the advised GLIBC_TUNABLES,
   interleaved over --rounds, in every changed size region and controls outside; a tunable
   is kept when its gain's low end clears the largest movement of a control, else withdrawn
   (the report prints the rule and the drift).
   --verify TUNABLES proves a string of your own the same way, without the sweep.
   --glibc VERSION (or all) replaces 3 and 4 for another glibc: what its memset would do here
   (scripts/glibc-model) against the measured best path at each size, the tunables it would
   need, verified where this glibc can stand in for it (same variant, same modelled paths over
   the measured sizes), else marked "modelled, not verified here".
5. Files under results/<machine>/<UTC time>-advise/: the storebench CSV/JSON of every child,
   advise.csv (verification rows with provenance), advise.txt (this report), advise.png/.svg.

Exit status: 0 report written (whether or not anything is advised), 1 a measurement or plot
failed, 2 bad input (one line on stderr, nothing written)."""


def _factor(text):
    try:
        v = float(text)
    except ValueError:
        raise ValueError("not a number")
    if not 1.01 <= v <= 1.19 or len(text.partition(".")[2]) > 4:
        raise ValueError("accepted: 1.01..1.19 with up to 4 decimals (>= 4 steps per octave)")
    return text


def _count(lo, hi):
    def parse(text):
        try:
            v = int(text)
        except ValueError:
            raise ValueError("not a whole number")
        if not lo <= v <= hi:
            raise ValueError("accepted: %d..%d" % (lo, hi))
        return v
    return parse


def _seconds(text):
    try:
        v = float(text)
    except ValueError:
        raise ValueError("not a number")
    if not 0.001 <= v <= 1:
        raise ValueError("accepted: 0.001..1 seconds")
    return v


def _size(text):
    return parse_bytes(text)


def parser():
    p = cli.ArgParser(prog=PROG, description=DESCRIPTION,
                     formatter_class=argparse.RawDescriptionHelpFormatter)

    def typed(fn, name):
        def conv(text):
            try:
                return fn(text)
            except ValueError as e:
                raise argparse.ArgumentTypeError(
                    "%r: %s" % (text, str(e)))
        conv.__name__ = name
        return conv

    p.add_argument("--for-threads", choices=("1", "all"), default="1",
                   help="the thread count the thresholds are chosen for (default 1: one call "
                        "of memset is one thread's; the other count's crossover is stated)")
    p.add_argument("--step", type=typed(_factor, "--step"), default="1.19",
                   help="geometric size step of the sweep, 1.01..1.19 (default 1.19, 4 per octave)")
    p.add_argument("--min-size", type=typed(_size, "--min-size"), default=256,
                   help="smallest call size (default 256 B)")
    p.add_argument("--max-size", default="8LLC",
                   help="largest call size, any storebench size (default 8LLC: 8 x the LLC "
                        "share at each thread count)")
    p.add_argument("--repetitions", type=typed(_count(2, 20), "--repetitions"), default=3,
                   help="repetitions per sweep point, the spread of a point (default 3)")
    p.add_argument("--min-time", type=typed(_seconds, "--min-time"), default=0.005,
                   help="minimum seconds per repetition, in the sweep and in verification "
                        "(default 0.005)")
    p.add_argument("--rounds", type=typed(_count(2, 30), "--rounds"), default=5,
                   help="interleaved verification rounds (default 5; from 5 on the best and "
                        "worst round are left out of the spread)")
    p.add_argument("--sweep", metavar="CSV",
                   help="use this storebench CSV of the path kernels instead of measuring")
    p.add_argument("--use-flagged", action="store_true",
                   help="let points flagged by the quality column (shared CPU, ...) decide "
                        "crossovers too (default: such a size counts as a tie)")
    p.add_argument("--verify", metavar="TUNABLES",
                   help="skip the sweep: verify this GLIBC_TUNABLES string against the default "
                        "the same way (its memset thresholds' regions plus controls, up to 8 x "
                        "the LLC share)")
    p.add_argument("--check", metavar="TUNABLES",
                   help="only check a GLIBC_TUNABLES string against this glibc and print a "
                        "note per tunable it would not apply (exit 1 when any)")
    p.add_argument("--glibc", metavar="VERSION",
                   help="advice for another glibc (%s, or all): what memset would do here "
                        "under it (scripts/glibc-model), against the measured best path, the "
                        "tunables it would need, verified where this glibc can stand in for "
                        "it, else marked modelled" % ", ".join(gm.VERSIONS))
    p.add_argument("--loader", help="the dynamic loader to ask (default "
                                    "/lib64/ld-linux-x86-64.so.2)")
    p.add_argument("--out", help="folder for the files (default results/<machine>/<UTC>-advise)")
    p.add_argument("--no-plot", action="store_true", help="skip the plot")
    return p


class Report:
    """Lines printed as they come and kept for advise.txt."""

    def __init__(self):
        self.lines = []

    def __call__(self, text=""):
        self.lines.append(text)
        print(text, flush=True)


def kernels_for(start, meta):
    """(temporal, streaming, why) for the variant's vector width; the widest usable otherwise."""
    var = start["variant"]
    if var.get("vec_bytes") in am.PATH_KERNELS:
        t, nt = am.PATH_KERNELS[var["vec_bytes"]]
        return t, nt, "the variant's %d-byte vectors" % var["vec_bytes"]
    isa = meta.get("isa_usable", "").split()
    vec = 64 if "avx512f" in isa else 32 if "avx2" in isa else 16
    t, nt = am.PATH_KERNELS[vec]
    return t, nt, "variant unknown: the widest vectors this CPU runs (%d bytes)" % vec


def _value(start, name):
    t = start["tunables"].get(name)
    return t["value"] if t and isinstance(t["value"], int) else None


def _max(start, name, fallback):
    t = start["defaults"].get(name)
    return t["max"] if t and t["max"] else fallback


def cpu_count(cpulist):
    """CPUs in a Linux cpulist ('0-3,8' -> 5); 0 when empty or unreadable."""
    n = 0
    for part in cpulist.split(","):
        lo, dash, hi = part.strip().partition("-")
        if not lo.isdigit() or (dash and not hi.isdigit()):
            return 0
        n += int(hi) - int(lo) + 1 if dash else 1
    return n


def shown(path):
    """A path as the report prints it: relative to the current folder when inside it."""
    rel = os.path.relpath(path)
    return path if rel.startswith("..") else rel


def levels(exe, meta, threads):
    """[(name, bytes)] of the cache levels as one thread's share at `threads` threads, as the
    binary plans them (storebench run --dry-run: the default placement), smallest first; levels
    the machine lacks or the plan cannot give left out."""
    try:
        share = dryrun.shares(exe, threads)
    except dryrun.DryRunError:
        return []
    run = reader.Run("", meta, [], [])
    return [(name, share[key]) for name, key in classes.cache_levels(run) if share.get(key)]


def progress(text):
    """Child command lines go to stderr: what ran, without crowding the report."""
    sys.stderr.write("advise: %s\n" % text)
    sys.stderr.flush()


def check_only(args):
    loader = ag.find_loader(args.loader)
    notes = ag.check_tunables(loader, args.check)
    for n in notes:
        print("note: %s" % n)
    if not notes:
        print("all of %s apply on glibc %s" % (args.check, ag.version()))
    return 1 if notes else 0


def decide(found, t_kern, nt_kern, start, smallest, largest, threads):
    """Per tunable: (name, current, new or None, why, (lo, hi) region) at one thread count."""
    out = []
    cur = _value(start, ag.REP_STOSB)
    if start["variant"].get("erms") is False:
        out.append((ag.REP_STOSB, cur, None, "this memset variant has no rep stosb path"))
    elif cur is not None:
        new, why = ac.threshold(found[threads][(t_kern, am.REP)], t_kern, am.REP, cur, smallest)
        if new == "never":
            new = _max(start, ag.REP_STOSB, (1 << 64) - 1)
        out.append((ag.REP_STOSB, cur, new, why))
    nt_cur = _value(start, ag.MEMSET_NON_TEMPORAL)
    ref = nt_cur if nt_cur is not None else largest * 2
    new, why = ac.threshold(found[threads][(am.REP, nt_kern)], am.REP, nt_kern, ref, smallest)
    if new == "never":
        # Without the tunable there is no streaming path to turn off.
        new = None if nt_cur is None else _max(start, ag.MEMSET_NON_TEMPORAL, (1 << 64) - 1)
    out.append((ag.MEMSET_NON_TEMPORAL, nt_cur, new, why))
    res = []
    for name, c, n, why in out:
        region = None
        if n is not None and c is not None and n != c:
            region = (min(c, n), min(max(c, n), largest))
        res.append((name, c, n, why, region))
    return res


def main(argv=None):
    args = parser().parse_args(argv)
    for opt in ("check", "verify"):
        if getattr(args, opt) is not None and not getattr(args, opt).strip():
            cli.fail(PROG, "--%s needs a GLIBC_TUNABLES string (glibc.cpu.NAME=VALUE:...), "
                     "not an empty one" % opt)
    if args.check is not None:
        try:
            return check_only(args)
        except ag.GlibcError as e:
            cli.fail(PROG, e)
    if args.glibc is not None and args.glibc not in gm.VERSIONS + ("all",):
        cli.fail(PROG, "--glibc %s: not a modelled glibc (modelled: %s, or all)" % (
            args.glibc, ", ".join(gm.VERSIONS)))
    if args.glibc is not None and args.verify is not None:
        cli.fail(PROG, "--glibc and --verify: one question at a time")
    t0 = time.time()
    try:
        exe = am.binary()
        meta = am.info(exe)
        start = ag.starting_point(args.loader)
    except (am.MeasureError, ag.GlibcError) as e:
        cli.fail(PROG, e)
    sweep = None
    if args.sweep:
        try:
            sweep = sc.load(args.sweep, required=("kernel", "call_bytes", "threads",
                                                  "gbps_median", "gbps_min", "gbps_max"))
        except sc.CsvError as e:
            cli.fail(PROG, e)
        other = sweep.meta.get("machine_id")
        if other and other != meta.get("machine_id"):
            cli.fail(PROG, "--sweep %s: measured on %s, this is %s; a crossover is verified on "
                     "the machine it was measured on" % (args.sweep, other, meta.get("machine_id")))
        if not any(r["kernel"] == am.REP for r in sweep.rows):
            cli.fail(PROG, "--sweep %s: no %s rows (a sweep of the path kernels is needed)" % (
                args.sweep, am.REP))
    if args.verify is not None:
        # a memset threshold the loader does not apply leaves nothing to measure: bad input,
        # refused before any folder exists (issue 21.11: a child with --call '', exit 1)
        refused = [n for n in ag.check_tunables(start["loader"], args.verify, start["defaults"])
                   if " not applied" in n and n.split("=")[0] in ag.MEMSET_TUNABLES]
        if refused:
            cli.fail(PROG, "--verify: %s; nothing to verify" % refused[0])
    utc = datetime.datetime.now(datetime.timezone.utc).strftime("%Y%m%dT%H%M%SZ")
    machine = meta.get("machine_id") or "unknown"
    # In a source tree results land in its results/ (as scripts/run does), installed in ./results.
    tree = am.ROOT if os.path.isfile(os.path.join(am.ROOT, "CMakeLists.txt")) else "."
    folder = args.out or os.path.join(tree, "results", machine, "%s-advise" % utc)
    try:
        os.makedirs(folder, exist_ok=False)
    except OSError as e:
        cli.fail(PROG, "--out %s: cannot create the folder: %s" % (folder, e.strerror or e))
    rep = Report()
    status = run(args, exe, meta, start, sweep, folder, rep, t0)
    return status


def run(args, exe, meta, start, sweep, folder, rep, t0):
    ncpu = cpu_count(meta.get("allowed_cpus", "")) or int(meta.get("online_cpus") or 1)
    t_kern, nt_kern, kwhy = kernels_for(start, meta)
    if args.glibc in gm.VERSIONS:
        try:
            vec = gm.model(gm.Cpuid.live(exe), args.glibc,
                           dict(ag.parse_tunables(start["env"] or "")))["vec_bytes"]
        except gm.ModelError as e:
            rep("advise: %s" % e)
            return 1
        if vec in am.PATH_KERNELS and am.PATH_KERNELS[vec] != (t_kern, nt_kern):
            t_kern, nt_kern = am.PATH_KERNELS[vec]
            kwhy = "glibc %s's variant's %d-byte vectors (modelled)" % (args.glibc, vec)
    ver = start["version"] or "unknown"
    rep("advise: glibc memset tunables for %s (%s, %s CPUs), %s UTC" % (
        meta.get("machine_id", "?"), meta.get("cpu_codename", "?"), ncpu,
        datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M")))
    rep("")
    rep("starting point")
    rep("  glibc %s (loader %s); GLIBC_TUNABLES %s" % (
        ver, start["loader"], "unset" if start["env"] is None else repr(start["env"])))
    for name in ag.MEMSET_TUNABLES:
        t, d = start["tunables"].get(name), start["defaults"].get(name)
        if t is None:
            rep("  %-44s not in this glibc (added in 2.40)" % name)
        else:
            rep("  %-44s %s%s" % (name, ar.fmt_threshold(t["value"]),
                                  "" if d and d["value"] == t["value"] else
                                  "  (default %s)" % ar.fmt_threshold(d["value"] if d else None)))
    if start["env"]:
        for n in ag.check_tunables(start["loader"], start["env"], start["defaults"]):
            rep("  note: GLIBC_TUNABLES: %s" % n)
    paths = "4 x VEC loop, rep stosb above %s" % ag.REP_STOSB.split(".")[-1]
    if start["has_nt_path"]:
        paths += ", streaming loop above x86_memset_non_temporal_threshold"
    else:
        paths += "; no streaming path (glibc 2.40 adds one)"
    rep("  memset paths: %s" % paths)
    var = start["variant"]
    if var.get("name"):
        rep("  IFUNC variant: __memset_%s (%d-byte vectors), from the %s" % (
            var["name"], var["vec_bytes"], var["evidence"]))
    else:
        rep("  IFUNC variant: cannot tell (%s)" % var["why"])
    rep("  path kernels: %s (4 x VEC temporal), %s, %s (4 x VEC streaming + sfence): %s" % (
        t_kern, am.REP, nt_kern, kwhy))
    rep("")

    kernels = "%s,%s,%s" % (t_kern, am.REP, nt_kern)
    if args.verify is not None:
        want = ncpu if args.for_threads == "all" else 1
        lv = levels(exe, meta, want)
        smallest, largest = args.min_size, 8 * lv[-1][1] if lv else 1 << 28
        env_pairs, proposed, decisions = from_string(args.verify, start, largest, rep)
        return verify_and_report(args, exe, meta, start, None, folder, rep, t0, ncpu, kernels,
                                 want, smallest, largest, env_pairs, proposed, [], decisions,
                                 [], {})
    threads = "1,all" if ncpu > 1 else "1"
    if sweep is None:
        opts = am.run_options(exe)
        path = os.path.join(folder, "sweep.csv")
        try:
            sweep = am.run(exe, path, kernels, "%d..%s:x%s" % (args.min_size, args.max_size,
                                                              args.step),
                           threads, args.repetitions, args.min_time,
                           rounds=SWEEP_ROUNDS if "--rounds" in opts else None,
                           progress=progress)
        except (am.MeasureError, sc.CsvError) as e:
            rep("advise: sweep failed: %s" % e)
            return 1
    counts = sorted({ival(r, "threads") for r in sweep.rows if r["kernel"] in kernels.split(",")})
    if not counts:
        rep("advise: %s has no rows of %s" % (sweep.path, kernels))
        return 1
    found, curves, raw, nflag = {}, {}, {}, {}
    for t in counts:
        curves[t], raw[t] = {}, {}
        for k in kernels.split(","):
            curves[t][k], nflag[(t, k)] = am.curves(sweep, k, t, args.use_flagged)
            raw[t][k] = am.curves(sweep, k, t, True)[0]
        found[t] = {}
        for a, b in ((t_kern, am.REP), (am.REP, nt_kern), (t_kern, nt_kern)):
            found[t][(a, b)] = ac.find(curves[t][a], curves[t][b], a, b)
    sizes = sorted({s for t in counts for s in curves[t][t_kern]})
    smallest, largest = sizes[0], sizes[-1]
    rep("crossovers (%s; GB/s median, margin > combined spread, >= %d clear sizes in a row)" % (
        shown(sweep.path), ac.MIN_RUN))
    for t in counts:
        total = sum(len(curves[t][k]) for k in kernels.split(","))
        rep(ar.sweep_heading(t, sorted(curves[t][t_kern]), total,
                             [x for k in kernels.split(",") for x in nflag[(t, k)]],
                             args.use_flagged))
        for (a, b), res in found[t].items():
            if res["leader"] is None:
                rep("    %s vs %s: no size where either clearly wins" % (a, b))
                continue
            cross = "; ".join("-> %s at %s (band %s..%s)" % (c["to"], fb(c["size"]),
                                                              fb(c["band"][0]), fb(c["band"][1]))
                              for c in res["crossovers"]) or "no crossover"
            rep("    %s vs %s: %s leads from %s; %s" % (a, b, res["leader"],
                                                     fb(res["runs"][0][1][0]), cross))
            for who, against in ac.contrary(res, raw[t][a], raw[t][b], a, b).items():
                span = fb(against[0]) + ("" if len(against) == 1 else ".." + fb(against[-1]))
                rep("      %s's lead is not a reading at %d size%s (%s): %s's median is higher "
                    "there, but flagged or within noise" % (
                        who, len(against), "" if len(against) == 1 else "s", span,
                        b if who == a else a))
    rep("")
    want = 1 if args.for_threads == "1" or len(counts) == 1 else counts[-1]
    if want not in counts:
        want = counts[0]
    if args.glibc is not None:
        return versions(args, exe, meta, start, sweep, folder, rep, t0, found[want], curves[want],
                        {"vector": t_kern, "rep_stosb": am.REP, "non_temporal": nt_kern},
                        smallest, largest, want)
    other = [t for t in counts if t != want]
    decisions = decide(found, t_kern, nt_kern, start, smallest, largest, want)
    alt = {d[0]: d for d in decide(found, t_kern, nt_kern, start, smallest, largest, other[0])} \
        if other else {}
    rep("recommendation (chosen at %d thread%s; thresholds are per call, per thread)" % (
        want, "" if want == 1 else "s"))
    proposed, later = [], []
    for name, cur, new, why, region in decisions:
        here = name in start["defaults"]
        o = alt.get(name)
        other_txt = ""
        if o is not None and o[2] != new:
            other_txt = "; at %d thread%s: %s (%s)" % (
                other[0], "" if other[0] == 1 else "s",
                ar.fmt_threshold(o[2]) if o[2] is not None else "keep", o[3])
        pair = (t_kern, am.REP) if name == ag.REP_STOSB else (am.REP, nt_kern)
        lost = ac.lost_again(found[want][pair], pair[1])
        if lost and (name in start["defaults"] or new is not None):
            rep("  note: %s loses to %s again from %s (band %s..%s); glibc has no upper bound "
                "for this path, so that loss stays" % (pair[1], lost["to"], fb(lost["size"]),
                                                       fb(lost["band"][0]), fb(lost["band"][1])))
        if new is None or new == cur:
            rep("  %s: keep %s — %s%s" % (name.split(".")[-1], ar.fmt_threshold(cur), why,
                                         other_txt))
            continue
        line = "  %s: %s -> %s — %s%s" % (name.split(".")[-1], ar.fmt_threshold(cur),
                                          ar.fmt_threshold(new), why, other_txt)
        if here:
            rep(line)
            proposed.append((name, cur, new, region))
        else:
            rep(line + " [glibc 2.40+ only]")
            later.append((name, new))
    rep("")
    # The environment's other tunables ride along; ones this glibc does not know were noted
    # above and are left out of every string advise prints.
    env_pairs = [(n, v) for n, v in ag.parse_tunables(start["env"] or "")
                 if n not in {p[0] for p in proposed} and n in start["defaults"]]
    return verify_and_report(args, exe, meta, start, sweep, folder, rep, t0, ncpu, kernels, want,
                             smallest, largest, env_pairs, proposed, later, decisions, counts,
                             found)


def versions(args, exe, meta, start, sweep, folder, rep, t0, found, curves, kern, smallest,
             largest, want):
    """--glibc: the modelled version(s) against the sweep; one version is verified where the
    running glibc can stand in for it (advise_versions.stand_in)."""
    env = dict(ag.parse_tunables(start["env"] or ""))
    try:
        cpu = gm.Cpuid.live(exe)
        if args.glibc == "all":
            avv.table_all(rep, cpu, env, found, curves, kern, smallest, largest)
            rep("")
            return finish_versions(args, meta, start, sweep, folder, rep, t0, kern, want, "")
        tun, fixed, (ok, ok2, n, total) = avv.report(rep, cpu, args.glibc, env, found, curves,
                                                     kern, smallest, largest, want)
    except gm.ModelError as e:
        rep("advise: %s" % e)
        return 1
    rep("")
    if not tun:
        rep("answer: " + avv.keep_answer(args.glibc, ok, n, total))
        rep("")
        return finish_versions(args, meta, start, sweep, folder, rep, t0, kern, want, "")
    string = ":".join("%s=%s" % kv for kv in sorted(tun.items()))
    default_s, advised_s, why, top = avv.verifiable(cpu, start["version"], args.glibc, env, tun,
                                                    smallest, largest)
    beyond = "" if top >= largest else "; from %s glibc %s streams, which glibc %s cannot: " \
        "modelled, not verified here" % (fb(top + 1), args.glibc, start["version"])
    if default_s is None:
        rep("verification: modelled, not verified here (%s)" % why)
        rep("")
        rep("answer: on glibc %s set GLIBC_TUNABLES=%s (modelled: agrees at %d of %d sizes, "
            "was %d); not verified here" % (args.glibc, string, ok2, n, ok))
        rep("")
        return finish_versions(args, meta, start, sweep, folder, rep, t0, kern, want, string)
    rep("verification: %s, so glibc %s measures it: default %s against %s%s" % (
        why, start["version"], default_s, advised_s, beyond))
    cur = gm.model(cpu, start["version"], dict(ag.parse_tunables(default_s)))
    new = gm.model(cpu, start["version"], dict(ag.parse_tunables(advised_s)))
    lo_hi = sorted({cur["rep_stosb_threshold"], new["rep_stosb_threshold"]})
    changes = [("x86_rep_stosb_threshold", max(lo_hi[0], smallest), min(lo_hi[-1], top))]
    measured, table = verify_rounds(args, exe, meta, folder, rep, changes, smallest, top, want,
                                    advised_s, default_s)
    if measured is None:
        return 1
    mine = [r for r in table if r["tag"] == "x86_rep_stosb_threshold"]
    ok_v, why_v = av.confirm(mine, table)
    rep("")
    rep("answer: on glibc %s set GLIBC_TUNABLES=%s — %s%s (%s)" % (
        args.glibc, string, "verified here" if ok_v else "not confirmed here",
        " up to %s; above it modelled, not verified here" % fb(top) if top < largest else "",
        why_v))
    rep("")
    ar.write_csv(os.path.join(folder, "advise.csv"), provenance(args, meta, start, sweep, kern,
                                                                 want, string, t0), table,
                 measured, want, advised_s, default_s)
    return finish_versions(args, meta, start, sweep, folder, rep, t0, kern, want, string,
                           csv_done=True)


def provenance(args, meta, start, sweep, kern, want, string, t0):
    return list(meta.items()) + [
        ("advise_command", " ".join(sys.argv)), ("advise_glibc_modelled", args.glibc),
        ("advise_glibc_running", start["version"] or "unknown"),
        ("advise_sweep_csv", sweep.path), ("advise_path_kernels", ",".join(kern.values())),
        ("advise_chosen_threads", want), ("advise_recommended", string or "keep the default"),
        ("advise_wall_s", "%.0f" % (time.time() - t0))]


def finish_versions(args, meta, start, sweep, folder, rep, t0, kern, want, string,
                    csv_done=False):
    if not csv_done:
        ar.write_csv(os.path.join(folder, "advise.csv"),
                     provenance(args, meta, start, sweep, kern, want, string, t0), [], [], want,
                     "", start["env"])
    rep("wall time %.0f s; files in %s" % (time.time() - t0, shown(folder)))
    with open(os.path.join(folder, "advise.txt"), "x") as f:
        f.write("\n".join(rep.lines) + "\n")
    return 0


def from_string(text, start, largest, rep):
    """--verify: (other pairs, [(name, current, new, region)], decisions) from a GLIBC_TUNABLES
    string; memset thresholds this glibc knows get a region, the rest ride along as given."""
    rep("verifying GLIBC_TUNABLES=%s (no sweep)" % text)
    for n in ag.check_tunables(start["loader"], text, start["defaults"]):
        rep("  note: %s" % n)
    pairs, proposed, decisions = [], [], []
    for name, value in ag.parse_tunables(text):
        cur, new = _value(start, name), ag.to_u64(value)
        if name in ag.MEMSET_TUNABLES and name in start["defaults"] and cur is not None \
                and new is not None and new != cur:
            region = (min(cur, new), min(max(cur, new), largest))
            proposed.append((name, cur, new, region))
            decisions.append((name, cur, new, "given", region))
        elif name in start["defaults"]:
            pairs.append((name, value))
    if not proposed:
        rep("  note: no memset threshold of this glibc changes: nothing to verify")
    rep("")
    return pairs, proposed, decisions


def cache_marks(exe, meta, threads):
    """[(bytes, 'L3 share 16 MiB')]: one thread's share of each cache level at THREADS threads
    (levels()), for the plot's marks; 'share' where threads split an instance."""
    run = reader.Run("", meta, [], [])
    return [(b, "%s %s%s" % (name, "share " if b < (run.cache_bytes(name.lower()) or b) else "",
                             fb(b))) for name, b in levels(exe, meta, threads)]


def verify_rounds(args, exe, meta, folder, rep, changes, smallest, largest, want, advised,
                  default):
    """Step 4's measurement: libc memset under `default` and `advised` in interleaved rounds over
    the classes of `changes` and their controls, reported with the drift rule.  (measured,
    table), or (None, None) when a child failed (said in the report)."""
    classes = av.plan(changes, smallest, largest, levels(exe, meta, want))
    try:
        measured = av.run_rounds(exe, folder, classes, want, advised, args.rounds, args.min_time,
                                 default=default, progress=progress)
    except (am.MeasureError, sc.CsvError) as e:
        rep("advise: verification failed: %s" % e)
        return None, None
    table = av.summarize(classes, measured)
    for line in ar.verification_lines(table, args.rounds, want):
        rep(line)
    for r in table:
        if r["kind"] == "control" and r["verdict"] != "noise":
            rep("  note: %s moved %s [%s..%s] with no tunable changed there: drift or load; a "
                "gain must clear that" % (r["name"], ar.pct(r["gain"]), ar.pct(r["low"]),
                                          ar.pct(r["high"])))
    rep("  rule: " + av.RULE % ("largest movement %.1f%%" % (100 * av.drift(table))))
    return measured, table


def verify_and_report(args, exe, meta, start, sweep, folder, rep, t0, ncpu, kernels, want,
                      smallest, largest, env_pairs, proposed, later, decisions, counts, found):
    var = start["variant"]
    default_str = start["env"]
    confirmed, table, measured = [], [], []
    if proposed:
        advised = ":".join(["%s=%s" % p for p in env_pairs] +
                           ["%s=%d" % (n, v) for n, _, v, _ in proposed])
        notes = ag.check_tunables(start["loader"], advised, start["defaults"])
        for n in notes:
            rep("  note: %s" % n)
        proposed = [p for p in proposed if not any(x.startswith(p[0]) for x in notes)]
        changes = [(n.split(".")[-1], lo, hi) for n, _, _, (lo, hi) in proposed]
        measured, table = verify_rounds(args, exe, meta, folder, rep, changes, smallest, largest,
                                        want, advised, default_str)
        if measured is None:
            return 1
        for name, cur, new, region in proposed:
            mine = [r for r in table if r["tag"] == name.split(".")[-1]]
            ok, why = av.confirm(mine, table)
            if ok:
                confirmed.append((name, new, mine))
            else:
                rep("  withdrawn: %s=%d — verified %s: %s" % (
                    name, new, ", ".join("%s %s" % (r["verdict"], ar.pct(r["gain"])) for r in mine),
                    why))
        rep("")
    final = ":".join(["%s=%s" % p for p in env_pairs] + ["%s=%d" % (n, v) for n, v, _ in confirmed])
    wall = time.time() - t0
    rep("paste:")
    if confirmed:
        rep("  GLIBC_TUNABLES=%s" % final)
        gains = "; ".join("%s %s [%s..%s] over %s" % (r["name"], ar.pct(r["gain"]),
                                                       ar.pct(r["low"]), ar.pct(r["high"]),
                                                       ",".join(fb(s) for s in r["sizes"]))
                          for _, _, mine in confirmed for r in mine)
        rep("  verified gain (libc memset, %d thread%s, %d rounds): %s" % (
            want, "" if want == 1 else "s", args.rounds, gains))
    else:
        rep("  keep the default%s" % ("" if not start["env"] else
                                      " (leave GLIBC_TUNABLES as it is)"))
        rep("  verified gain: none%s" % (" (every proposal was withdrawn)" if proposed else
                                         " (nothing to verify)" if args.verify is not None else
                                         " (no crossover cleared the noise)"))
    cav = ["measured on %s (%s) with %s CPUs" % (meta.get("machine_id"), meta.get("cpu_codename"),
                                                 ncpu)]
    if meta.get("hypervisor") == "yes":
        cav.append("a VM: the host's load moves these numbers")
    if later:
        cav.append("glibc 2.40+ would add %s" % ":".join("%s=%d" % l for l in later))
    rep("  caveat: %s; thresholds are per memset call, chosen at %d thread%s" % (
        "; ".join(cav), want, "" if want == 1 else "s"))
    rep("")
    rep("wall time %.0f s; files in %s" % (wall, shown(folder)))

    prov = [(k, v) for k, v in meta.items()]
    prov += [("advise_command", " ".join(sys.argv)), ("advise_utc", datetime.datetime.now(
        datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")), ("advise_sweep_csv", sweep.path if sweep else "none (--verify)"),
        ("advise_loader", start["loader"]), ("advise_glibc_variant", var.get("name") or "unknown"),
        ("advise_path_kernels", kernels), ("advise_chosen_threads", want),
        ("advise_rounds", args.rounds), ("advise_min_time_s", args.min_time),
        ("advise_default_tunables", default_str or ""),
        ("advise_recommended", final if confirmed else "keep the default"),
        ("advise_wall_s", "%.0f" % wall)]
    for name in ag.MEMSET_TUNABLES:
        t = start["tunables"].get(name)
        prov.append(("advise_start_%s" % name.split(".")[-1], ar.fmt_threshold(t["value"]) if t
                     else "absent"))
    for t in counts:
        for (a, b), res in found[t].items():
            prov.append(("advise_crossovers_%dt_%s_%s" % (t, a, b), ",".join(
                "%s>%s@%d" % (c["from"], c["to"], c["size"]) for c in res["crossovers"]) or "none"))
    if measured:
        advised_str = ":".join(["%s=%s" % p for p in env_pairs] +
                               ["%s=%d" % (n, v) for n, _, v, _ in proposed])
        ar.write_csv(os.path.join(folder, "advise.csv"), prov, table, measured, want,
                     advised_str, default_str)
    else:
        ar.write_csv(os.path.join(folder, "advise.csv"), prov, [], [], want, "", default_str)
    status = 0
    if not args.no_plot and not sweep and not measured:
        rep("plot: none (nothing was measured to draw)")
    elif not args.no_plot:
        # The plot shows every measured point, flagged or not: it is a picture of the run.
        series = []
        for k in kernels.split(",") if sweep else ():
            every = am.curves(sweep, k, want, True)[0]
            usable = am.curves(sweep, k, want, False)[0]
            series.append(("%s (%d thr)" % (k, want), {s: (v[0] if v else None)
                                                        for s, v in every.items()},
                           {s for s, v in usable.items() if v is None}))
        if measured:
            for setting in ("default", "advised"):
                pts = {}
                for s in measured[0][setting]:
                    vals = [r[setting].get(s) for r in measured if r[setting].get(s)]
                    pts[s] = statistics.median(vals) if vals else None
                series.insert(0 if setting == "default" else 1,
                              ("memset %s" % setting, pts, set()))
        lines = []
        for name, cur, new, why, region in decisions:
            short = name.split(".")[-1]
            if cur is not None and cur < 1 << 60:
                lines.append((cur, "%s now %s" % (short, fb(cur))))
            if new is not None and new != cur and new < 1 << 60:
                lines.append((new, "%s %s %s" % (short, "advised" if name in start["defaults"]
                                                 else "2.40+ would be", fb(new))))
        try:
            imgs = ar.write_plot(folder, "advise", "glibc memset on %s: path kernels and memset "
                                 "(%d thread%s)" % (meta.get("machine_id"), want,
                                                    "" if want == 1 else "s"), series, lines,
                                 cache_marks(exe, meta, want))
            rep("plot: %s" % ", ".join(shown(i) for i in imgs))
        except (RuntimeError, OSError) as e:
            rep("advise: plot failed: %s" % e)
            status = 1
    with open(os.path.join(folder, "advise.txt"), "x") as f:
        f.write("\n".join(rep.lines) + "\n")
    return status
