# advise_measure.py — `advise`'s measurements: runs `storebench run` as a child process (the path
# kernels' sweep, libc memset under a GLIBC_TUNABLES string) and turns its CSV into curves.
# Python 3 standard library only.  The binary is the tree's build, or the installed one (STOREBENCH_BIN).
"""Driving storebench for advise.

Every number advise uses comes from a `storebench run` child with its own CSV (and JSON) kept
under results/<machine>/, so the measurement carries the same provenance as any other run.
"""

import os
import re
import shutil
import subprocess
import sys

from storebench import reader as sc
from storebench.quality import quality_of
from storebench.rows import ival, num

SCRIPTS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ROOT = os.path.dirname(SCRIPTS)

# The kernels standing for glibc's memset paths, by the IFUNC variant's vector width.
PATH_KERNELS = {64: ("avx512_t_u4", "avx512_nt_u4"), 32: ("avx2_t_u4", "avx2_nt_u4"),
                16: ("sse2_t_u4", "sse2_nt_u4")}
REP = "rep_stosb"


class MeasureError(Exception):
    """storebench could not be found or run; str(e) is one line."""


def binary():
    """The storebench to run: STOREBENCH_BIN when set (installed wrappers set it), else the
    source tree's build/bench/storebench, else `storebench` on PATH."""
    env = os.environ.get("STOREBENCH_BIN")
    if env:
        return env
    built = os.path.join(ROOT, "build", "bench", "storebench")
    if os.path.isfile(os.path.join(ROOT, "CMakeLists.txt")):
        if os.access(built, os.X_OK):
            return built
        raise MeasureError("%s is not built (cmake -S . -B build && cmake --build build)" % built)
    found = shutil.which("storebench")
    if not found:
        raise MeasureError("storebench not found (set STOREBENCH_BIN or install it)")
    return found


def info(exe):
    """`storebench info` as a dict (the machine metadata every CSV carries, plus machine_id)."""
    out = _run([exe, "info"], timeout=120)
    meta = {}
    for line in out.stdout.splitlines():
        key, eq, value = line.partition("=")
        if eq:
            meta[key.strip()] = value.strip()
    return meta


def run_options(exe):
    """The long options `storebench run --help` names (so advise can use --rounds once it exists)."""
    out = _run([exe, "run", "--help"], timeout=60)
    return set(re.findall(r"--[a-z][a-z0-9-]+", out.stdout + out.stderr))


def _run(cmd, env=None, timeout=None):
    try:
        out = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=timeout)
    except (OSError, subprocess.SubprocessError) as e:
        raise MeasureError("%s: %s" % (" ".join(cmd[:2]), e))
    if out.returncode != 0:
        lines = [l for l in out.stderr.splitlines() if l.strip()]
        raise MeasureError("%s failed (exit %d): %s" % (
            " ".join(cmd[:2]), out.returncode, lines[-1] if lines else "no message"))
    return out


def _stream(cmd, env, progress):
    """Run a child; its stderr progress lines pass through to ours (a sweep takes minutes), its
    last line names the failure."""
    try:
        proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                text=True)
    except OSError as e:
        raise MeasureError("%s: %s" % (" ".join(cmd[:2]), e))
    last = []
    # a terminal gets one line rewritten in place; a log (CI, `2>log`) one line per point, never
    # carriage returns that join a whole sweep into one line
    tty = sys.stderr.isatty()
    for line in proc.stderr:
        if line.strip():
            last = [line.strip()]
        if progress and re.match(r"storebench: .*point \d+/\d+", line):
            sys.stderr.write("\r" + line.strip()[:150].ljust(150) if tty else line.strip() + "\n")
            sys.stderr.flush()
    proc.wait()
    if progress and tty:
        sys.stderr.write("\r" + " " * 150 + "\r")
    if proc.returncode != 0:
        raise MeasureError("%s failed (exit %d): %s" % (" ".join(cmd[:2]), proc.returncode,
                                                        last[0] if last else "no message"))


def run(exe, csv_path, kernels, calls, threads, repetitions, min_time, rounds=None,
        tunables=None, progress=None):
    """One `storebench run` child writing csv_path (and its .json); returns the loaded CSV.
    tunables: None runs with this process's GLIBC_TUNABLES as it is, a string replaces it."""
    cmd = [exe, "run", "--kernels", kernels, "--call", calls, "--ws", "call",
           "--threads", threads, "--repetitions", str(repetitions), "--min-time", str(min_time),
           "--csv", csv_path, "--json", re.sub(r"\.csv$", "", csv_path) + ".json"]
    if rounds:
        cmd += ["--rounds", str(rounds)]
    env = dict(os.environ)
    if tunables is not None:
        if tunables:
            env["GLIBC_TUNABLES"] = tunables
        else:
            env.pop("GLIBC_TUNABLES", None)
    if progress:
        progress("running: %s%s" % ("GLIBC_TUNABLES=%s " % tunables if tunables else "",
                                      " ".join(cmd)))
    _stream(cmd, env, progress)
    return sc.load(csv_path, required=("kernel", "call_bytes", "threads", "gbps_median",
                                       "gbps_min", "gbps_max"))


def flagged(row):
    """Why a row's numbers cannot decide a crossover, or '' when they can: the quality column
    where the binary writes one, else the shared-CPU rule of the CSV reader."""
    q = row.get("quality")
    if q is not None and q != "":
        return "" if q == "ok" else q
    if row.get("verified", "ok") != "ok":
        return "unverified"
    return "shared_cpu" if "shared_cpu" in quality_of(row) else ""


def curves(run, kernel, threads, use_flagged=False):
    """{call_bytes: (median, min, max) GB/s or None when flagged} for one kernel and thread
    count, and the flagged sizes' reasons, one string per size ('shared_cpu;cv')."""
    out, nflag = {}, []
    for r in run.rows:
        if r["kernel"] != kernel or ival(r, "threads") != threads:
            continue
        med, lo, hi = (num(r[c]) for c in ("gbps_median", "gbps_min", "gbps_max"))
        bad = flagged(r) or (None in (med, lo, hi) and "empty")
        if bad:
            nflag.append(bad)
        out[ival(r, "call_bytes")] = None if (bad and not use_flagged) or med is None \
            else (med, lo, hi)
    return out, nflag
