# glibc_model_cli.py — `scripts/glibc-model`: the model of glibc's memset as tables, per CPU and
# glibc release branch.  Python 3 standard library; runs storebench only to dump this CPU's CPUID.
"""glibc's memset, modelled per release branch, on this CPU or replayed ones (nothing measured).

For each CPU (this machine by default; --cpuid FILE for a dump: tests/fixtures/machines/cpuid, or
`storebench info --cpuid-dump` of another machine) and each glibc (--glibc, default all modelled):
the IFUNC variant, the cache sizes glibc reads, its thresholds, and which path memset takes at
each size (vector loop, rep stosb, non-temporal loop), then the rules used with the file and
commit each comes from.  A version is the head of glibc's release/X.Y/master branch, as
maintained distributions ship it (see scripts/storebench/glibc_model.py).  scripts/advise
--glibc puts these paths next to measured ones on this machine.

Exit status: 0 tables printed, 2 bad input (one line on stderr)."""

import os

from storebench import advise_measure as am
from storebench import advise_glibc as ag
from storebench import cli
from storebench import glibc_model as gm
from storebench.units import fmt_bytes, parse_bytes

PROG = "glibc-model"
COLUMNS = ("glibc", "variant", "L3 glibc sees", "per thread", "non_temporal", "rep_stosb",
           "memset non_temporal", "memset paths")


def parser():
    p = cli.parser(PROG, __doc__)
    p.add_argument("--cpuid", metavar="FILE", action="append",
                   help="a raw CPUID dump to model (repeatable; default: this CPU)")
    p.add_argument("--glibc", metavar="LIST", default="all",
                   help="versions, comma-separated, or all (%s)" % ", ".join(gm.VERSIONS))
    p.add_argument("--tunables", metavar="GLIBC_TUNABLES",
                   help="model these tunables too (x86_rep_stosb_threshold, "
                        "x86_non_temporal_threshold, x86_memset_non_temporal_threshold, hwcaps)")
    p.add_argument("--max-size", type=cli.size, default=16 << 30,
                   help="the largest call size the paths are given for (default 16 GiB)")
    p.add_argument("--markdown", action="store_true", help="a Markdown table instead of text")
    return p


def versions(text):
    """The versions --glibc names, each once, in order; 'all' for every modelled one.  An empty
    list is an error, as for advise --glibc (it once meant all)."""
    if text == "all":
        return list(gm.VERSIONS)
    out = list(dict.fromkeys(v.strip() for v in text.split(",") if v.strip()))
    if not out:
        raise gm.ModelError("--glibc '%s': name a version or all (modelled: %s)" % (
            text, ", ".join(gm.VERSIONS)))
    for v in out:
        if v not in gm.VERSIONS:
            raise gm.ModelError("--glibc %s: glibc %s is not modelled (modelled: %s)" % (
                text, v, ", ".join(gm.VERSIONS)))
    return out


def tunables(text):
    """{'glibc.cpu.NAME': value} with numbers checked as glibc reads them."""
    out = {}
    for name, value in ag.parse_tunables(text or ""):
        if value is None:
            raise gm.ModelError("--tunables: '%s' is no NAME=VALUE" % name)
        if name != gm.TUNABLE % "hwcaps" and ag.to_u64(value) is None:
            raise gm.ModelError("--tunables: %s=%s: not a number" % (name, value))
        out[name] = value
    return out


def rows(cpu, vers, tun, largest):
    """[(version, model, [cells])] for one CPU."""
    out = []
    for v in vers:
        m = gm.model(cpu, v, tun)
        out.append((v, m, [v, "__memset_" + m["variant"], fmt_bytes(m["shared"]),
                           fmt_bytes(m["shared_per_thread"]),
                           gm.fmt_threshold(m["non_temporal_threshold"]),
                           gm.fmt_threshold(m["rep_stosb_threshold"]),
                           gm.fmt_threshold(m["memset_non_temporal_threshold"]),
                           gm.describe(m, largest)]))
    return out


def table(cells, markdown):
    if markdown:
        lines = ["| " + " | ".join(COLUMNS) + " |", "|" + "---|" * len(COLUMNS)]
        return lines + ["| " + " | ".join(r) + " |" for r in cells]
    widths = [max(len(str(r[i])) for r in [COLUMNS] + cells) for i in range(len(COLUMNS))]
    fmt = "  ".join("%%-%ds" % w for w in widths[:-1]) + "  %s"
    return [fmt % COLUMNS] + [fmt % tuple(r) for r in cells]


def cpu_label(cpu, path, meta):
    fam, model, _ = gm.family_model(cpu)
    where = "this machine, %s" % meta.get("cpu_codename", "?") if path is None else \
        os.path.basename(path)
    return "%s (%s family %#x model %#x)" % (where, gm.vendor(cpu), fam, model)


def main(argv=None):
    args = parser().parse_args(argv)
    try:
        vers = versions(args.glibc)
        tun = tunables(args.tunables)
        cpus, meta = [], {}
        if args.cpuid:
            cpus = [(gm.Cpuid.load(p), p) for p in args.cpuid]
        else:
            exe = am.binary()
            meta = am.info(exe)
            cpus = [(gm.Cpuid.live(exe), None)]
        done = [(cpu, path, rows(cpu, vers, tun, args.max_size)) for cpu, path in cpus]
    except (gm.ModelError, am.MeasureError) as e:
        cli.fail(PROG, e)
    used = {}
    for cpu, path, rs in done:
        print("%s%s — modelled from glibc's sources, not measured%s" % (
            "### " if args.markdown else "", cpu_label(cpu, path, meta),
            "; GLIBC_TUNABLES=" + args.tunables if args.tunables else ""))
        print("")
        for line in table([r[2] for r in rs], args.markdown):
            print(line)
        for v, m, _ in rs:
            for n in m["notes"]:
                print("note: glibc %s: %s" % (v, n))
            for rule in m["rules"]:
                used.setdefault((rule, gm.RULES[rule][1]), []).append(v)
        print("")
    item = "- " if args.markdown else "  "
    print("rules (file @ release branch head; master commit, then the branch backport):")
    if args.markdown:
        print("")
    for v in vers:
        print("%sglibc %s = release/%s/master %s" % (item, v, v, gm.BRANCHES[v]))
    for (rule, _), vs in sorted(used.items()):
        vs = sorted(set(vs))
        print("%s%s [%s]: %s — %s (%s)" % (
            item, rule, ", ".join(vs), gm.RULES[rule][2],
            " + ".join(gm.FILES[k] for k in gm.RULES[rule][0].split("+")), gm.RULES[rule][1]))
    return 0
