#!/usr/bin/env python3
# changes_test.py — change points over nights (scripts/storebench/nightly/changes.py) on the
# committed A/A recording of the Turin guest, as recorded and with steps injected into it.
# Python 3 standard library; scipy, where installed, checks the t-test's p-values.
# Why: a step over nights must be found and dated, once, and nineteen quiet nights must not
# read as a change of the machine.
"""usage: changes_test.py REPO_ROOT

The 19 recorded nights as they are: no change of the machine at the nightly's 10 %, and the
kernels' changes at 5 % are what the recording holds (movdir64b 7 % faster after its first
three nights, nothing else).  One kernel 12 % slower from night 10 on: found, dated night 10,
0.85-0.95 apart from its groups, and new on night 12 (the third after the step), not before; every point 20 %
slower from night 13 on: the machine's change, dated, no kernel's; scripts/trend writes the
same list; scripts/nightly exits 4 on the night that change is first proven, not before;
Welch's p-value as scipy computes it.
"""

import importlib.machinery
import os
import random
import shutil
import subprocess
import sys
import tempfile

from testlib import Checker

ROOT = os.path.abspath(sys.argv[1])
sys.path.insert(0, os.path.join(ROOT, "scripts"))
from storebench.nightly import calibrate, changes  # noqa: E402

NIGHTLY = importlib.machinery.SourceFileLoader(
    "nightly", os.path.join(ROOT, "scripts", "nightly")).load_module()

RECORDING = os.path.join(ROOT, "results", "turin-vm", "aa-nights-20261206.tar.xz")
check = Checker()


def stepped(nights, tmp, slow, pct, first):
    """The nights' CSVs with slow ("*" or a kernel) pct % slower from night index first on."""
    os.makedirs(tmp)
    paths = []
    for i, n in enumerate(nights):
        path = os.path.join(tmp, "%02d.csv" % i)
        calibrate.write_csv(n, path, slow if i >= first else None, pct)
        paths.append(path)
    return paths


def main():
    tmp = tempfile.mkdtemp(prefix="sb-changes-test-")
    try:
        nights = calibrate.load([RECORDING], os.path.join(tmp, "rec"))
        labels = [n.label for n in nights]
        paths = [n.csv for n in nights]
        found = changes.changes(paths, labels, 0.1)
        check(not any(c["series"] == "machine" for c in found),
              f"19 A/A nights: no change of the machine at 10 %: {found}")
        kernel = [changes.note(c) for c in changes.changes(paths, labels, 0.05)]
        check(len(kernel) == 1 and kernel[0].startswith("movdir64b: 7.0 % faster from "
                                                        "2026-12-06-4 on"),
              f"19 A/A nights, kernels at 5 %: only movdir64b's early step: {kernel}")

        slowed = stepped(nights, os.path.join(tmp, "k"), "sse2_t_u4", 12, 9)
        got = [c for c in changes.changes(slowed, labels, 0.05) if c["series"] == "sse2_t_u4"]
        # 0.88 against its groups' medians, which move a little with it where it stood near
        # them (0.92 on these nights)
        check(len(got) == 1 and got[0]["night"] == labels[9] and
              0.85 < got[0]["ratio"] < 0.95,
              f"sse2_t_u4 12 % slower from {labels[9]} on: found and dated ({got})")
        when = [n for n in range(10, len(nights) + 1)
                if any(c["series"] == "sse2_t_u4"
                       for c in changes.new_tonight(slowed[:n], labels[:n], 0.05))]
        check(when[:1] == [12],
              f"the step is new on the third night after it, once: nights {when}")

        shifted = stepped(nights, os.path.join(tmp, "m"), "*", 20, 12)
        got = changes.changes(shifted, labels, 0.1)
        check([(c["series"], c["night"]) for c in got] == [("machine", labels[12])] and
              0.75 < got[0]["ratio"] < 0.85,
              f"every point 20 % slower from {labels[12]} on: the machine's change, no "
              f"kernel's ({got})")

        # scripts/trend over a machine folder of these nights writes and prints the same list
        machine = os.path.join(tmp, "turin-vm")
        for i, n in enumerate(nights):
            d = os.path.join(machine, "2026-12-%02d" % (i + 1))
            os.makedirs(d)
            shutil.copyfile(shifted[i], os.path.join(d, "nightly.csv"))
            with open(os.path.join(d, "gate.json"), "w") as f:
                f.write("{}")
        r = subprocess.run([os.path.join(ROOT, "scripts", "trend"), "--point", "t@l1d", machine],
                           capture_output=True, text=True)
        with open(os.path.join(machine, "trend.changes.txt")) as f:
            text = f.read()
        check(r.returncode == 0 and "machine: " in text and "from 2026-12-13 #1 on" in text and
              "change over nights: machine: " in r.stderr,
              f"scripts/trend lists the machine's change ({r.returncode}, {text!r}, "
              f"{r.stderr[-300:]})")

        # scripts/nightly's over_nights: the machine's change exits 4 on the night it is first
        # proven (the third from the step, index 14), not the night before
        for k, want in ((14, 3), (15, 4)):
            res = dict(label="tonight", exit=3)
            machine = os.path.join(tmp, "n%d" % k, "turin-vm")
            for i in range(k - 1):
                d = os.path.join(machine, "2026-12-%02d" % (i + 1))
                os.makedirs(d)
                shutil.copyfile(shifted[i], os.path.join(d, "nightly.csv"))
                with open(os.path.join(d, "gate.json"), "w") as f:
                    f.write("{}")
                with open(os.path.join(d, "nightly.json"), "w") as f:
                    f.write('{"context": {}, "benchmarks": [{"name": "x"}]}')
            NIGHTLY.over_nights(res, machine, os.path.join(tmp, "tonight"), shifted[k - 1],
                                dict(threshold=0.1))
            check(res["exit"] == want and
                  [c["series"] for c in res["changes_new"]] == (["machine"] if want == 4
                                                                else []),
                  f"{k} nights, the machine 20 % slower from the 13th: exit {want} "
                  f"({res['exit']}, {res['changes_new']})")

        try:
            from scipy import stats
        except ImportError:
            print("scipy absent: Welch's p-value not compared")
        else:
            rng = random.Random(5)
            for n, m in ((3, 3), (4, 9), (12, 7)):
                x = [rng.gauss(0, 1) for _ in range(n)]
                y = [rng.gauss(1.5, 2) for _ in range(m)]
                want = stats.ttest_ind(x, y, equal_var=False).pvalue
                check(abs(changes.welch_p(x, y) - want) < 1e-9 * max(want, 1e-300) + 1e-12,
                      f"Welch p of {n} and {m} values: {changes.welch_p(x, y)}, scipy {want}")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return check.finish("changes")


sys.exit(main())
