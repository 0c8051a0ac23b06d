# advise_glibc.py — the starting point of `advise`: which glibc, its memset tunables as the loader
# sees them, and which memset variant its IFUNC picked.  Python 3 standard library + objdump.
# Facts are read from this process's own glibc (loader, resolved memset), never from a table of releases.
"""glibc's memset, as this machine runs it.

glibc's x86-64 memset is one routine per vector width with size paths: small stores, a loop of
four vector stores per iteration, `rep stosb` above glibc.cpu.x86_rep_stosb_threshold (variants
built with ERMS), and from glibc 2.40 a streaming (non-temporal) loop above
glibc.cpu.x86_memset_non_temporal_threshold.  `ld.so --list-tunables` prints the effective value
of every tunable after GLIBC_TUNABLES is parsed, so the same call validates an advised string:
a tunable glibc does not know is absent from the list, a value it refuses leaves the old one.
"""

import ctypes
import os
import re
import subprocess
import tempfile

REP_STOSB = "glibc.cpu.x86_rep_stosb_threshold"
NON_TEMPORAL = "glibc.cpu.x86_non_temporal_threshold"
MEMSET_NON_TEMPORAL = "glibc.cpu.x86_memset_non_temporal_threshold"
# The ones the report shows; only REP_STOSB and MEMSET_NON_TEMPORAL steer memset (NON_TEMPORAL
# is memcpy's streaming threshold, shown because 2.40 derives memset's default from it).
MEMSET_TUNABLES = (REP_STOSB, NON_TEMPORAL, MEMSET_NON_TEMPORAL)
LOADERS = ("/lib64/ld-linux-x86-64.so.2", "/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2",
           "/usr/lib64/ld-linux-x86-64.so.2")
_LINE = re.compile(r"^(glibc\.[\w.]+):\s*(\S*)(?:\s*\(min:\s*(\S+),\s*max:\s*(\S+)\))?\s*$")


class GlibcError(Exception):
    """The loader cannot be run or read; str(e) is one line."""


def version():
    """'2.36' from confstr (the glibc this Python runs on, the one storebench links), or None."""
    try:
        text = os.confstr("CS_GNU_LIBC_VERSION") or ""
    except (ValueError, OSError):
        return None
    m = re.fullmatch(r"glibc (\d+\.\d+)(?:\.\d+)?", text.strip())
    return m.group(1) if m else None


def find_loader(explicit=None):
    """The dynamic loader to ask: the given path, else the first standard one that exists."""
    for path in ([explicit] if explicit else LOADERS):
        if path and os.access(path, os.X_OK):
            return path
    raise GlibcError("no dynamic loader found (tried %s); name one with --loader" % (
        explicit or ", ".join(LOADERS)))


def to_int(text):
    try:
        return int(text, 0)
    except (TypeError, ValueError):
        return None


def to_u64(text):
    """A tunable's number as glibc reads it, unsigned 64-bit (-1 is 2^64-1); None if none."""
    v = to_int(text)
    return None if v is None else v % (1 << 64)


def list_tunables(loader, tunables=None):
    """{name: {"value": int or str, "min": int, "max": int}} as the loader reports them with
    GLIBC_TUNABLES=tunables (None: without the variable)."""
    env = dict(os.environ)
    env.pop("GLIBC_TUNABLES", None)
    if tunables is not None:
        env["GLIBC_TUNABLES"] = tunables
    try:
        out = subprocess.run([loader, "--list-tunables"], env=env, capture_output=True,
                             text=True, timeout=30)
    except (OSError, subprocess.SubprocessError) as e:
        raise GlibcError("%s --list-tunables: %s" % (loader, e))
    if out.returncode != 0:
        raise GlibcError("%s --list-tunables failed (exit %d): %s" % (
            loader, out.returncode, (out.stderr.strip().splitlines() or ["no output"])[0]))
    found = {}
    for line in out.stdout.splitlines():
        m = _LINE.match(line.strip())
        if m:
            value = to_int(m.group(2))
            found[m.group(1)] = {"value": m.group(2) if value is None else value,
                                 "min": to_int(m.group(3)), "max": to_int(m.group(4))}
    if not found:
        raise GlibcError("%s --list-tunables printed no tunables" % loader)
    return found


def parse_tunables(text):
    """'a=1:b=2' -> [("a", "1"), ("b", "2")]; pieces without '=' are kept with value None."""
    pairs = []
    for piece in (text or "").split(":"):
        if piece:
            name, eq, value = piece.partition("=")
            pairs.append((name, value if eq else None))
    return pairs


def check_tunables(loader, text, base=None):
    """Notes (one line each) for every part of a GLIBC_TUNABLES string this glibc would not
    apply: unknown names, values outside the tunable's range or left unchanged.  An empty list
    means every tunable took the value asked for."""
    applied = list_tunables(loader, text)
    base = base if base is not None else list_tunables(loader)
    notes = []
    for name, value in parse_tunables(text):
        if name not in applied:
            notes.append("%s: unknown to this glibc (ignored; it is not in --list-tunables)" % name)
            continue
        have = applied[name]["value"]
        if isinstance(have, str):  # a string tunable (glibc.cpu.hwcaps=-AVX2): applied as given
            if have != (value or ""):
                notes.append("%s=%s not applied: the loader reports %r" % (name, value, have))
            continue
        want = to_u64(value)  # -1 is 2^64-1 to glibc, not a refusal
        if want is None:
            notes.append("%s: value %r is not a number (glibc ignores it)" % (name, value))
        elif have != want:
            lo, hi = applied[name]["min"], applied[name]["max"]
            notes.append("%s=%s not applied: the loader reports %s (accepted %s..%s)" % (
                name, value, fmt_value(have), fmt_value(lo), fmt_value(hi)))
    return notes


def fmt_value(v):
    return "%d" % v if isinstance(v, int) else str(v)


def memset_variant(objdump="objdump"):
    """What the IFUNC picked, from the code at memset's resolved address (dlsym runs the
    resolver): {"name", "vec_bytes", "erms", "nt", "evidence"}, or {"name": None, "why": ...}.
    __memset_erms starts with `rep stos` and uses no vector register.  Otherwise the register
    file names the variant (zmm: avx512, ymm16-31: evex, ymm0-15: avx2, xmm: sse2), and the
    _erms entry is told from the plain one by where its first size branch goes: the `ja` after
    `cmp $2*VEC, %rdx` lands on a compare with __x86_rep_stosb_threshold (a memory operand) in
    the _erms build, on vector stores in the other.  A streaming store means a 2.38+ NT loop."""
    try:
        libc = ctypes.CDLL(None)
        addr = ctypes.cast(libc.memset, ctypes.c_void_p).value
        code = ctypes.string_at(addr, 768)
    except (OSError, AttributeError, ValueError) as e:
        return {"name": None, "why": "cannot read memset's code (%s)" % e}
    with tempfile.NamedTemporaryFile(suffix=".bin") as f:
        f.write(code)
        f.flush()
        try:
            out = subprocess.run([objdump, "-D", "-b", "binary", "-m", "i386:x86-64", f.name],
                                 capture_output=True, text=True, timeout=30)
        except (OSError, subprocess.SubprocessError) as e:
            return {"name": None, "why": "cannot disassemble memset (%s)" % e}
    insns = []  # [(offset, text)]
    for line in out.stdout.splitlines():
        m = re.match(r"\s+([0-9a-f]+):\t(?:[0-9a-f]{2} )+\s*\t(.*)$", line)
        if m:
            insns.append((int(m.group(1), 16), m.group(2).strip()))
    head = "\n".join(t for _, t in insns[:40])
    if any(t.startswith("rep stos") for _, t in insns[:8]) and \
            "%xmm" not in "\n".join(t for _, t in insns[:8]):
        return {"name": "erms", "vec_bytes": 0, "erms": True, "nt": False,
                "evidence": "code at memset's resolved address: rep stosb at its entry, "
                            "no vector register (__memset_erms)"}
    if "%zmm" in head:
        name, vec = "avx512", 64
    elif re.search(r"%ymm(1[6-9]|2\d|3[01])\b", head):
        name, vec = "evex", 32
    elif "%ymm" in head:
        name, vec = "avx2", 32
    elif "%xmm" in head:
        name, vec = "sse2", 16
    else:
        return {"name": None, "why": "memset's entry code uses no vector register objdump names"}
    at = dict(insns)
    erms = None
    for (_, prev), (_, text) in zip(insns, insns[1:20]):
        jump = re.match(r"ja\s+0x([0-9a-f]+)", text)
        if jump and re.match(r"cmp\s+\$0x%x,%%rdx" % (2 * vec), prev):
            target = at.get(int(jump.group(1), 16), "")
            erms = bool(re.match(r"cmp\s+\S*\(%rip\),%rdx|cmp\s+0x[0-9a-f]+,%rdx", target))
            break
    if erms is None:
        return {"name": None, "why": "memset's entry has no `cmp $%d,%%rdx; ja` to follow" %
                (2 * vec)}
    nt = bool(re.search(r"\bvmovnt|\bmovnt", out.stdout))
    full = "%s_unaligned%s" % (name, "_erms" if erms else "")
    evidence = "code at memset's resolved address: %s registers%s%s" % (
        {"avx512": "zmm", "evex": "ymm16-31 (EVEX)", "avx2": "ymm0-15", "sse2": "xmm"}[name],
        ", its size branch goes to the rep stosb threshold" if erms else
        ", its size branch goes straight to vector stores (no rep stosb)",
        ", a streaming-store loop" if nt else "")
    return {"name": full, "vec_bytes": vec, "erms": erms, "nt": nt, "evidence": evidence}


def starting_point(loader=None, objdump="objdump"):
    """Everything step 1 reports, as one dict."""
    path = find_loader(loader)
    ver = version()
    tun = list_tunables(path, os.environ.get("GLIBC_TUNABLES"))
    default = list_tunables(path)
    return {"version": ver, "loader": path, "env": os.environ.get("GLIBC_TUNABLES"),
            "tunables": tun, "defaults": default,
            "has_nt_path": MEMSET_NON_TEMPORAL in default,
            "variant": memset_variant(objdump)}
