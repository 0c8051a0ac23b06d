# storebench/outdir.py — the output folder of a plot: fresh, or one this command filled before.
# Python 3 standard library.  A plot folder is never shared: files of an earlier CSV would sit
# beside the new ones as if they belonged to them, and a user's own files must never be replaced.
"""stage_in(folder, sources) before writing; commit(...) moves the new files in and drops stale ones."""

import os
import tempfile

MANIFEST = ".storebench-plots"  # lists the CSVs a folder's plots are of, and the files written
STAGE_PREFIX = ".plot-"          # staging folders inside the output folder (same file system)


class OutdirError(Exception):
    """The folder cannot be used; str(e) is one line."""


# File names are bytes to the system: one that is not UTF-8 (a Latin-1 CSV name) goes through
# the manifest as Python keeps it, in both directions.
_NAMES = dict(encoding="utf-8", errors="surrogateescape")


def _read(folder):
    try:
        with open(os.path.join(folder, MANIFEST), **_NAMES) as f:
            lines = f.read().splitlines()
    except FileNotFoundError:
        return None
    sources = [l[4:] for l in lines if l.startswith("csv ")]
    files = [l[5:] for l in lines if l.startswith("file ")]
    return sources, files


def claim(folder, sources):
    """Create folder, or accept it when empty or when its manifest says this command wrote all of
    it from the same CSVs (sources: absolute paths).  Returns the files written then."""
    if not os.path.isdir(folder):
        try:
            os.makedirs(folder)
        except OSError as e:
            raise OutdirError("%s: cannot create the output folder: %s" % (folder, e.strerror or e))
        return []
    entries = [e for e in os.listdir(folder) if not e.startswith(STAGE_PREFIX) and e != MANIFEST]
    if not entries:
        return []
    manifest = _read(folder)
    if manifest is None or manifest[0] != sources:
        raise OutdirError("%s: holds files this command did not write for %s; give -o a new or "
                          "empty folder" % (folder, ", ".join(os.path.basename(s) for s in sources)))
    foreign = sorted(set(entries) - set(manifest[1]))
    if foreign:
        raise OutdirError("%s: holds %s, which this command did not write; give -o a new or empty "
                          "folder" % (folder, foreign[0]))
    return manifest[1]


def stage_in(folder, sources):
    """claim(folder, sources), then a staging folder inside it: (files written before, stage).
    OutdirError, one line, when either cannot be had."""
    earlier = claim(folder, sources)
    try:
        return earlier, tempfile.mkdtemp(prefix=STAGE_PREFIX, dir=folder)
    except OSError as e:
        raise OutdirError("%s: cannot write the output folder: %s" % (folder, e.strerror or e))


def commit(folder, stage, written, earlier, sources, in_place=()):
    """Write the manifest in the stage first (a full disk fails here, with the folder as it
    was), then move the staged files in (a rename: a symlink put at a name is replaced, never
    followed), remove the earlier files of these CSVs not written again, and move the manifest
    in (by rename, so it is whole or absent).  in_place: names this command filled in the
    folder by another way (compare-cpus' overlay folder, scripts/plot's own), recorded as its
    too.  OSError when the system refuses."""
    names = list(written) + [f for f in in_place if f not in written]
    part = os.path.join(stage, MANIFEST)
    with open(part, "w", **_NAMES) as fh:
        fh.write("".join("csv %s\n" % s for s in sources) + "".join("file %s\n" % f for f in names))
        fh.flush()
        os.fsync(fh.fileno())
    for f in written:
        os.replace(os.path.join(stage, f), os.path.join(folder, f))
    for f in set(earlier) - set(names):
        try:
            os.unlink(os.path.join(folder, f))
        except FileNotFoundError:
            pass
    os.replace(part, os.path.join(folder, MANIFEST))
