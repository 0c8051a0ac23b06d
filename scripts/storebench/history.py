# storebench/history.py — each machine's nightly runs kept on a git branch of the repository.
# Python 3 standard library + the git command line (plain git through subprocess, any remote).
# Why: a CI cache is evicted after a week unused and is scoped per branch; a lost cache must
# never lose a baseline or the trend, so the runs live where the fleet already keeps its code.
"""The history branch (default storebench-history) holds one folder per machine id, each with the
machine's run folders exactly as scripts/nightly writes them: <machine-id>/<UTC date>[-N]/.
It is an orphan branch: no commit on it shares history with the code.  Every commit holds
MARKER at its root; a branch without it (and with anything but run folders) is refused, so a
slip of --branch never rewrites a branch of code.

Every command works without touching a work tree, HEAD or any local branch: the branch is
fetched (one commit deep) into the private ref refs/storebench-history/<branch> of the current
directory's repository (so its remotes and credentials apply, e.g. actions/checkout's token), or
of a temporary bare repository when the current directory is in none; new commits are built with
a temporary index and pushed as <commit>:refs/heads/<branch>.  A push refused because another
machine pushed first is redone on the new tip; only prune --squash forces the branch, and then
under a lease on the tip it read.

Images (*.png, *.svg) stay out of the branch unless --images: scripts/plot and scripts/trend
redraw them from the CSVs, and every night's plots would otherwise grow the repository for
good.  Files beside the run folders (the machine's trend.*) are redrawn each night and not kept.
"""

import datetime
import os
import random
import re
import shutil
import subprocess
import tempfile
import time

from storebench.nightly import runs

BRANCH = "storebench-history"
IMAGES = (".png", ".svg")
MACHINE_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")
# At the root of every history commit: what makes a branch one this tool may rewrite.  A branch
# of code (prune --squash --branch main once squashed one into a single commit) never has it.
MARKER = ".storebench-history"
MARKER_TEXT = "storebench run history: <machine-id>/<run>/ folders, written by scripts/history\n"
# Words of git push's refusal when the branch moved under it (another machine saved first).
MOVED = ("non-fast-forward", "fetch first", "failed to update ref", "cannot lock ref",
         "stale info")
# The remote's ref lock held: a push in progress there, or one that died and left the file.
# Checked before MOVED, whose words the same refusal also holds.
LOCKED = re.compile(r"Unable to create '([^']*\.lock)': File exists")


class HistoryError(Exception):
    """A git step failed or the input is unusable; the message is the one line to print."""


def local_runs(machine_dir):
    """The run folders of MACHINE_DIR, oldest first."""
    if not os.path.isdir(machine_dir):
        return []
    return sorted((d for d in os.listdir(machine_dir)
                   if runs.run_key(d) and os.path.isdir(os.path.join(machine_dir, d))),
                  key=runs.run_key)


def run_path(path):
    """(machine id, run name) of a file of the branch inside a run folder
    (<machine-id>/<run>/...), None for any other path."""
    parts = path.split("/")
    if len(parts) >= 3 and MACHINE_ID.fullmatch(parts[0]) and runs.run_key(parts[1]):
        return parts[0], parts[1]
    return None


class Store:
    """The history branch of REMOTE, reached through one local repository's object store."""

    def __init__(self, remote, branch=BRANCH, log=print):
        for what, v in (("remote", remote), ("branch", branch)):
            if v.startswith("-"):  # git would read it as an option (--upload-pack runs a command)
                raise HistoryError(f"{what} '{v}' begins with '-'")
        self.remote, self.branch, self.log = remote, branch, log
        self.ref = "refs/storebench-history/" + branch  # private: no local branch is created
        self.scratch = None
        r = subprocess.run(["git", "rev-parse", "--absolute-git-dir"], capture_output=True,
                           text=True)
        if r.returncode == 0:
            self.git_dir = r.stdout.strip()
        else:
            self.scratch = tempfile.mkdtemp(prefix="storebench-history-")
            self.git_dir = self.scratch
            self.git("init", "--quiet", "--bare", self.scratch)

    def close(self):
        if self.scratch:
            shutil.rmtree(self.scratch, ignore_errors=True)

    def git(self, *args, stdin=None, env=None, check=True, work_tree=None):
        tree = ["--work-tree", work_tree] if work_tree else []
        # No credential prompt: in CI nobody answers it, and a job would hang until its timeout.
        r = subprocess.run(["git", "--git-dir", self.git_dir, *tree, *args], input=stdin,
                           capture_output=True, text=True,
                           env={**os.environ, "GIT_TERMINAL_PROMPT": "0", **(env or {})})
        if check and r.returncode != 0:
            raise HistoryError(f"git {args[0]}: {why(r)}")
        return r

    def fetch(self):
        """The branch's tip commit after a fresh one-commit-deep fetch; None when the remote has
        no such branch yet (the first save creates it)."""
        heads = self.git("ls-remote", "--heads", self.remote, "refs/heads/" + self.branch)
        if not heads.stdout.strip():
            self.git("update-ref", "-d", self.ref, check=False)
            return None
        self.git("fetch", "--quiet", "--no-tags", "--depth", "1", self.remote,
                 f"+refs/heads/{self.branch}:{self.ref}")
        tip = self.git("rev-parse", "--verify", self.ref + "^{commit}").stdout.strip()
        self.must_be_history(tip)
        return tip

    def must_be_history(self, tip):
        """HistoryError unless TIP is a history commit: MARKER at its root, or (a branch saved
        before the marker) nothing but <machine-id>/<run>/ files."""
        files = self.paths(tip)
        if MARKER in files:
            return
        odd = [p for p in files if not run_path(p)]
        if odd or not files:
            raise HistoryError(f"{self.branch} at {self.remote} is no storebench history branch "
                               f"(no {MARKER}; it holds {odd[0] if odd else 'nothing'}): "
                               "refusing to read or write it; give --branch a history branch")

    def paths(self, tip, under=""):
        """Every file of the tip's tree (under a folder when given)."""
        if not tip:
            return []
        r = self.git("ls-tree", "-r", "-z", "--name-only", tip, *([under] if under else []))
        return [p for p in r.stdout.split("\0") if p]

    def runs(self, tip):
        """{machine id: [run names, oldest first]} on the branch at TIP."""
        found = {}
        for p in self.paths(tip):
            where = run_path(p)
            if where:
                found.setdefault(where[0], set()).add(where[1])
        return {m: sorted(r, key=runs.run_key) for m, r in found.items()}

    def checkout(self, tip, files, dest):
        """Write FILES of TIP under DEST (git itself refuses unsafe paths)."""
        with tempfile.TemporaryDirectory() as tmp:
            env = {"GIT_INDEX_FILE": os.path.join(tmp, "index")}
            self.git("read-tree", tip, env=env)
            self.git("checkout-index", "-f", "-z", "--stdin", stdin="\0".join(files) + "\0",
                     env=env, work_tree=dest)

    def commit(self, tip, remove, add, message, squash=False):
        """A commit on TIP without the folders REMOVE and with ADD ({branch path: local file});
        None when the tree would not change.  SQUASH: a root commit instead, so the branch
        forgets its past (and what was pruned from it)."""
        with tempfile.TemporaryDirectory() as tmp:
            env = {"GIT_INDEX_FILE": os.path.join(tmp, "index")}
            self.git("read-tree", *([tip] if tip else ["--empty"]), env=env)
            gone = [p for folder in remove for p in self.paths(tip, folder + "/")]
            if MARKER not in self.paths(tip):
                marker = os.path.join(tmp, "marker")
                with open(marker, "w") as f:
                    f.write(MARKER_TEXT)
                add = dict(add, **{MARKER: marker})
            info = ["0 %s\t%s" % ("0" * 40, p) for p in gone]
            if add:
                names = sorted(add)
                shas = self.git("hash-object", "-w", "--no-filters", "--stdin-paths",
                                stdin="\n".join(add[n] for n in names) + "\n").stdout.split()
                info += ["%s %s\t%s" % ("100755" if os.access(add[n], os.X_OK) else "100644",
                                        sha, n) for n, sha in zip(names, shas)]
            if info:
                self.git("update-index", "--index-info", stdin="\n".join(info) + "\n", env=env)
            tree = self.git("write-tree", env=env).stdout.strip()
        # The commit object itself: a shallow fetch hides the parents from rev-list.
        root = tip and "\nparent " not in self.git("cat-file", "commit", tip).stdout
        if tip and tree == self.git("rev-parse", tip + "^{tree}").stdout.strip() and (
                not squash or root):
            return None
        parent = ["-p", tip] if tip and not squash else []
        return self.git("commit-tree", tree, *parent, "-m", message,
                        env=identity(self)).stdout.strip()

    def push(self, commit, replaces=None):
        """None when the branch now is COMMIT; else why it is worth another try: "moved" (another
        machine pushed first) or the path of the remote's lock file that is held.
        REPLACES: the tip a squashed commit stands in for; the push is forced only while the
        branch is still there, so a run another machine saved meanwhile is never lost."""
        lease = [f"--force-with-lease=refs/heads/{self.branch}:{replaces}"] if replaces else []
        r = self.git("push", "--quiet", "--porcelain", *lease, self.remote,
                     f"{commit}:refs/heads/{self.branch}", check=False)
        if r.returncode == 0:
            self.git("update-ref", self.ref, commit)
            return None
        held = LOCKED.search(r.stderr)
        if held:
            return held.group(1)
        if any(w in r.stdout + r.stderr for w in MOVED):
            return "moved"
        raise HistoryError(f"git push to {self.remote}: {refusal(r)}")

    def update(self, change, retries, squash=False):
        """Fetch, build a commit with CHANGE(tip) -> (remove, add, message) or None, push; when
        another push won the race or held the remote's lock, start over from the new tip, up
        to RETRIES more times."""
        for attempt in range(retries + 1):
            tip = self.fetch()
            planned = change(tip)
            if planned is None:
                return None
            commit = self.commit(tip, *planned, squash=squash)
            if commit is None:
                return None
            blocked = self.push(commit, replaces=tip if squash else None)
            if blocked is None:
                return commit
            if attempt == retries:
                break
            wait = random.uniform(0.5, 2.0) * (attempt + 1)
            what = ("moved while saving (another machine pushed)" if blocked == "moved" else
                    f"is locked at the remote ({blocked} exists: a push is running there)")
            self.log(f"the branch {self.branch} {what}; "
                     f"retry {attempt + 1} of {retries} in {wait:.1f} s")
            time.sleep(wait)
        if blocked == "moved":
            raise HistoryError(f"{self.branch} kept moving: gave up after {retries} retries "
                               "(raise --retries)")
        raise HistoryError(f"{blocked} at the remote stayed through {retries} retries: a git "
                           "process there died and left it, or is still running; remove the "
                           "file once none is running")


def why(r):
    """The line of a failed git command's output that says why (its first fatal/error line)."""
    lines = [ln.strip() for ln in (r.stderr + r.stdout).splitlines() if ln.strip()]
    for ln in lines:
        for word in ("fatal: ", "error: "):
            if ln.startswith(word):
                return ln[len(word):]
    return lines[-1] if lines else "exit status %d" % r.returncode


def refusal(r):
    """Why a push was refused: what the remote's hooks said, and the reason git gives for the
    ref (for example "pre-receive hook declined"), instead of "failed to push some refs"."""
    said = [ln[len("remote:"):].strip() for ln in r.stderr.splitlines()
            if ln.startswith("remote:") and ln[len("remote:"):].strip()]
    reasons = re.findall(r"\[(?:remote )?rejected\] \((.*)\)", r.stdout)
    if not said and not reasons:
        return why(r)
    return " ".join(["refused:", "; ".join(said)] + [f"({x})" for x in reasons])


def identity(store):
    """Commit with the configured identity, or name the tool when the runner has none."""
    if store.git("var", "GIT_COMMITTER_IDENT", check=False).returncode == 0:
        return {}
    who = {"NAME": "storebench history", "EMAIL": "storebench-history@localhost"}
    return {f"GIT_{role}_{k}": v for role in ("AUTHOR", "COMMITTER") for k, v in who.items()}


def restore(store, results_dir, machine_id):
    """Write the branch's runs of MACHINE_ID into RESULTS_DIR/<machine-id>/; local runs the
    branch lacks are left alone.  Returns the run names restored."""
    tip = store.fetch()
    if not tip:
        store.log(f"no history yet: {store.remote} has no branch {store.branch} "
                  "(the first save creates it)")
        return []
    files = store.paths(tip, machine_id + "/")
    if not files:
        store.log(f"{store.branch} holds no runs of {machine_id} yet")
        return []
    os.makedirs(results_dir, exist_ok=True)
    store.checkout(tip, files, results_dir)
    names = store.runs(tip).get(machine_id, [])
    span = f": {names[0]} .. {names[-1]}" if names else ""
    store.log(f"restored {len(names)} run(s) of {machine_id} from {store.branch} ({tip[:12]}) "
              f"into {os.path.join(results_dir, machine_id)}{span}")
    return names


def run_files(run_dir, images, log=print):
    """{path under the run folder: local file} of the files a run keeps on the branch.  A name
    git's path lists cannot carry (a line break in it) is left out and logged: one odd file must
    not keep a night from being saved."""
    found = {}
    for dirpath, dirs, files in os.walk(run_dir):
        dirs[:] = [d for d in dirs if d != "__pycache__"]
        for f in files:
            path = os.path.join(dirpath, f)
            rel = os.path.relpath(path, run_dir)
            if not (os.path.isfile(path) and not os.path.islink(path) and (
                    images or not f.endswith(IMAGES))):
                continue
            if "\n" in rel or "\r" in rel:
                log(f"not saved: {os.path.basename(run_dir)}/{rel!r} (a line break in its name)")
                continue
            found[rel] = path
    return found


def save(store, results_dir, machine_id, run=None, images=False, retries=5):
    """Commit MACHINE_ID's new runs (those newer than the branch's newest; or the one RUN folder,
    replacing its copy on the branch) and push.  Returns the run names saved."""
    machine_dir = os.path.join(results_dir, machine_id)
    saved = []

    def change(tip):
        on_branch = store.runs(tip).get(machine_id, [])
        if run:
            chosen = [run]
        else:
            newest = runs.run_key(on_branch[-1]) if on_branch else None
            local = local_runs(machine_dir)
            chosen = [r for r in local if newest is None or runs.run_key(r) > newest]
            older = [r for r in local if r not in chosen and r not in on_branch]
            if older:
                store.log(f"not saved: {', '.join(older)} (older than {on_branch[-1]}, the "
                          "newest on the branch; save one with --run)")
        add = {}
        for r in chosen:
            add.update({f"{machine_id}/{r}/{p}": f
                        for p, f in run_files(os.path.join(machine_dir, r), images,
                                              store.log).items()})
        saved[:] = chosen
        if not add:
            return None
        return ([f"{machine_id}/{r}" for r in chosen], add,
                f"{machine_id}: {', '.join(chosen)} (scripts/history save)")

    commit = store.update(change, retries)
    if commit is None:
        store.log(f"nothing new to save for {machine_id} on {store.branch}")
        return []
    store.log(f"saved {', '.join(saved)} of {machine_id} to {store.branch} at {store.remote} "
              f"({commit[:12]})")
    return saved


def run_date(name):
    """The UTC date in a run folder's name; None when it is no calendar date (never pruned by
    age then)."""
    try:
        return datetime.date.fromisoformat(runs.run_key(name)[0])
    except ValueError:
        return None


def baseline_of(store, tip, machine_id, names):
    """The run the gate would take as the baseline, by the gate's own rule
    (nightly.runs.why_not_baseline on a copy of each run's records, newest first): never pruned."""
    for name in reversed(names):
        folder = f"{machine_id}/{name}/"
        files = [folder + f for f in (runs.GATE, runs.JSON, "not-a-baseline.json")]
        files = [p for p in store.paths(tip, folder) if p in files]
        with tempfile.TemporaryDirectory() as tmp:
            if files:
                store.checkout(tip, files, tmp)
            if not runs.why_not_baseline(os.path.join(tmp, machine_id, name)):
                return name
    return None


def prune(store, machine_ids, keep=None, days=None, dry_run=False, retries=5, today=None,
          squash=False):
    """Drop the runs of MACHINE_IDS (None: every machine) beyond the newest KEEP or dated more
    than DAYS before today (UTC); each machine's baseline stays.  SQUASH: the branch becomes one
    commit of what is left.  Returns {machine: [dropped]}."""
    today = today or datetime.datetime.now(datetime.timezone.utc).date()
    dropped = {}

    def change(tip):
        dropped.clear()
        for mid, names in sorted(store.runs(tip).items()):
            if machine_ids is not None and mid not in machine_ids:
                continue
            doomed = set(names[:-keep]) if keep else set()
            if days is not None:
                oldest = today - datetime.timedelta(days=days)
                doomed |= {n for n in names if (run_date(n) or oldest) < oldest}
            if doomed:
                doomed.discard(baseline_of(store, tip, mid, names))
            if doomed:
                dropped[mid] = sorted(doomed, key=runs.run_key)
        if not tip or dry_run or not (dropped or squash):
            return None
        what = "; ".join(f"{m}: {len(d)} run(s)" for m, d in dropped.items()) or "no run"
        return ([f"{m}/{n}" for m, d in dropped.items() for n in d], {},
                f"prune {what}{', squashed' if squash else ''} (scripts/history prune)")

    commit = store.update(change, retries, squash)
    for mid, names in dropped.items():
        store.log(f"{'would drop' if dry_run else 'dropped'} {len(names)} run(s) of {mid}: "
                  f"{', '.join(names)}")
    if commit:
        store.log(f"{'squashed' if squash else 'pruned'} {store.branch} at {store.remote} "
                  f"({commit[:12]})")
    elif not dropped:
        store.log("nothing to prune")
    return dropped
