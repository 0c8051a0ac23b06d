# advise_versions.py — `advise --glibc`: what memset would do on this machine under another glibc
# (the model of scripts/storebench/glibc_model.py) against the path that measured best at each
# size, the tunables that version would need, and whether the running glibc can prove them.
# Python 3 standard library.
"""Advice per glibc version (issue 25.3).

The measured side is advise's sweep of the path kernels (4 x VEC temporal loop of the variant's
width, rep stosb, 4 x VEC streaming loop + sfence): at each size the best path is the one that
clearly beats both others (advise_cross.verdict: the margin exceeds the combined spread), else
the paths tied at the top.  The modelled side is the path glibc V takes at that size.  They
agree where the modelled path is the best or among the tied.

The fix is the thresholds of V's own tunables placed at the measured crossovers (advise_cross.
threshold), re-modelled to show the paths they give.  It is verified by re-measuring libc memset
only where the running glibc can stand in for V: same variant, and a GLIBC_TUNABLES string for
the running glibc whose modelled paths equal V's over the measured sizes, for the default and for
the fix (a streaming path the running glibc lacks cannot be stood in for).  Otherwise the fix is
"modelled, not verified here".
"""

from storebench import advise_cross as ac
from storebench import advise_measure as am
from storebench import glibc_model as gm
from storebench.units import fmt_bytes

PATH_OF = ("vector", "rep_stosb", "non_temporal")
STOSB = gm.TUNABLE % "x86_rep_stosb_threshold"
MEMSET_NT = gm.TUNABLE % "x86_memset_non_temporal_threshold"
HWCAPS = gm.TUNABLE % "hwcaps"


def best_paths(curves, kern):
    """{size: (paths, clear, usable)}: paths the one path ahead of the others, or the paths tied
    with the highest median; clear when that one path beat both others clearly; usable the paths
    whose point is not flagged.  A lead counts only where it holds for advise_cross.MIN_RUN sizes
    in a row, as for a crossover; a shorter one is reported as a tie of every usable path (paths
    None: no path has a usable point)."""
    raw = {}
    sizes = set().union(*(set(curves[k]) for k in kern.values()))
    for s in sorted(sizes):
        pts = {p: curves[k].get(s) for p, k in kern.items()}
        usable = {p: v for p, v in pts.items() if v is not None}
        if not usable:
            raw[s] = (None, False, ())
            continue
        top = max(usable, key=lambda p: usable[p][0])
        tied = tuple(p for p in PATH_OF if p in usable and
                     (p == top or ac.verdict(usable[top], usable[p]) == 0))
        raw[s] = (tied, len(tied) == 1 and len(usable) == 3, tuple(p for p in PATH_OF
                                                                     if p in usable))
    order = sorted(raw)
    out = {}
    for i, s in enumerate(order):
        if raw[s][0] is None:
            out[s] = raw[s]
            continue
        tied, clear, usable = raw[s]
        if len(tied) == 1:
            j = i
            while j > 0 and raw[order[j - 1]][0] == tied:
                j -= 1
            k = i
            while k + 1 < len(order) and raw[order[k + 1]][0] == tied:
                k += 1
            if k - j + 1 < ac.MIN_RUN:
                tied, clear = usable, False
        out[s] = (tied, clear, usable)
    return out


def compare(m, best):
    """[(first size, last size, modelled path, best tuple, clear, agrees)] over best's sizes,
    consecutive sizes with the same answer merged; agrees None where the modelled path's own
    point is flagged (nothing to compare)."""
    out = []
    for s, (tied, clear, usable) in sorted(best.items()):
        p = gm.path(m, s)
        agrees = p in tied if p in usable else None
        key = (p, tied, clear, agrees)
        if out and out[-1][2:] == key:
            out[-1] = (out[-1][0], s) + key
        else:
            out.append((s, s) + key)
    return out


def agreement(m, best):
    """(sizes where the modelled path is among the best, sizes where its point is usable)."""
    known = [s for s, (_, _, usable) in best.items() if gm.path(m, s) in usable]
    return sum(gm.path(m, s) in best[s][0] for s in known), len(known)


def _wins(result, new):
    return result["leader"] == new or any(c["to"] == new for c in result["crossovers"])


def _switch(result, old, new, current, smallest, at_threshold):
    """advise_cross.threshold's value as glibc compares it: rep stosb runs above its threshold
    (ja), streaming from it (jae; at_threshold True).  A value the old path won at (a band's low
    end) is kept for ja and +1 for jae; one the new path won at (its first clear win) is -1 for
    ja and kept for jae, so every measured size gets the path that won it."""
    value, why = ac.threshold(result, old, new, current, smallest)
    if isinstance(value, int) and value > smallest:
        won_new = any(who == new and value in sizes for who, sizes in result["runs"])
        if won_new and not at_threshold:
            value -= 1
        elif not won_new and at_threshold:
            value += 1
    return value, why


def fix(cpu, version, env, found, kern, smallest, largest):
    """(tunables {name: value}, [why]) for glibc `version` from the sweep's crossovers; {} when
    its default already follows them.  glibc's memset has one shape: the vector loop up to
    rep_stosb_threshold, then rep stosb, then (2.38+) streaming from the non-temporal threshold,
    which is only reached inside the rep stosb branch."""
    m = gm.model(cpu, version, env)
    t, nt = kern["vector"], kern["non_temporal"]
    tun, why = {}, []
    s_cur, n_cur = m["rep_stosb_threshold"], m["memset_non_temporal_threshold"]
    if m["erms"]:
        s_new, s_why = _switch(found[(t, am.REP)], t, am.REP, s_cur, smallest, False)
    else:
        s_new, s_why = None, "__memset_%s has no rep stosb path" % m["variant"]
    if s_new == "never":
        s_new = gm.SIZE_MAX
    s_eff = s_cur if s_new is None else s_new
    if s_new is not None and s_new != s_cur:
        tun[STOSB] = str(s_new)
        why.append("rep stosb: %s" % s_why)
    else:
        why.append("rep stosb: keep %s (%s)" % (gm.fmt_threshold(s_cur), s_why))
    if n_cur is None:
        why.append("streaming: glibc %s has no streaming memset" % version)
        return tun, why
    nt_name = MEMSET_NT if version >= "2.39" else gm.TUNABLE % "x86_non_temporal_threshold"
    pair = (am.REP, nt) if s_eff < largest else (t, nt)  # what streaming competes with
    n_new, n_why = _switch(found[pair], pair[0], nt, n_cur, smallest, True)
    if n_new == "never":
        n_eff = None
        if n_cur <= largest and s_eff < n_cur:
            tun[nt_name] = str(gm.NT_MAX)
            why.append("streaming: off (%s)" % n_why)
        else:
            why.append("streaming: stays unreached (%s)" % n_why)
    else:
        n_eff = n_new if n_new is not None else (n_cur if _wins(found[pair], nt) else None)
        if n_new is not None and n_new != n_cur:
            tun[nt_name] = str(n_new)
            why.append("streaming: %s" % n_why)
        else:
            why.append("streaming: keep %s (%s)" % (gm.fmt_threshold(n_cur), n_why))
    if nt_name != MEMSET_NT and nt_name in tun:
        why.append("glibc %s has no memset-only streaming threshold: this one moves memcpy's "
                   "too" % version)
    if n_eff is not None and n_eff <= largest and s_eff >= n_eff:
        # streaming sits behind the rep stosb branch (memset-vec-unaligned-erms.S): open it
        # without rep stosb, as 2.41's Avoid_STOSB does
        # (one byte below it: the branch is taken above rep_stosb_threshold, and the first
        # size streaming won must stream)
        if version >= "2.41":
            tun.pop(STOSB, None)
            tun[HWCAPS] = "Avoid_STOSB"
            tun[MEMSET_NT] = str(n_eff - 1)
            why.append("hwcaps Avoid_STOSB (rep_stosb_threshold = the streaming threshold): the "
                       "vector loop up to it, rep stosb never")
        else:
            tun[STOSB] = str(n_eff - 1)
            why.append("rep_stosb_threshold just below the streaming threshold (what 2.41's "
                       "Avoid_STOSB does): the vector loop below it, rep stosb never")
    return tun, why


def stand_in(cpu, running, version, env, tun, smallest, largest):
    """(default string, advised string, why) for the running glibc whose modelled paths equal
    glibc `version`'s (default, then with tun) over smallest..largest; strings None when it
    cannot stand in, why saying so."""
    if running not in gm.VERSIONS:
        return None, None, "the running glibc %s is not modelled" % running
    out = []
    for extra in ({}, tun):
        want = gm.model(cpu, version, dict(env or {}, **extra))
        here = dict(env or {})
        if want["variant"] != gm.model(cpu, running, here)["variant"]:
            return None, None, "glibc %s would run __memset_%s, glibc %s another variant" % (
                version, want["variant"], running)
        # its own rep stosb threshold first, so the string reads as the version's
        candidates = [want["rep_stosb_threshold"]] + sorted(
            {s for s in (want["memset_non_temporal_threshold"], 2048) if s is not None})
        found = None
        for stosb in candidates:
            trial = dict(here, **{STOSB: str(stosb)})
            got = gm.model(cpu, running, trial)
            if all(gm.path(got, s) == gm.path(want, s) for s in _probe(want, smallest, largest)):
                found = trial
                break
        if found is None:
            paths = {gm.path(want, s) for s in _probe(want, smallest, largest)}
            return None, None, "glibc %s's paths (%s) are not ones glibc %s can take here" % (
                version, ", ".join(sorted(paths)), running)
        out.append(":".join("%s=%s" % kv for kv in sorted(found.items())))
    if running == version:
        return out[0], out[1], "this is glibc %s: it measures its own paths" % running
    return out[0], out[1], "glibc %s stands in: its modelled paths equal %s's over %s..%s" % (
        running, version, fmt_bytes(smallest), fmt_bytes(largest))


def verifiable(cpu, running, version, env, tun, smallest, largest):
    """stand_in() over smallest..largest, else below the streaming threshold when streaming is
    what the running glibc lacks: (default string, advised string, why, largest verified);
    strings None when no range of at least two octaves can be stood in for."""
    d, a, why = stand_in(cpu, running, version, env, tun, smallest, largest)
    if d is not None:
        return d, a, why, largest
    nts = [m["memset_non_temporal_threshold"] for m in
           (gm.model(cpu, version, env), gm.model(cpu, version, dict(env or {}, **tun)))
           if m["memset_non_temporal_threshold"] is not None]
    cap = min(nts) - 1 if nts else 0
    if 4 * smallest <= cap < largest:
        d2, a2, why2 = stand_in(cpu, running, version, env, tun, smallest, cap)
        if d2 is not None:
            return d2, a2, why2, cap
    return None, None, why, largest


def _probe(m, smallest, largest):
    """The sizes where a path can change, and the ends, inside smallest..largest."""
    pts = {smallest, largest}
    for t in (m["rep_stosb_threshold"], m["memset_non_temporal_threshold"], 2 * m["vec_bytes"]):
        if t is not None:
            for s in (t - 1, t, t + 1):
                if smallest <= s <= largest:
                    pts.add(s)
    return sorted(pts)


def describe_best(tied, clear):
    if tied is None:
        return "no usable point"
    if len(tied) == 1:
        return tied[0] + (" (clear)" if clear else " (beats the usable)")
    return "within noise: " + " = ".join(tied)


def _region_lines(m, best, curves, kern):
    """One line per run of sizes with the same modelled path and measured answer."""
    out = []
    for lo, hi, p, tied, clear, agrees in compare(m, best):
        span = fmt_bytes(lo) if lo == hi else "%s..%s" % (fmt_bytes(lo), fmt_bytes(hi))
        gap = ""
        if agrees is False:
            # what the modelled path leaves behind, at the run's middle size
            mid = sorted(s for s in best if lo <= s <= hi)
            s = mid[len(mid) // 2]
            have, top = curves[kern[p]].get(s), curves[kern[tied[0]]].get(s)
            if have and top:
                gap = "; %s is %+.0f%% at %s" % (tied[0], 100 * (top[0] / have[0] - 1),
                                                 fmt_bytes(s))
        verdict = "agrees" if agrees else "DIFFERS" if agrees is not None else \
            "unknown (its path's point is flagged)"
        out.append("    %-24s glibc: %-13s measured best: %-40s %s%s" % (
            span, p, describe_best(tied, clear), verdict, gap))
    return out


def report(rep, cpu, version, env, found, curves, kern, smallest, largest, threads):
    """The per-version section of advise --glibc V.  Returns (tunables, model with them,
    (sizes agreeing, agreeing with the tunables, sizes judged, sizes measured))."""
    m = gm.model(cpu, version, env)
    best = best_paths(curves, kern)
    ok, n = agreement(m, best)
    rep("glibc %s on this machine, modelled (release/%s/master %s; not this machine's glibc "
        "unless it is %s)" % (version, version, gm.BRANCHES[version][:10], version))
    rep("  __memset_%s; rep_stosb_threshold %s, memset streaming threshold %s" % (
        m["variant"], gm.fmt_threshold(m["rep_stosb_threshold"]),
        gm.fmt_threshold(m["memset_non_temporal_threshold"])))
    rep("  paths: %s" % gm.describe(m, largest))
    rep("  against the path kernels (%s; %d thread%s): agrees at %d of %d sizes" % (
        ", ".join("%s=%s" % kv for kv in kern.items()), threads, "" if threads == 1 else "s",
        ok, n))
    for line in _region_lines(m, best, curves, kern):
        rep(line)
    tun, why = fix(cpu, version, env, found, kern, smallest, largest)
    fixed = gm.model(cpu, version, dict(env or {}, **tun))
    ok2, _ = agreement(fixed, best)
    rep("  tunables for glibc %s: %s" % (version, ":".join("%s=%s" % kv for kv in sorted(
        tun.items())) or "none (its default follows the measured crossovers)"))
    for w in why:
        rep("    %s" % w)
    if tun:
        rep("  with them: %s; agrees at %d of %d sizes (modelled)" % (
            gm.describe(fixed, largest), ok2, n))
    return tun, fixed, (ok, ok2, n, len(best))


# A "nothing to tune" needs glibc's path judged at this share of the sizes measured at least.
JUDGED_MIN = 2 / 3


def keep_answer(version, ok, judged, measured):
    """The answer when the crossovers propose nothing: keep the default, or undecided when too
    few sizes could be judged (their points flagged) for "nothing to tune" to mean anything."""
    if judged < JUDGED_MIN * measured:
        return ("undecided: glibc %s's path could be judged at %d of %d sizes only (the others' "
                "points are flagged: drift, spread, outliers); nothing proposed, run it again on "
                "a quieter machine" % (version, judged, measured))
    return ("glibc %s's memset already takes the measured best path where one is clear (%d of "
            "%d sizes judged agree); nothing to tune" % (version, ok, judged))


def table_all(rep, cpu, env, found, curves, kern, smallest, largest):
    """advise --glibc all: one line per modelled version, nothing re-measured."""
    best = best_paths(curves, kern)
    rep("glibc versions on this machine, modelled, against the measured best path "
        "(%s..%s; not verified: run --glibc VERSION to re-measure where possible)" % (
            fmt_bytes(smallest), fmt_bytes(largest)))
    rows = [("glibc", "variant", "paths", "agrees", "tunables", "with them")]
    for v in gm.VERSIONS:
        m = gm.model(cpu, v, env)
        ok, n = agreement(m, best)
        tun, _ = fix(cpu, v, env, found, kern, smallest, largest)
        fixed = gm.model(cpu, v, dict(env or {}, **tun))
        ok2, _ = agreement(fixed, best)
        rows.append((v, m["variant"], gm.describe(m, largest), "%d/%d" % (ok, n),
                     ":".join("%s=%s" % (k.split(".")[-1], val) for k, val in
                              sorted(tun.items())) or "none", "%d/%d" % (ok2, n)))
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    for r in rows:
        rep("  " + "  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip())
