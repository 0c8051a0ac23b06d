#!/usr/bin/env python3
# ci_files_test.py — the nightly CI definitions parse and call only what the repository has.
# Python 3 + python3-yaml.  GitHub workflow from .github/workflows, GitLab YAML from docs/ci.md.
# Why: a CI file is only exercised at 02:23 on the fleet; a typo there should fail here first.
"""usage: ci_files_test.py REPO_ROOT"""

import os
import re
import shlex
import subprocess
import sys

import yaml

from testlib import Checker

ROOT = sys.argv[1] if len(sys.argv) > 1 else "."
check = Checker()
HISTORY_COMMANDS = ("restore", "save", "prune", "list")


def gitlab_yaml():
    """The one ```yaml block under '## GitLab CI' in docs/ci.md."""
    with open(os.path.join(ROOT, "docs", "ci.md")) as f:
        text = f.read()
    section = text.split("\n## GitLab CI\n", 1)
    check(len(section) == 2, "docs/ci.md has a '## GitLab CI' section")
    blocks = re.findall(r"^```yaml\n(.*?)^```$", section[-1], re.S | re.M)
    check(len(blocks) == 1, "docs/ci.md's GitLab section holds exactly one yaml block")
    return yaml.safe_load(blocks[0]) if blocks else {}


def help_options(script, *command):
    r = subprocess.run([os.path.join(ROOT, script), *command, "--help"], capture_output=True,
                       text=True)
    check(r.returncode == 0, f"{script} {' '.join(command)} --help exits 0")
    return set(re.findall(r"(--[a-z][a-z-]*)", r.stdout)) | {"-o"}


def check_commands(where, lines):
    """Every repository script a CI line calls exists, is executable, and knows its options."""
    called = 0
    for line in lines:
        for m in re.finditer(r"(?<![\w/.-])((?:scripts|\.ci)/[\w.-]+)", line):
            path = m.group(1)
            called += 1
            full = os.path.join(ROOT, path)
            check(os.path.isfile(full) and os.access(full, os.X_OK),
                  f"{where}: '{path}' exists and is executable")
            command = []
            if path == "scripts/history":
                command = line[m.end():].split()[:1]
                check(command and command[0] in HISTORY_COMMANDS,
                      f"{where}: scripts/history is given a command it has: {line.strip()}")
            if path in ("scripts/nightly", "scripts/compare-cpus", "scripts/history") and \
                    os.path.isfile(full):
                known = help_options(path, *command)
                rest = line[m.end():]
                rest = rest.split("--  ", 1)[0].split(" -- ", 1)[0]
                for opt in re.findall(r"(?<![\w-])(--?[a-z][a-z-]*)", rest):
                    check(opt in known, f"{where}: {path} knows the option {opt}")
    return called


def shell_lines(steps_text):
    """A run:/script: block as logical lines (backslash continuations joined)."""
    return re.sub(r"\\\n\s*", " ", steps_text).splitlines()


def results_dir(line):
    m = re.search(r"--results-dir[ =]\"?([^\s\"]+)", line)
    return m.group(1) if m else None


def history_steps(where, lines):
    """The history survives the CI cache: the runs are restored from the history branch before
    scripts/nightly and saved after it, in the results tree nightly writes.  LINES: (line, whether
    it runs when the gate failed) of one job, in order."""
    at = {}
    for i, (line, _) in enumerate(lines):
        for key in ("scripts/nightly", "scripts/history restore", "scripts/history save"):
            if key in line:
                at.setdefault(key, i)
    night = at.get("scripts/nightly")
    restore, save = at.get("scripts/history restore"), at.get("scripts/history save")
    if None in (night, restore, save):
        check(False, f"{where}: the nightly job restores and saves its history: {sorted(at)}")
        return
    check(restore < night < save, f"{where}: restore, then scripts/nightly, then save")
    dirs = {results_dir(lines[i][0]) for i in (night, restore, save)}
    check(len(dirs) == 1 and None not in dirs,
          f"{where}: history and scripts/nightly use one --results-dir: {dirs}")
    check(lines[save][1], f"{where}: the history is saved when the gate failed too")


def github():
    path = os.path.join(ROOT, ".github", "workflows", "nightly-perf.yml")
    with open(path) as f:
        wf = yaml.safe_load(f)
    on = wf.get("on", wf.get(True))  # YAML 1.1 reads a bare `on` key as true
    check(isinstance(on, dict) and on.get("schedule") and "workflow_dispatch" in on,
          "workflow: schedule and workflow_dispatch triggers")
    check(all(re.fullmatch(r"[0-9*/,-]+( [0-9*/,-]+){4}", s.get("cron", ""))
              for s in (on or {}).get("schedule", [])), "workflow: cron lines have 5 fields")
    jobs = wf.get("jobs", {})
    nightly, compare = jobs.get("nightly", {}), jobs.get("compare", {})
    cpus = nightly.get("strategy", {}).get("matrix", {}).get("cpu", [])
    check(len(cpus) >= 2, "workflow: matrix over at least two CPU labels")
    runs_on = nightly.get("runs-on", [])
    check("self-hosted" in runs_on and any("matrix.cpu" in str(x) for x in runs_on),
          "workflow: nightly runs on [self-hosted, <cpu label>]")
    check("nightly" in str(compare.get("needs")), "workflow: compare needs the nightly jobs")
    lines = []
    for name, job in jobs.items():
        for step in job.get("steps", []):
            check("run" in step or "uses" in step, f"workflow: {name} steps run or use something")
            lines += shell_lines(step.get("run", ""))
    text = "\n".join(lines)
    check("scripts/nightly" in text, "workflow calls scripts/nightly")
    check("scripts/compare-cpus" in text, "workflow calls scripts/compare-cpus")
    uses = [s.get("uses", "") for j in jobs.values() for s in j.get("steps", [])]
    check(any(u.startswith("actions/upload-artifact@") for u in uses), "workflow uploads artifacts")
    check(any(u.startswith("actions/download-artifact@") for u in uses),
          "workflow downloads artifacts for the comparison")
    check(check_commands("workflow", lines) >= 3, "workflow calls repository scripts")
    check((wf.get("permissions") or {}).get("contents") == "write",
          "workflow: contents: write, so the history branch can be pushed")
    steps = [(ln, "always()" in str(st.get("if", ""))) for st in nightly.get("steps", [])
             for ln in shell_lines(st.get("run", ""))]
    history_steps("workflow", steps)
    check(any("scripts/history prune" in ln for ln in lines), "workflow prunes the history")
    # the scheduled night keeps the machine's profile thresholds (issue 21.23: a default of 5
    # forced the metal threshold on vm runners), and turns exit 3 into a warning
    inputs = on.get("workflow_dispatch", {}).get("inputs", {}) if isinstance(on, dict) else {}
    check(not str(inputs.get("threshold", {}).get("default", "")).strip(),
          "workflow: no default --threshold over the profile's")
    check(any('"$status" -eq 3' in ln for ln in lines), "workflow: exit 3 is a warning")


def gitlab():
    gl = gitlab_yaml()
    check(set(gl.get("stages", [])) >= {"nightly", "compare"}, "gitlab: nightly and compare stages")
    nightly, compare = gl.get("nightly", {}), gl.get("compare", {})
    matrix = nightly.get("parallel", {}).get("matrix", [{}])[0]
    check(len(matrix.get("CPU", [])) >= 2, "gitlab: parallel matrix over CPU tags")
    check(nightly.get("tags") == ["$CPU"], "gitlab: nightly jobs tagged by CPU")
    check(any("schedule" in str(r.get("if", "")) for r in nightly.get("rules", [])),
          "gitlab: nightly runs on schedules")
    check("nightly" in str(compare.get("needs")), "gitlab: compare needs the nightly jobs")
    lines = [ln for job in (nightly, compare) for ln in job.get("script", [])]
    for ln in lines:
        try:
            shlex.split(ln)
        except ValueError as e:
            check(False, f"gitlab: script line parses as shell words: {ln!r} ({e})")
    check(check_commands("gitlab", lines) >= 3, "gitlab calls repository scripts")
    # A script: list stops at its first failing line, so the save must come before the final
    # `exit "$status"` and after nothing that can fail once the gate has run.
    script = nightly.get("script", [])
    gated = [i for i, ln in enumerate(script) if "scripts/nightly" in ln]
    goes_on = bool(gated) and "|| status=$?" in script[gated[0]]  # a regression does not stop it
    history_steps("gitlab", [(ln, goes_on and i > gated[0]) for i, ln in enumerate(script)])
    check(script and script[-1].startswith("exit"), "gitlab: the nightly script ends in its exit")
    check(all("--remote" in ln for ln in lines if "scripts/history" in ln),
          "gitlab: scripts/history is given the --remote it can push to")
    check(any("scripts/history prune" in ln for ln in lines), "gitlab prunes the history")


github()
gitlab()
sys.exit(check.finish("ci files"))
