#!/usr/bin/env python3
# paths_test.py — the files and folders CONTRIBUTING.md and bench/README.md point at exist, and
# bench/README.md's map names every stage folder of bench/ and no other, and no #include points
# against its arrows; every test lies in tests/<area>/ as <module>_test.{c,py} and is
# registered under that name.
# Python 3 standard library.  Why: the recipes send a newcomer to one list to edit; a move that
# leaves them pointing at an old path sends the newcomer nowhere.
"""usage: paths_test.py REPO_ROOT"""

import os
import re
import sys

from testlib import Checker

ROOT = sys.argv[1]
check = Checker()
# a backticked or linked repository path: a top-level folder, then at least one more part
PATH = re.compile(r"(?<![\w./-])((?:bench|kernels|scripts|tests|results|docs)/[\w./<>-]*)")


def paths_in(page):
    """The repository paths PAGE names, placeholders (<isa>, <name>) left as they are."""
    with open(os.path.join(ROOT, page)) as f:
        return sorted({m.group(1).rstrip(".") for m in PATH.finditer(f.read())})


def exists(path, base):
    """Whether PATH names something in the tree, from the root or from BASE; a placeholder
    (<isa>) matches any name."""
    for top in (ROOT, base):
        pattern = re.sub(r"<[a-z_]+>", r"[\\w-]+", re.escape(path.rstrip("/")))
        rx = re.compile("^" + pattern + "/?$")
        for dirpath, dirs, files in os.walk(top):
            dirs[:] = [d for d in dirs if d not in (".git", "build")]
            rel = os.path.relpath(dirpath, top)
            for name in dirs + files:
                if rx.match(os.path.normpath(os.path.join(rel, name))):
                    return True
    return False


def arrows(folders):
    """bench/README.md's order of the stage folders ("cli → output → ... → stats") names every
    folder once, and no #include in bench/ reaches a header of a folder to its left."""
    with open(os.path.join(ROOT, "bench", "README.md")) as f:
        line = next((ln for ln in f if ln.count(" → ") >= len(folders) - 1), "")
    order = [w.strip(" :") for w in line.split(":", 1)[0].split(" → ")]
    check(sorted(order) == sorted(folders), f"bench/README.md's arrows {order}, folders {folders}")
    home = {f: d for d in folders for f in os.listdir(os.path.join(ROOT, "bench", d))}
    left = []
    for d in folders:
        for name in sorted(os.listdir(os.path.join(ROOT, "bench", d))):
            with open(os.path.join(ROOT, "bench", d, name), errors="replace") as f:
                for n, text in enumerate(f, 1):
                    m = re.match(r'\s*#\s*include\s+"([^"]+)"', text)
                    to = home.get(m.group(1)) if m else None
                    if to in order and d in order and order.index(to) < order.index(d):
                        left.append(f"bench/{d}/{name}:{n} includes {m.group(1)} ({to})")
    check(not left, f"includes against bench/README.md's arrows: {left}")
    print(f"ok: arrows {' → '.join(order)}, no include points left")


def main():
    for page, base in (("CONTRIBUTING.md", ROOT), ("bench/README.md", os.path.join(ROOT, "bench"))):
        names = paths_in(page)
        missing = [p for p in names if not exists(p, base)]
        check(names and not missing, f"{page} points at paths that are not there: {missing}")
        print(f"ok: {page}: {len(names)} paths")
    with open(os.path.join(ROOT, "bench", "README.md")) as f:
        mapped = set(re.findall(r"^\| `(\w+)/` \|", f.read(), re.M))
    folders = {d for d in os.listdir(os.path.join(ROOT, "bench"))
               if os.path.isdir(os.path.join(ROOT, "bench", d))}
    check(mapped == folders, f"bench/README.md maps {sorted(mapped)}, bench/ has {sorted(folders)}")
    arrows(folders)
    tests_by_module()
    return check.finish("docs paths")


def tests_by_module():
    """CONTRIBUTING.md's rule for tests: every test file lies in an area folder, is named
    <module>_test.c or .py, and is registered under its own name by its folder's CMakeLists.txt
    (sb_c_test or sb_py_test), which registers no test of another name."""
    tests = os.path.join(ROOT, "tests")
    stray = [f for f in os.listdir(tests) if f.endswith(("_test.c", "_test.py"))]
    check(not stray, f"test files outside an area folder: {stray}")
    areas = [d for d in sorted(os.listdir(tests))
             if os.path.isfile(os.path.join(tests, d, "CMakeLists.txt"))]
    for area in areas:
        with open(os.path.join(tests, area, "CMakeLists.txt")) as f:
            text = f.read()
        registered = set(re.findall(r"^\s*sb_(?:c|py)_test\((\w+)", text, re.M))
        files = {f.rsplit(".", 1)[0] for f in os.listdir(os.path.join(tests, area))
                 if re.fullmatch(r"\w+_test\.(c|py)", f)}
        check(registered == files, f"tests/{area}: files {sorted(files)}, registered "
              f"{sorted(registered)}")
        others = [n for n in re.findall(r"add_test\(NAME (\S+)", text)
                  if n.split(".")[0].replace("${", "") not in files]
        check(not others, f"tests/{area}: tests not named after a file: {others}")
    print(f"ok: tests: {len(areas)} area folders, every test named after its file")


sys.exit(main())
