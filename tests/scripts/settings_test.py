#!/usr/bin/env python3
# settings_test.py — scripts/storebench/settings.py, the settings line and the settings
# differences, on metadata written here: a recorded default against the value the run had, an
# option the command line did not give, one it gave without a recorded default (unknown), a
# setting that follows another, and the runs of a history off their usual value.
# Python 3 standard library.  Why: a table that calls zero fill "default" hides a 3x DRAM change.
"""usage: settings_test.py REPO_ROOT"""

import os
import sys

ROOT = sys.argv[1]
sys.path.insert(0, os.path.join(ROOT, "scripts"))
from storebench import settings  # noqa: E402
from testlib import Checker  # noqa: E402

check = Checker()
KEYS = "fill_byte,prefill_byte,pages,repetitions"


def meta(command="storebench run", **kv):
    """A run's metadata: the settings it judged (settings_keys), its values, its command line."""
    m = {"settings_keys": KEYS, "command_line": command, "fill_byte": "165",
         "prefill_byte": "90", "pages": "4k", "repetitions": "3"}
    m.update({k: str(v) for k, v in kv.items()})
    return m


def by_label(changing):
    return {s.label: vals for s, vals in changing}


# A run at its defaults: every setting in the line, none NOT DEFAULT.
line = settings.line(meta())
check(line.startswith("settings, all storebench's defaults: ") and "fill 0xa5" in line
      and "pages 4k" in line and "NOT DEFAULT" not in line, "defaults: %r" % line)
check(settings.line(meta(preset="nightly")).startswith("settings, all the nightly preset's"),
      "a preset's defaults are its own: %r" % settings.line(meta(preset="nightly")))

# A recorded default that differs: NOT DEFAULT, the value and its default, as a reader sees them.
zero = meta("storebench run --fill 0", fill_byte=0, default_fill_byte=165)
line = settings.line(zero)
check(line.startswith("settings: NOT DEFAULT fill 0x00 (default 0xa5); default "),
      "zero fill: %r" % line)
check(settings.line(zero, md=True).startswith("settings: **NOT DEFAULT** fill 0x00"),
      "Markdown: %r" % settings.line(zero, md=True))

# A CSV from before settings_keys: an option not given is the default of the storebench that
# ran; one given has a default nobody recorded, so the line says it is not known.
old = {"command_line": "storebench run --pages 2m", "fill_byte": "165", "pages": "2m"}
check(settings.SETTINGS[0].is_default(old) is True, "fill not given: default")
pages = next(s for s in settings.SETTINGS if s.key == "pages")
check(pages.is_default(old) is None, "pages given, no recorded default: unknown")
check(settings.line(old).startswith("settings (whether pages is the default is not known): "),
      "unknown default: %r" % settings.line(old))
check(settings.line({}).startswith("settings: not in the metadata"), "no settings at all")

# Differences: the fill changes numbers; the prefill that follows it moved only because the fill
# did, so it is set aside; a per-run key (the seed) is no difference at all.
a = meta(seed=1)
b = meta("storebench run --fill 0", seed=2, fill_byte=0, default_fill_byte=165,
         prefill_byte=255)
changing, other = settings.differences([a, b])
check(by_label(changing) == {"fill": ["0xa5", "0x00"]}, "changing: %r" % by_label(changing))
check([k for k, _ in other] == ["prefill_byte"], "set aside: %r" % other)
note = settings.note([a, b], ["A", "B"])
check(note == "settings that change numbers differ: fill 0xa5 in A, 0x00 in B", "note: %r" % note)
check(settings.note([a, meta(seed=3)], ["A", "C"]) == "", "same settings: no note")

# A prefill set on its own is a change of its own.
c = meta("storebench run --prefill 0", prefill_byte=0, default_prefill_byte=90)
check("prefill" in by_label(settings.differences([a, c])[0]), "prefill given: it changes")

# A history: the one run off the usual value is named, the others are not.
runs = [meta(), meta(), meta("storebench run --pages 2m", pages="2m", default_pages="4k"), meta()]
odd = [[(s.label, v) for s, v in r] for r in settings.unusual(runs)]
check(odd == [[], [], [("pages", "2m")], []], "unusual: %r" % odd)

sys.exit(check.finish("settings: defaults as recorded, unknown when not, followers aside"))
