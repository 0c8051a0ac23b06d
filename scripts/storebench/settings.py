# storebench/settings.py — which metadata of a run are settings that change its numbers, and how
# they read: one run's as one line, several runs' differences.  Python 3 standard library.
# Why: zero fill triples DRAM numbers on some hosts; a table or comparison must carry its settings.
"""The settings of a run that change its numbers (or its quality marks), defined once.

    settings.line(run.meta)            'settings: NOT DEFAULT fill 0x00 (default 0xa5); default ...'
    settings.differences([m1, m2])     (changing, other): the keys whose values differ
    settings.note([m1, m2], labels)    one line naming the number-changing settings that differ
    settings.unusual([m1, m2, ...])    per run, its settings off the runs' most common value

A setting's default is what the storebench that ran records: `settings_keys` names the settings
it judged and `default_<key>` the value each would have had without its option, the rest of the
command line as given, wherever the command line moved it (no default_<key>: it is the default).
No preset, profile or default value is copied here.  For a CSV from before those keys a setting
the command line did not give is still the default; one it gave is of unknown default.  The two
settings no option sets keep their fixed defaults: GLIBC_TUNABLES unset, the Release build.
A CSV written before a key existed simply lacks it: absent settings are left out of the line.
"""

__all__ = ["SETTINGS", "PER_RUN", "line", "differences", "note", "unusual"]

# Metadata that differs between any two runs and says nothing about their settings: times,
# files, the seed, and what the run measured on the side (the TSC's rate, the memory free per
# node at its start, the canary's readings).
# The run's answer (winners, winner sets, crossovers) and its time inside timed batches are
# results, not settings.
PER_RUN = ("utc_time", "utc", "utc_start", "json_file", "csv_file", "command_line", "seed",
           "winners", "winner_sets", "crossovers", "timed_s", "timed_share", "settings_keys",
           "canary_series", "canary_sample", "canary_start_gbps", "canary_ref_gbps",
           "canary_passes", "canary_out_samples", "tsc_hz", "numa_node_memory_bytes") + tuple(
               "canary_%s_%s" % (regime, k) for regime in ("l2", "llc")
               for k in ("series", "passes", "start_gbps", "ref_gbps", "out_samples"))


def _byte(v):
    try:
        return "0x%02x" % int(v)
    except ValueError:
        return v


class Setting:
    """One metadata key that changes a run's numbers or its marks."""

    def __init__(self, key, label, default, always=True, show=str, options=None, follows=None):
        self.key = key          # metadata key, as storebench writes it
        self.label = label      # its name in a line: the run option's name (--fill: fill)
        self.default = default  # a fixed default (a str) where no option sets it, else None
        self.always = always    # in every line; False: only when it is not the default
        self.show = show        # metadata value -> what a reader sees (165 -> 0xa5)
        # the command-line options that set it ("--" + label unless given; () for none: an
        # environment variable or the build)
        self.options = ("--" + label,) if options is None else options
        # the setting its default is computed from: runs that differ in this one only because
        # they differ in that one (the prefill of two fills) do not differ in it themselves
        self.follows = follows

    def recorded(self, meta):
        """Whether the run recorded this setting's default (settings_keys)."""
        return self.key in meta.get("settings_keys", "").split(",")

    def default_of(self, meta):
        """Its default in this run: the recorded one, else the fixed one, else None."""
        if self.recorded(meta):
            return meta.get("default_" + self.key, meta.get(self.key))
        return self.default

    def given(self, meta):
        """Whether the run's command line set it; None when the metadata has no command line."""
        if "command_line" not in meta:
            return None
        words = [w.partition("=")[0] for w in meta["command_line"].split()]
        return any(o in words for o in self.options)

    def is_default(self, meta):
        """True, False, or None when the default is not known for this run.  An option the
        command line did not give is the default of the storebench that ran, whatever today's is
        (the quick preset's min time was 0.005 s once)."""
        if self.recorded(meta):
            return "default_" + self.key not in meta
        if self.options and self.given(meta) is False:
            return True
        d = self.default_of(meta)
        if d is None:
            return None
        v = meta[self.key]
        try:
            return float(v) == float(d)
        except ValueError:
            return v == d


# In line order.  The first group is in every settings line; the rest appear only when a run
# changed them.  GLIBC_TUNABLES steers libc memset's strategy; the quality limits decide the marks.
SETTINGS = (
    Setting("fill_byte", "fill", None, show=_byte),
    Setting("prefill_byte", "prefill", None, show=_byte, follows="fill_byte"),
    Setting("pages", "pages", None),
    Setting("placement", "placement", None),
    Setting("membind", "membind", None),
    Setting("glibc_tunables", "GLIBC_TUNABLES", "", show=lambda v: v or "unset", options=()),
    # a preset's rounds and budget go with its repetitions (bench/config/options.h:
    # options_resolve)
    Setting("rounds", "rounds", None, follows="repetitions"),
    Setting("budget_s", "budget", None, show=lambda v: v + " s", always=False,
            follows="repetitions"),
    Setting("repetitions", "repetitions", None,
            options=("--repetitions", "--benchmark_repetitions")),
    Setting("min_time_s", "min-time", None, show=lambda v: v + " s",
            options=("--min-time", "--benchmark_min_time")),
    Setting("quality_profile", "profile", None),
    # what is measured and how a batch is sized: shown when two runs differ in them
    Setting("call_spec", "call", None, always=False),
    Setting("batch_rule", "batch rule", None, always=False, options=()),
    Setting("canary", "canary", None, always=False),
    Setting("quality_batch_ns_min", "batch-ns-min", None, always=False),
    Setting("quality_cpu_share_min", "cpu-share-min", None, always=False),
    Setting("quality_cv_max", "cv-max", None, always=False),
    Setting("quality_skew_max", "skew-max", None, always=False),
    Setting("quality_outlier_mads", "outlier-mads", None, always=False),
    Setting("quality_drift_band", "drift-band", None, always=False),
    Setting("inject_stall_ms", "inject-stall", None, always=False),
    Setting("inject_skew_us", "inject-skew", None, always=False),
    Setting("inject_slowdown_pct", "inject-slowdown", None, always=False),
    Setting("inject_drift_pct", "inject-drift", None, always=False),
    Setting("build_type", "build", "Release", always=False, options=()),
)
ABSENT = "—"


def _shown(s, meta):
    return s.show(meta[s.key]) if s.key in meta else ABSENT


def line(meta, md=False):
    """One run's settings as one line: those that differ from storebench's defaults first, after
    NOT DEFAULT (bold in Markdown) and each with its default, then the default ones; absent keys
    are left out."""
    changed, default, unknown = [], [], []
    for s in SETTINGS:
        if s.key not in meta:
            continue
        same = s.is_default(meta)
        if same is False:
            changed.append("%s %s (default %s)" % (s.label, _shown(s, meta),
                                                  s.show(s.default_of(meta))))
        elif s.always:
            default.append("%s %s" % (s.label, _shown(s, meta)))
            if same is None:
                unknown.append(s.label)
    if not changed and not default:
        return "settings: not in the metadata (a CSV from before storebench recorded them)"
    if not changed and unknown:
        return "settings (whether %s %s the default is not known): %s" % (
            ", ".join(unknown), "is" if len(unknown) == 1 else "are", ", ".join(default))
    if not changed:
        # a preset's defaults are its own: the nightly preset's 12 repetitions are not quick's
        whose = "the %s preset's" % meta["preset"] if meta.get("preset") else "storebench's"
        return "settings, all %s defaults: %s" % (whose, ", ".join(default))
    return "settings: %s %s%s" % ("**NOT DEFAULT**" if md else "NOT DEFAULT", ", ".join(changed),
                                  "; default " + ", ".join(default) if default else "")


def differences(metas):
    """The keys whose values differ between the runs: (changing, other).  changing: [(Setting,
    [value as shown, per run])] in SETTINGS order, for the settings two runs give different
    values; other: [(key, [value, per run])] for every other key except PER_RUN, in the runs'
    key order, with the settings some run lacks (an older storebench) while the rest agree and
    those that differ only through the setting they follow (the default prefill of two fills).
    A key a run lacks reads ABSENT."""
    changing, aside = [], []
    for s in SETTINGS:
        vals = [_shown(s, m) for m in metas]
        own = not s.follows or any(s.is_default(m) is not True for m in metas if s.key in m)
        if len(set(v for v in vals if v != ABSENT)) > 1 and own:
            changing.append((s, vals))
        elif len(set(vals)) > 1:
            aside.append(s.key)
    skip = {s.key for s in SETTINGS if s.key not in aside} | set(PER_RUN)
    keys = []
    for m in metas:  # a recorded default (default_<key>) belongs to its setting's line
        keys += [k for k in m if k not in keys and k not in skip and not k.startswith("default_")]
    by_key = {s.key: s for s in SETTINGS}
    other = []
    for k in keys:
        vals = [_shown(by_key[k], m) if k in by_key else m.get(k, ABSENT) for m in metas]
        if len(set(vals)) > 1:
            other.append((k, vals))
    return changing, other


def note(metas, labels):
    """One line naming the number-changing settings that differ, with each run's value (labels:
    one per run); '' when they are all the same."""
    changing, _ = differences(metas)
    if not changing:
        return ""
    return "settings that change numbers differ: " + "; ".join(
        "%s %s" % (s.label, ", ".join("%s in %s" % (v, lab) for lab, v in zip(labels, vals)))
        for s, vals in changing)


def unusual(metas):
    """For a series of runs (a history): per run, [(Setting, value as shown)] for each setting
    that changes numbers whose value is not the most common one among the runs that have it."""
    out = [[] for _ in metas]
    for s, vals in differences(metas)[0]:
        known = [v for v in vals if v != ABSENT]
        usual = max(known, key=known.count)  # ties: the first run's value
        for i, v in enumerate(vals):
            if v not in (ABSENT, usual):
                out[i].append((s, v))
    return out
