#!/usr/bin/env python3
# history_test.py — scripts/history against a real bare git repository standing in for the remote.
# Python 3 standard library + git; real storebench and scripts/nightly runs in a temporary folder.
# Why: the nightly baseline must survive a lost CI cache, and machines saving at once must not
# lose each other's runs.
"""usage: history_test.py REPO_ROOT STOREBENCH git|lost_cache

git         bad usage (exit 2, one line); restore before any save; seeding a machine's runs;
            three machines saving at the same moment through a slow remote (the losers of the
            race retry, no run lost); save through a remote name of a checkout without touching
            its HEAD, branches or work tree; prune by age (dry run first), then squash.
lost_cache  the CI sequence restore, nightly, save on real tiny nightly runs: a good run, then
            a diagnostic one (--inject-slowdown) and one too noisy to be a baseline; prune
            --keep 1 would keep the baseline; the results folder deleted (the lost cache);
            restore from the branch alone gives back every file but the images, and the next
            nightly run gates against the good run, the newest good non-diagnostic one.
"""

import filecmp
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

from testlib import NO_CANARY, Checker

ROOT, STOREBENCH, MODE = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2]), sys.argv[3]
HISTORY = os.path.join(ROOT, "scripts", "history")
NIGHTLY = os.path.join(ROOT, "scripts", "nightly")
# One point on the last allowed CPU (other jobs' single threads start on the first), 9
# repetitions from the nightly preset: a few seconds per nightly run.  No drift canary in any
# run here (NO_CANARY): history keeps and restores runs, it never reads the canary.
SWEEP = ["--kernels", "memset", "--call", "16KiB", "--threads", "1", "--min-time", "0.005",
         "--placement", "cpus:%d" % max(os.sched_getaffinity(0)), *NO_CANARY]
check = Checker()


def history(*args, cwd, env=None):
    r = subprocess.run([HISTORY, *args], capture_output=True, text=True, cwd=cwd,
                       env={**os.environ, **(env or {})})
    for line in r.stderr.strip().splitlines():
        print("  " + line)
    return r


def branch_runs(remote):
    """<machine-id>/<run> of every run on the branch, read from the remote repository itself,
    in the order `scripts/history list` prints them."""
    r = subprocess.run(["git", "--git-dir", remote, "ls-tree", "-r", "--name-only",
                        "storebench-history"], capture_output=True, text=True)
    found = {tuple(p.split("/")[:2]) for p in r.stdout.split() if p.count("/") >= 2}
    day = lambda run: (run[:10], int(run[11:] or 1))  # noqa: E731
    return [f"{m}/{run}" for m, run in sorted(found, key=lambda f: (f[0], day(f[1])))]


def tiny_run(folder):
    """A real one-point storebench run written as a nightly run folder's CSV and JSON."""
    os.makedirs(folder)
    r = subprocess.run([STOREBENCH, "run", "--kernels", "memset", "--call", "4KiB", "--threads",
                        "1", "--repetitions", "1", "--min-time", "0.001", *NO_CANARY,
                        "--csv", os.path.join(folder, "nightly.csv"),
                        "--json", os.path.join(folder, "nightly.json")],
                       capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"storebench run failed: {r.stderr[-500:]}")


def git_mode(tmp):
    remote = os.path.join(tmp, "remote.git")
    subprocess.run(["git", "init", "-q", "--bare", remote], check=True)
    res = os.path.join(tmp, "results")

    # Bad usage: one line, exit status 2.
    for args, text in [([], "no command"), (["prune", "--remote", remote], "--keep N"),
                       (["prune", "--keep", "0"], "--keep"), (["save", "--run", tmp], "--run"),
                       (["save", "--machine-id", "a/b"], "--machine-id"),
                       (["restore", "--machine-id", "m", "--remote", os.path.join(tmp, "none")],
                        "git ls-remote"),
                       # issue 21.19: '*' fetched every branch, HEAD made refs/heads/HEAD
                       (["list", "--remote", remote, "--branch", "*"], "not a branch name"),
                       (["list", "--remote", remote, "--branch", "HEAD"], "not a branch name")]:
        r = history(*args, cwd=tmp)
        lines = r.stderr.strip().splitlines()
        check(r.returncode == 2 and len(lines) == 1 and text in r.stderr,
              f"{args}: exit 2 and one line naming {text!r}, got {r.returncode}: {lines}")

    # A remote or branch that git would read as an option never reaches it (issue 21.9): the
    # old code ran the --upload-pack command and left its file behind.
    for args in (["list", "--remote=--upload-pack=touch injected;"],
                 ["list", "--remote", remote, "--branch=--upload-pack=touch injected;"]):
        r = history(*args, cwd=tmp)
        lines = r.stderr.strip().splitlines()
        check(r.returncode == 2 and len(lines) == 1 and "begins with '-'" in r.stderr and
              not os.path.exists(os.path.join(tmp, "injected")),
              f"{args}: exit 2, one line, no command run; got {r.returncode}: {lines}, "
              f"injected file {os.path.exists(os.path.join(tmp, 'injected'))}")

    # A branch of code is never a history branch (issue 21.2): the old prune --squash made the
    # remote's main one commit, and save committed results onto it.
    code = os.path.join(tmp, "code")
    subprocess.run(["git", "init", "-q", "-b", "main", code], check=True)
    with open(os.path.join(code, "CMakeLists.txt"), "w") as f:
        f.write("project(x C)\n")
    ident = ["-c", "user.name=t", "-c", "user.email=t@localhost"]
    subprocess.run(["git", "-C", code, "add", "."], check=True)
    for n in (1, 2):
        subprocess.run(["git", "-C", code, *ident, "commit", "-q", "--allow-empty", "-m",
                        "code %d" % n], check=True)
    subprocess.run(["git", "-C", code, "push", "-q", remote, "main"], check=True)
    before = subprocess.run(["git", "--git-dir", remote, "rev-parse", "main"],
                            capture_output=True, text=True).stdout
    for args in (["prune", "--squash", "--branch", "main", "--remote", remote],
                 ["save", "--branch", "main", "--remote", remote, "--machine-id", "m",
                  "--results-dir", os.path.join(tmp, "none")],
                 ["restore", "--branch", "main", "--remote", remote, "--machine-id", "m",
                  "--results-dir", os.path.join(tmp, "none")]):
        r = history(*args, cwd=tmp)
        lines = r.stderr.strip().splitlines()
        after = subprocess.run(["git", "--git-dir", remote, "rev-parse", "main"],
                               capture_output=True, text=True).stdout
        check(r.returncode == 2 and len(lines) == 1 and "no storebench history branch" in
              lines[0] and after == before,
              f"{args[0]} --branch main (code): exit 2, one line, main untouched; got "
              f"{r.returncode}: {lines}, main {'kept' if after == before else 'REWRITTEN'}")

    # Before the first save the branch does not exist: nothing restored, nothing created.
    env = {"STOREBENCH": STOREBENCH}
    mid = subprocess.run([NIGHTLY, "--print-machine-id"], capture_output=True, text=True,
                         env={**os.environ, **env}).stdout.strip()
    r = history("restore", "--remote", remote, "--results-dir", res, cwd=tmp, env=env)
    check(r.returncode == 0 and "no history yet" in r.stderr, "restore before any save: exit 0")
    check(not os.path.exists(res), "restore before any save creates no results folder")

    # Seeding: every run of a machine goes up in one save; the id comes from scripts/nightly.
    today = time.strftime("%Y-%m-%d", time.gmtime())
    for name in ("2020-01-01", "2020-01-02", today):
        tiny_run(os.path.join(res, mid, name))
    r = history("save", "--remote", remote, "--results-dir", res, cwd=tmp, env=env)
    check(r.returncode == 0, f"seeding save: exit 0, got {r.returncode}")
    seeded = [f"{mid}/2020-01-01", f"{mid}/2020-01-02", f"{mid}/{today}"]
    check(branch_runs(remote) == seeded, "the seeding save put every run on the branch")
    r = history("save", "--remote", remote, "--results-dir", res, "--machine-id", mid, cwd=tmp)
    check(r.returncode == 0 and "nothing new" in r.stderr, "a second save has nothing new")

    # Three machines save at the same moment; the remote takes 2 s to accept each push, so
    # all three start from the same tip and two must find the branch moved and redo their commit.
    hook = os.path.join(remote, "hooks", "pre-receive")
    with open(hook, "w") as f:
        f.write("#!/bin/sh\nsleep 2\n")
    os.chmod(hook, 0o755)
    for m in ("m1", "m2", "m3"):
        shutil.copytree(os.path.join(res, mid, today), os.path.join(res, m, today))
    procs = [subprocess.Popen([HISTORY, "save", "--remote", remote, "--results-dir", res,
                               "--machine-id", m], cwd=tmp, stderr=subprocess.PIPE, text=True)
             for m in ("m1", "m2", "m3")]
    said = [p.communicate()[1] for p in procs]
    print("  " + "  ".join(said).strip().replace("\n", "\n  "))
    check(all(p.returncode == 0 for p in procs), f"concurrent saves: exit 0 each: {said}")
    check(sum("retry" in s for s in said) >= 1, "a save that lost the race retried")
    os.remove(hook)

    # A remote that refuses says why, and a lock left at the remote is named as one (issue
    # 21.19: the hook's words were dropped for "failed to push some refs", and the lock was
    # retried as "another machine pushed" until "retry 3 of 2").
    with open(hook, "w") as f:
        f.write("#!/bin/sh\necho 'quota exceeded for results' >&2\nexit 1\n")
    os.chmod(hook, 0o755)
    tiny_run(os.path.join(res, "m6", today))
    r = history("save", "--remote", remote, "--results-dir", res, "--machine-id", "m6", cwd=tmp)
    lines = r.stderr.strip().splitlines()
    check(r.returncode == 2 and len(lines) == 1 and "quota exceeded for results" in lines[0] and
          "pre-receive hook declined" in lines[0],
          f"a hook's refusal: exit 2, one line with its reason; got {r.returncode}: {lines}")
    os.remove(hook)
    lock = os.path.join(remote, "refs", "heads", "storebench-history.lock")
    open(lock, "w").close()
    r = history("save", "--remote", remote, "--results-dir", res, "--machine-id", "m6",
                "--retries", "1", cwd=tmp)
    lines = r.stderr.strip().splitlines()
    check(r.returncode == 2 and "storebench-history.lock" in lines[-1] and
          "retry 1 of 1" in r.stderr and "retry 2" not in r.stderr and
          "another machine" not in r.stderr,
          f"a held lock: named, one retry of one, exit 2; got {r.returncode}: {lines}")
    os.remove(lock)
    r = history("save", "--remote", remote, "--results-dir", res, "--machine-id", "m6", cwd=tmp)
    check(r.returncode == 0, f"the lock gone, the save goes through: {r.returncode}")
    runs = branch_runs(remote)
    check(all(f"{m}/{today}" in runs for m in ("m1", "m2", "m3")) and
          all(s in runs for s in seeded), f"no run lost in the race: {runs}")

    # Through the remote name of a checkout (as in CI): its HEAD, branches and files stay.
    work = os.path.join(tmp, "checkout")
    subprocess.run(["git", "init", "-q", work], check=True)
    subprocess.run(["git", "-C", work, "remote", "add", "origin", remote], check=True)
    tiny_run(os.path.join(work, "perf", "m4", today))
    r = history("save", "--results-dir", "perf", "--machine-id", "m4", cwd=work)
    runs = branch_runs(remote)
    check(r.returncode == 0 and f"m4/{today}" in runs, "save through the checkout's origin")
    st = subprocess.run(["git", "-C", work, "status", "--porcelain", "--untracked-files=no"],
                        capture_output=True, text=True).stdout
    heads = subprocess.run(["git", "-C", work, "for-each-ref", "refs/heads"],
                           capture_output=True, text=True).stdout
    check(st == "" and heads == "", f"the checkout's index and branches untouched: {st}{heads}")

    # A file with a line break in its name is left out and named, the night still saved (issue
    # 21.3: the old save exited 2 and saved nothing of it).
    tiny_run(os.path.join(res, "m5", today))
    with open(os.path.join(res, "m5", today, "odd\nname.txt"), "w") as f:
        f.write("x\n")
    r = history("save", "--remote", remote, "--results-dir", res, "--machine-id", "m5", cwd=tmp)
    check(r.returncode == 0 and f"m5/{today}" in branch_runs(remote) and
          "'odd\\nname.txt'" in r.stderr,
          f"save with an odd file name: exit {r.returncode}, {r.stderr.strip()[-300:]}")
    runs = branch_runs(remote)

    # Prune by age: the 2020 runs go, today's stays; a dry run changes nothing.
    r = history("prune", "--remote", remote, "--days", "30", "--machine-id", mid, "--dry-run",
                cwd=tmp)
    check(r.returncode == 0 and "would drop 2 run(s)" in r.stderr, "prune --dry-run says what")
    check(branch_runs(remote) == runs, "prune --dry-run leaves the branch as it was")
    r = history("prune", "--remote", remote, "--days", "30", cwd=tmp)
    left = branch_runs(remote)
    check(r.returncode == 0 and left == [x for x in runs if "/2020-" not in x],
          f"prune --days 30 dropped exactly the 2020 runs: {left}")

    # Squashed, the branch is one commit with the same runs: the pruned ones are gone for good.
    r = history("prune", "--remote", remote, "--squash", cwd=tmp)
    count = subprocess.run(["git", "--git-dir", remote, "rev-list", "--count",
                            "storebench-history"], capture_output=True, text=True).stdout.strip()
    check(r.returncode == 0 and count == "1" and branch_runs(remote) == left,
          f"prune --squash: one commit ({count}), the same runs")
    r = history("list", "--remote", remote, cwd=tmp)
    check(r.returncode == 0 and r.stdout.split() == left, f"list prints the runs: {r.stdout}")
    gone = subprocess.run(["git", "--git-dir", remote, "log", "--all", "--format=%H", "--",
                           f"{mid}/2020-01-01"], capture_output=True, text=True).stdout.strip()
    check(gone == "", "after --squash no commit of the branch holds a pruned run")


def nightly(res, mid, *extra, storebench_args=()):
    r = subprocess.run([NIGHTLY, "--storebench", STOREBENCH, "--results-dir", res, "--machine-id",
                        mid, "--budget", "5m", "--no-plots", *extra, "--", *SWEEP,
                        *storebench_args],
                       capture_output=True, text=True)
    out = r.stdout.strip().splitlines()
    run_dir = out[-1] if out else ""
    if not os.path.isdir(run_dir):
        sys.exit(f"nightly made no run folder: {r.stderr[-800:]}")
    rec = "gate.json" if os.path.isfile(os.path.join(run_dir, "gate.json")) else \
        "not-a-baseline.json"
    with open(os.path.join(run_dir, rec)) as f:
        doc = json.load(f)
    given = " ".join(["...", *storebench_args])
    print(f"$ scripts/nightly {' '.join(extra)} -- {given} -> {os.path.basename(run_dir)}: exit "
          f"{r.returncode}, {rec}, baseline {doc.get('baseline')}")
    return run_dir, rec == "gate.json", doc


def data_files(top):
    """Every file under TOP but the images, as paths relative to it."""
    return sorted(os.path.relpath(os.path.join(d, f), top) for d, _, fs in os.walk(top)
                  for f in fs if not f.endswith((".png", ".svg")))


def lost_cache_mode(tmp):
    remote = os.path.join(tmp, "remote.git")
    subprocess.run(["git", "init", "-q", "--bare", remote], check=True)
    work = os.path.join(tmp, "checkout")  # the CI job's checkout: history goes through origin
    subprocess.run(["git", "init", "-q", work], check=True)
    subprocess.run(["git", "-C", work, "remote", "add", "origin", remote], check=True)
    res, mid = os.path.join(work, "perf-history"), "lost-cache"
    machine = os.path.join(res, mid)

    def ci_night(*extra, storebench_args=(), restore=True):
        """One night of the CI job: restore, nightly, save."""
        if restore:
            check(history("restore", "--results-dir", res, "--machine-id", mid,
                          cwd=work).returncode == 0, "restore: exit 0")
        run = nightly(res, mid, *extra, storebench_args=storebench_args)
        check(history("save", "--results-dir", res, "--machine-id", mid,
                      cwd=work).returncode == 0, "save: exit 0")
        return run

    # --noisy-max 100: a busy test machine must not keep a run from finishing its gate.
    good, complete, _ = ci_night("--noisy-max", "100")
    check(complete, "the first run finished its gate (gate.json)")
    # Newer than the good run, and finished too, but never a baseline: a diagnostic run ...
    diag, complete, _ = ci_night("--noisy-max", "100",
                                 storebench_args=("--inject-slowdown", "40"))
    check(complete, "the diagnostic run finished its gate (gate.json)")
    # ... and a run too noisy to judge: every point below a CPU share of 1 (a thread's CPU time
    # never reaches its batch's wall time; cv no longer serves: over 12 rounds the interval,
    # not a cv flag, carries the spread).
    noisy, complete, _ = ci_night("--cpu-share-min", "1", "--noisy-max", "0.001")
    check(not complete, "the --cpu-share-min 1 run is too noisy: not-a-baseline.json")
    names = [os.path.basename(d) for d in (good, diag, noisy)]

    # prune keeps the baseline by the gate's rule: --keep 1 would drop only the diagnostic run.
    r = history("prune", "--keep", "1", "--dry-run", cwd=work)
    check(r.returncode == 0 and f"would drop 1 run(s) of {mid}: {names[1]}" in r.stderr,
          f"prune --keep 1 --dry-run would drop {names[1]} alone, keeping the baseline "
          f"{names[0]}")

    before = data_files(machine)
    saved = os.path.join(tmp, "before")
    shutil.copytree(machine, saved)
    # The cache is lost: nothing of the results tree is left on the runner.
    shutil.rmtree(res)
    print(f"$ rm -rf {res}")
    r = history("restore", "--results-dir", res, "--machine-id", mid, cwd=work)
    check(r.returncode == 0, "restore from the branch alone: exit 0")
    check(data_files(machine) == before, "restore gave back every file but the images: "
          f"{sorted(set(before) ^ set(data_files(machine)))}")
    same = filecmp.cmpfiles(saved, machine, before, shallow=False)[0]
    check(same == before, f"restored files are byte for byte the saved ones: "
          f"{sorted(set(before) - set(same))}")

    night, complete, doc = ci_night("--noisy-max", "100", restore=False)
    check(doc.get("baseline") == os.path.join(good, "nightly.json"),
          f"after the lost cache the gate's baseline is the newest good non-diagnostic run "
          f"{names[0]}, not {doc.get('baseline')}")

    # prune --keep 1 now keeps tonight's run alone: it is the newest and the next baseline.
    r = history("prune", "--keep", "1", cwd=work)
    left = branch_runs(remote)
    check(r.returncode == 0 and complete and left == [f"{mid}/{os.path.basename(night)}"],
          f"prune --keep 1 left {left}")


def main():
    tmp = tempfile.mkdtemp(prefix="storebench-history-test-")
    try:
        git_mode(tmp) if MODE == "git" else lost_cache_mode(tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return check.finish("history %s" % MODE)


if __name__ == "__main__":
    sys.exit(main())
