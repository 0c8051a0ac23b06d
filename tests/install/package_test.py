#!/usr/bin/env python3
# package_test.py — the Debian package scripts/package builds: name, version, dependencies, contents, and
# the packaged programs run from an unpacked copy; lintian without errors or warnings; and
# scripts/package's exit status.
# Python 3 + dpkg-deb, dpkg-shlibdeps (dpkg-dev) and, when installed, lintian.  Exit 77 (skipped)
# without dpkg-deb/dpkg-shlibdeps.  The package is moved from the build tree to a temporary folder.
# The build tree is packaged as it is only when it is Release (scripts/test's).
"""usage: package_test.py BUILD_DIR SOURCE_DIR"""

import os
import re
import shutil
import subprocess
import sys
import tempfile
import gzip

from testlib import Checker, installed_commands

BUILD, SOURCE = sys.argv[1:3]
# What dpkg-shlibdeps must find the binary linking (Debian 12 names them libbenchmark1debian,
# libcpuid16, libhwloc15, libnuma1), and what the scripts run.
LIBS = (r"libbenchmark\d\w*", r"libcpuid\d+", r"libhwloc\d+", r"libnuma\d+")
TOOLS = ("python3", "python3-scipy", "libbenchmark-tools", "gnuplot-nox")
check = Checker()


def field(deb, name):
    return subprocess.run(["dpkg-deb", "-f", deb, name], capture_output=True,
                          text=True).stdout.strip()


def release_build(build):
    """Whether build is configured as scripts/package configures it (Release)."""
    with open(os.path.join(build, "CMakeCache.txt")) as f:
        return "CMAKE_BUILD_TYPE:STRING=Release\n" in f.readlines()


def main(top):
    # scripts/package on this build tree when it is the Release one scripts/test makes, already
    # built, so no second compile (a Debug or other tree is never reconfigured: a folder of its
    # own then).  Without lintian it exited 0 as a checked package does, having said "not
    # checked" only on stderr (issue 21.23); it exits 3.  Its package is moved out at once.
    build = BUILD if release_build(BUILD) else os.path.join(top, "build")
    r = subprocess.run([os.path.join(SOURCE, "scripts", "package"), build], capture_output=True,
                       text=True)
    out = r.stdout.strip().splitlines()
    built = bool(out) and out[-1].endswith(".deb") and os.path.isfile(out[-1])
    if built:
        shutil.move(out[-1], top)
    if shutil.which("lintian"):
        tags = [ln for ln in r.stderr.splitlines() if re.match(r"[EW]: ", ln)]
        check(r.returncode == 0 and built and not tags,
              f"scripts/package with lintian: exit {r.returncode}, {tags or r.stderr[-500:]}")
    else:
        print("note: lintian is not installed; the package was not linted")
        check(r.returncode == 3 and built and "not checked" in r.stderr,
              f"scripts/package without lintian: exit 3 and the package; got {r.returncode}, "
              f"{out[-1:]}, {r.stderr[-300:]}")
    debs = [f for f in os.listdir(top) if f.endswith(".deb")]
    if not check(len(debs) == 1, f"scripts/package made one .deb: {debs}: {r.stderr[-1500:]}"):
        return
    deb = os.path.join(top, debs[0])
    version = field(deb, "Version")
    check(field(deb, "Package") == "storebench", "Package: storebench")
    check(debs[0] == f"storebench_{version}_{field(deb, 'Architecture')}.deb",
          f"file name {debs[0]} is storebench_<Version>_<Architecture>.deb")
    check(re.fullmatch(r"\d+\.\d+\.\d+(\+git\d+\.g[0-9a-f]+(\.dirty)?)?", version),
          f"Version {version!r} is the project version plus git describe")
    depends = [d.strip() for d in field(deb, "Depends").split(",")]
    names = {alt.split()[0] for d in depends for alt in d.split("|")}
    for lib in LIBS:
        check(any(re.fullmatch(lib, n) for n in names), f"Depends lacks {lib}: {depends}")
    for tool in TOOLS:
        check(tool in names, f"Depends lacks {tool}: {depends}")
    check("git" in field(deb, "Recommends").split(", "),
          "Recommends git (storebench-history pushes and fetches with it)")

    listing = subprocess.run(["dpkg-deb", "-c", deb], capture_output=True, text=True).stdout
    files = {ln.split()[-1].lstrip(".") for ln in listing.splitlines() if ln.startswith("-")}
    want = {"/usr/bin/storebench", "/usr/share/man/man1/storebench.1.gz",
            "/usr/share/bash-completion/completions/storebench",
            "/usr/share/doc/storebench/copyright", "/usr/share/doc/storebench/changelog.gz",
            "/usr/share/doc/storebench/README.md"}
    for name in installed_commands(SOURCE):
        want |= {f"/usr/bin/storebench-{name}", f"/usr/share/man/man1/storebench-{name}.1.gz",
                 f"/usr/share/storebench/scripts/{name}"}
    for w in sorted(want - files):
        check(False, f"package lacks {w}")
    check(not [f for f in files if "__pycache__" in f or f.endswith(".pyc")],
          "package carries Python byte code")
    check(all(ln.split()[1] == "root/root" for ln in listing.splitlines()),
          "every file in the package belongs to root/root")

    # Unpacked anywhere, the package's programs run and say the package's version.
    root = os.path.join(top, "root")
    subprocess.run(["dpkg-deb", "-x", deb, root], check=True)
    sb = os.path.join(root, "usr", "bin", "storebench")
    r = subprocess.run([sb, "--version"], capture_output=True, text=True)
    check(r.returncode == 0 and r.stdout.split("\n", 1)[0] == f"storebench {version}",
          f"packaged storebench --version says {r.stdout[:80]!r}, the package {version}")
    with gzip.open(os.path.join(root, "usr/share/doc/storebench/changelog.gz"), "rt") as f:
        top_entry = f.readline()
    check(top_entry.startswith(f"storebench ({version}) "),
          f"changelog's top entry {top_entry.strip()!r} is not version {version}")
    env = {k: v for k, v in os.environ.items() if not k.startswith("STOREBENCH")}
    env["PATH"] = "/usr/bin:/bin"
    r = subprocess.run([os.path.join(root, "usr", "bin", "storebench-table"), "--help"],
                       capture_output=True, text=True, env=env)
    check(r.returncode == 0, f"packaged storebench-table --help: {r.stderr[-500:]}")


if not (shutil.which("dpkg-deb") and shutil.which("dpkg-shlibdeps")):
    print("skipped: dpkg-deb and dpkg-shlibdeps (dpkg-dev) are needed to build the package")
    sys.exit(77)
with tempfile.TemporaryDirectory(prefix="storebench-package-") as top:
    main(top)
sys.exit(check.finish("package"))
