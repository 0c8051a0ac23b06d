#!/usr/bin/env python3
# install_test.py — `cmake --install` into a temporary prefix, then storebench used from there
# alone: list, a tiny run, plot, table, the other scripts, the man page and the completion.
# Python 3.  Commands run from an empty folder under /tmp with PATH = <prefix>/bin:/usr/bin:/bin
# and no STOREBENCH* variables, and no installed file may name the source or build tree.
"""usage: install_test.py CMAKE BUILD_DIR SOURCE_DIR"""

import filecmp
import os
import re
import shutil
import subprocess
import sys
import tempfile

from testlib import Checker, installed_commands

CMAKE, BUILD, SOURCE = sys.argv[1:4]
TINY = ["--kernels", "memset", "--call", "4KiB,64KiB", "--threads", "1", "--repetitions", "1",
        "--min-time", "0.001", "--canary", "off"]  # the canary is tested elsewhere
check = Checker()


def main():
    top = tempfile.mkdtemp(prefix="storebench-install-", dir="/tmp")
    try:
        prefix, work = os.path.join(top, "prefix"), os.path.join(top, "work")
        os.mkdir(work)
        r = subprocess.run([CMAKE, "--install", BUILD, "--prefix", prefix], capture_output=True,
                           text=True)
        if not check(r.returncode == 0, f"cmake --install failed: {r.stderr[-2000:]}"):
            return
        installed(prefix, work)
    finally:
        shutil.rmtree(top, ignore_errors=True)


def installed(prefix, work):
    bindir = os.path.join(prefix, "bin")
    env = {k: v for k, v in os.environ.items() if not k.startswith("STOREBENCH")}
    env.update(PATH=f"{bindir}:/usr/bin:/bin", HOME=work, LC_ALL="C.UTF-8")

    def run(*args, cwd=work, **kw):
        return subprocess.run(list(args), cwd=cwd, env=kw.pop("env", env), capture_output=True,
                              text=True, **kw)

    # Nothing installed may point back at the tree it was built from.
    for dirpath, _, files in os.walk(prefix):
        for f in files:
            with open(os.path.join(dirpath, f), "rb") as fh:
                data = fh.read()
            for tree in {os.path.realpath(SOURCE), os.path.realpath(BUILD)}:
                check(tree.encode() not in data,
                      f"{os.path.relpath(os.path.join(dirpath, f), prefix)} names {tree}")
    for layout in ("bin/storebench", "share/man/man1/storebench.1.gz",
                   "share/bash-completion/completions/storebench", "share/doc/storebench/README.md",
                   "share/doc/storebench/results/README.md"):
        check(os.path.isfile(os.path.join(prefix, layout)), f"{layout} installed")
    gp = os.path.join(prefix, "share", "storebench", "scripts", "gnuplot")
    check(os.path.isdir(gp) and any(f.endswith(".gp") for f in os.listdir(gp)),
          "gnuplot files installed under share/storebench/scripts/gnuplot")

    # storebench capture finds its preloaded library in lib/storebench beside bin/, and the
    # command it runs gets it (python3 calls memset through the dynamic linker at startup)
    out = os.path.join(work, "py.dist")
    r = run("storebench", "capture", "-o", out, "--", "/usr/bin/python3", "-c", "pass")
    check(r.returncode == 0 and os.path.isfile(os.path.join(
        prefix, "lib", "storebench", "libstorebench-capture.so")) and os.path.isfile(out),
        f"storebench capture from the prefix: exit {r.returncode} {r.stderr[-300:]}")
    r = run("storebench", "--version")
    check(r.returncode == 0 and r.stdout.startswith("storebench "), f"--version: {r.stderr}")
    r = run("storebench", "list")
    check(r.returncode == 0 and re.search(r"^memset\b", r.stdout, re.M),
          f"storebench list from the prefix: exit {r.returncode} {r.stderr[-500:]}")

    # Every scripts/ command has its bin/ wrapper, and each answers --help (run: measured below).
    for name in installed_commands(SOURCE):
        wrapper = os.path.join(bindir, "storebench-" + name)
        if not check(os.access(wrapper, os.X_OK), f"bin/storebench-{name} installed"):
            continue
        page = os.path.join(prefix, "share/man/man1", f"storebench-{name}.1.gz")
        r = run("man", "--warnings", "-l", page)
        check(r.returncode == 0 and "SEE ALSO" in r.stdout and not r.stderr.strip(),
              f"storebench-{name}(1) installed and renders: {r.stderr[-300:]}")
        if name != "run":
            r = run("storebench-" + name, "--help")
            check(r.returncode == 0 and r.stdout.strip(),
                  f"storebench-{name} --help: exit {r.returncode} {r.stderr[-500:]}")

    r = run("storebench", "run", *TINY)
    # The CSV path as the binary reports it: `storebench: csv PATH` (results/README.md: Layout), or the
    # older `storebench: N points -> PATH`.
    m = (re.search(r"^storebench: csv (.+)$", r.stderr, re.M) or
         re.search(r"^storebench: \d+ points -> (.+\.csv)$", r.stderr, re.M))
    if not check(r.returncode == 0 and m, f"tiny run: exit {r.returncode} {r.stderr[-1000:]}"):
        return
    csv = os.path.join(work, m.group(1))
    check(os.path.realpath(csv).startswith(os.path.realpath(os.path.join(work, "results"))),
          f"the CSV went to ./results: {csv}")
    with open(csv) as f:
        meta = dict(ln[2:].rstrip("\n").split("=", 1) for ln in f if ln.startswith("# ") and "=" in ln)
    version = run("storebench", "--version").stdout.split("\n", 1)[0].split(" ", 1)[-1]
    check(meta.get("storebench_version") == version, "CSV storebench_version = --version's")

    out = os.path.join(work, "plots")
    r = run("storebench-plot", "-o", out, csv)
    check(r.returncode == 0, f"storebench-plot: exit {r.returncode} {r.stderr[-1000:]}")
    pngs = [f for _, _, fs in os.walk(out) for f in fs if f.endswith(".png")]
    check(pngs, "storebench-plot wrote PNGs (gnuplot files found in the prefix)")
    r = run("storebench-table", csv)
    check(r.returncode == 0 and "memset" in r.stdout,
          f"storebench-table: exit {r.returncode} {r.stderr[-1000:]}")

    # storebench-run: the installed binary, results under ./results, then its plots.
    sub = os.path.join(work, "run")
    os.mkdir(sub)
    r = run("storebench-run", *TINY, cwd=sub)
    # the path storebench reports (absolute since it prints `storebench: csv <path>`)
    check(r.returncode == 0 and re.search(r"^CSV: (%s/)?results/" % re.escape(os.path.realpath(sub)),
                                          r.stdout, re.M),
          f"storebench-run: exit {r.returncode} {r.stdout[-500:]} {r.stderr[-1000:]}")

    # The scripts find the installed binary through their wrapper even when bin/ is not on PATH.
    bare = dict(env, PATH="/usr/bin:/bin")
    if "nightly" in installed_commands(SOURCE):
        r = run(os.path.join(bindir, "storebench-nightly"), "--print-machine-id", env=bare)
        check(r.returncode == 0 and r.stdout.strip() == meta.get("machine_id", r.stdout.strip()),
              f"storebench-nightly finds its binary off PATH: {r.stderr[-500:]}")

    # storebench-history outside any repository (a scratch one), a bare repository as the remote,
    # the machine id from the installed nightly, no git identity (HOME is empty): saved, restored.
    if "history" in installed_commands(SOURCE):
        remote, mid = os.path.join(work, "history.git"), run("storebench-nightly",
                                                             "--print-machine-id").stdout.strip()
        subprocess.run(["git", "init", "-q", "--bare", remote], check=True)
        os.makedirs(os.path.join(work, "hist", mid, "2026-12-01"))
        shutil.copy(csv, os.path.join(work, "hist", mid, "2026-12-01", "nightly.csv"))
        saved = run("storebench-history", "save", "--remote", remote, "--results-dir", "hist")
        back = run("storebench-history", "restore", "--remote", remote, "--results-dir", "back")
        copy = os.path.join(work, "back", mid, "2026-12-01", "nightly.csv")
        check(saved.returncode == 0 and back.returncode == 0 and os.path.isfile(copy) and
              filecmp.cmp(csv, copy, shallow=False),
              f"storebench-history save and restore: {saved.stderr[-500:]} {back.stderr[-500:]}")

    r = run("man", "--warnings", "-l", os.path.join(prefix, "share/man/man1/storebench.1.gz"))
    check(r.returncode == 0 and "RUN OPTIONS" in r.stdout and not r.stderr.strip(),
          f"installed man page renders: {r.stderr[-500:]}")
    comp = os.path.join(prefix, "share/bash-completion/completions/storebench")
    r = run("bash", "--norc", "-c", f"source '{comp}' && COMP_WORDS=(storebench li) && "
            "COMP_CWORD=1 && _storebench && echo \"${COMPREPLY[*]}\"")
    check(r.returncode == 0 and r.stdout.strip() == "list", f"installed completion: {r.stderr}")


main()
sys.exit(check.finish("install"))
