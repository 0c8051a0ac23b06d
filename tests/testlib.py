# testlib.py — what several Python test drivers share: their checker, reading a storebench CSV,
# a committed result from another machine, the installable scripts/ commands, and stopping a
# running sweep at a known point.  Python 3 standard library; the drivers, one folder
# below it, import it through the PYTHONPATH that tests/CMakeLists.txt gives every Python test.

import os
import re
import subprocess

SOURCE_ONLY = ("setup", "test", "package")  # scripts that drive a source tree: not installed
# For runs that never read the drift canary: first touching its buffers (1.3 GiB on a guest
# reporting a 508 MiB L3) took 4.5 s of every run
NO_CANARY = ["--canary", "off"]


class Checker:
    """A driver's assertions: `check = Checker()`, then `check(cond, what)` for each one and
    `sys.exit(check.finish(name))` at the end.  A failed check does not stop the driver, so one
    run reports every broken assertion; each is printed the moment it fails, next to the output
    that explains it."""

    def __init__(self, say_ok=False):
        self.failed = []  # the `what` of every failed check since the start or the last clear()
        self.say_ok = say_ok  # print "ok: <what>" for a passing check too

    def __call__(self, cond, what):
        """Record and print a failed check; return whether cond held, for `if not check(...)`."""
        if not cond:
            self.failed.append(what)
            print("FAIL:", what)
        elif self.say_ok:
            print("ok:", what)
        return bool(cond)

    def clear(self):
        """Forget the failures so far: a scenario tried again is judged on its last attempt
        alone.  Failures already printed are said not to count, so the log does not mislead."""
        if self.failed:
            print("(the %d failure(s) above no longer count: tried again)" % len(self.failed))
        self.failed.clear()

    def finish(self, name):
        """Print the summary line and return the exit status: 1 if a check failed, else 0."""
        print("%s: %s" % (name, "%d failure(s)" % len(self.failed) if self.failed else "ok"))
        return 1 if self.failed else 0


def read_csv(path):
    """(metadata dict from the '# key=value' lines, every other non-empty line split at commas,
    header first).  Fields with quoted commas are not split correctly: storebench's tests use none."""
    meta, rows = {}, []
    with open(path) as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith("# "):
                k, _, v = line[2:].partition("=")
                meta[k] = v
            elif line:
                rows.append(line.split(","))
    return meta, rows


def other_machine_result(root, storebench, suffix):
    """The newest committed result under root/results whose name ends in suffix and whose machine
    is not this one (machine_id and cpu_model both differ from `storebench info`): the
    "measured elsewhere" input of a refusal test.  The sessions run on Turin, Genoa and
    Skylake-SP guests in turn, so a fixed folder would be this machine's on some of them."""
    info = subprocess.run([storebench, "info"], capture_output=True, text=True, check=True)
    here = dict(line.partition("=")[::2] for line in info.stdout.splitlines())
    found = []
    results = os.path.join(root, "results")
    for machine in sorted(os.listdir(results)):
        folder = os.path.join(results, machine)
        if machine == here.get("machine_id") or not os.path.isdir(folder):
            continue
        for name in sorted(os.listdir(folder)):
            path = os.path.join(folder, name)
            if name.endswith(suffix) and os.path.isfile(path):
                with open(path, errors="replace") as f:
                    head = f.read(65536)
                model = re.search(r'cpu_model"?[=:] ?"?(0x[0-9a-f]+)', head)
                if model and model.group(1) != here.get("cpu_model"):
                    found.append((name, path))
    if not found:
        raise RuntimeError("no result under %s from a machine other than this one" % results)
    return max(found)[1]


def installed_commands(source):
    """The scripts/ commands an install must carry: executable files without a dot, less the
    ones that drive a source tree."""
    src = os.path.join(source, "scripts")
    return sorted(n for n in os.listdir(src)
                  if "." not in n and n not in SOURCE_ONLY and os.path.isfile(os.path.join(src, n))
                  and os.access(os.path.join(src, n), os.X_OK))


def signal_at_point(proc, sig, point=3, timeout=120):
    """Wait until storebench's progress line (stderr, one line per point off a terminal) reaches
    `point`, send sig, and return all of stderr once it exits.  The progress line, not the CSV,
    says when: with the drift canary a row reaches the CSV only at the canary's next sample."""
    err = ""
    while "point %d/" % point not in err and proc.poll() is None:
        err += proc.stderr.readline()
    proc.send_signal(sig)
    return err + proc.communicate(timeout=timeout)[1]
