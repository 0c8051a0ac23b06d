# glibc_model.py — what glibc's x86-64 memset does on a CPU, per glibc release branch, computed
# from a raw CPUID dump by the rules of glibc's sources (cited per rule below).  Python 3 standard
# library.  The rules are restated from reading the sources, not copied: no glibc code is here.
"""glibc's memset decision, modelled per version.

A version here is the head of glibc's release branch (release/X.Y/master), which is what a
maintained distribution ships: the branches carry backports that change memset's thresholds (the
2.36 branch, and so Debian 12's 2.36-9+deb12u*, has 2.38's non-temporal threshold; the 2.39 and
2.40 branches have 2.40's memset changes).  The plain X.Y.0 tarball can differ; it is not
modelled.  Every rule names the file and commit it comes from (RULES); tests/scripts/
glibc_model_test.py holds cases worked from those lines, and checks the model of the branch this
machine runs against its loader (ld.so --list-tunables).

Inputs are CPUID leaves (an AIDA64-style dump: `storebench info --cpuid-dump`, or
tests/fixtures/machines/cpuid).  A dump cannot say which vector state the OS enables: AVX and
AVX-512 are taken as usable when the CPU has them and OSXSAVE is set, as on Linux.
"""

import re
import subprocess

from storebench import inputs
from storebench.units import fmt_bytes

SIZE_MAX = (1 << 64) - 1
FILES = {"cache": "sysdeps/x86/dl-cacheinfo.h", "features": "sysdeps/x86/cpu-features.c",
         "ifunc": "sysdeps/x86_64/multiarch/ifunc-memset.h",
         "memset": "sysdeps/x86_64/multiarch/memset-vec-unaligned-erms.S"}
# The release branch heads read (git://sourceware.org/git/glibc.git, 2026-01-15), one per
# modelled version.
BRANCHES = {
    "2.36": "e97cfe2293ed097eb3d0b4c18274d22855e65130",
    "2.38": "d5409a1be010699794264162c551ba60f05ee6c3",
    "2.39": "ce65d944e38a20cb70af2a48a4b8aa5d8fabe1cc",
    "2.40": "9fe8576664d43b87ca19401fb6a975e217e47623",
    "2.41": "fb4db64a04ad6c96cd1fbb7e02eb59323b1f2ac2",
}
VERSIONS = tuple(BRANCHES)

# rule id: (file key, the commit(s) that brought it: master, then the branch backport, what it says)
RULES = {
    "amd_legacy_cache": ("cache", "2.36 branch handle_amd",
                         "AMD cache sizes from leaves 0x80000005/0x80000006 only"),
    "amd_leaf_1d": ("cache", "103a469dc7 + dcad5c8578 (2.38 branch: ced101ed9d)",
                    "AMD cache sizes from leaf 0x8000001D, the legacy leaves where it reports "
                    "ECX 0 (some hypervisors)"),
    "amd_per_thread": ("cache", "2.36 branch dl_init_cacheinfo",
                       "AMD: per-thread L3 = L3 / logical CPUs (leaf 1 EBX[23:16]) x CPUs "
                       "sharing the L3 (0x8000001D/3 EAX[25:14]+1) on family >= 0x17"),
    "amd_shared": ("cache", "103a469dc7 (2.38 branch: ced101ed9d)",
                   "AMD: shared = per-thread = the L3 (+ L2 before family 0x17; the L2 if no "
                   "L3)"),
    "intel_leaf4": ("cache", "get_common_cache_info",
                    "Intel: sizes from leaf 4 (leaf 2 descriptor 0xFF); CPUs per L3 from leaf 4 "
                    "and leaf 0xB; a non-inclusive L3 adds the L2"),
    "nt_quarter": ("cache", "af992e7abd + 64b184fd80 (2.36 branch: 2e74c90167, 64b184fd80)",
                   "non_temporal_threshold = shared / 4, at least 3/4 of the per-thread "
                   "share, only that without ERMS; < 0x4040 -> 64 MiB"),
    "nt_divisor": ("cache+features", "180897c161",
                   "the divisor is per Intel core: 2 from Skylake on, 8 Nehalem..Broadwell, "
                   "else 4"),
    "stosb_2048": ("cache", "all", "x86_rep_stosb_threshold defaults to 2048"),
    "amd_no_stosb": ("cache", "272708884c (2.39 branch: 6484a92698)",
                     "AMD: x86_rep_stosb_threshold is SIZE_MAX unless the tunable is set"),
    "memset_nt_shared": ("memset", "5bf0ab8057 (2.38 branch: 04b8d48432)",
                         "the _erms variants stream at and above x86_non_temporal_threshold, "
                         "inside the rep stosb path"),
    "memset_nt_tunable": ("cache", "46b5e98ef6, bef2a827a5, 5b54a33435 (2.39 branch: "
                          "0da58e8be0, cc59fa5dbc, 38a7632f2d)",
                          "x86_memset_non_temporal_threshold = x86_non_temporal_threshold "
                          "unless Avoid_Non_Temporal_Memset (then SIZE_MAX)"),
    "avoid_nt_skx": ("features", "5bcf6265f2 (2.39 branch: bde201e92c)",
                     "Avoid_Non_Temporal_Memset on Skylake-AVX512 and Cannon Lake"),
    "avoid_stosb": ("cache+ifunc", "f446d90fe6",
                    "hwcaps Avoid_STOSB: x86_rep_stosb_threshold = the memset non-temporal "
                    "threshold (streaming without rep stosb)"),
    "ifunc": ("ifunc", "all", "Prefer_ERMS -> erms; AVX512F & !Prefer_No_AVX512 -> avx512 "
              "(VL+BW+BMI2) else avx512_no_vzeroupper; AVX2 -> evex (VL+BW+BMI2), avx2_rtm, "
              "avx2 (!Prefer_No_VZEROUPPER); else sse2; _erms when ERMS"),
    "no_avx512_intel": ("features", "all",
                        "Intel without AVX512ER and AVX-VNNI: Prefer_No_AVX512 (Skylake-SP, "
                        "Ice Lake-SP)"),
    "paths": ("memset", "all", "<= 2 VEC: overlapping vector stores; _erms and size > "
              "rep_stosb_threshold: rep stosb (streaming from the non-temporal threshold where "
              "the branch has it); else the 4 x VEC loop"),
}
VERSION_RULES = {
    "2.36": ["amd_legacy_cache", "amd_per_thread", "intel_leaf4", "nt_quarter", "stosb_2048"],
    "2.38": ["amd_leaf_1d", "amd_shared", "intel_leaf4", "nt_quarter", "nt_divisor", "stosb_2048",
             "memset_nt_shared"],
    "2.39": ["amd_leaf_1d", "amd_shared", "intel_leaf4", "nt_quarter", "nt_divisor", "stosb_2048",
             "amd_no_stosb", "memset_nt_tunable", "avoid_nt_skx"],
}
VERSION_RULES["2.40"] = VERSION_RULES["2.39"]
VERSION_RULES["2.41"] = VERSION_RULES["2.39"] + ["avoid_stosb"]
for _v in VERSION_RULES:
    VERSION_RULES[_v] = VERSION_RULES[_v] + ["ifunc", "no_avx512_intel", "paths"]

# Family 6 models by the non-temporal divisor glibc gives them (intel_get_fam6_microarch and
# init_cpu_features, release/2.41): Skylake and later big cores 2; Nehalem..Broadwell 8.
DIVISOR_2 = {0x4E, 0x5E, 0x8E, 0x9E, 0xA5, 0xA6, 0x55, 0x66, 0x6A, 0x6C, 0x7D, 0x7E, 0x9D, 0x8C,
             0x8D, 0xA7, 0xB7, 0xBA, 0xBF, 0xAA, 0xAC, 0xBD, 0xB5, 0xC5, 0xC6, 0x8F, 0xCF, 0xAD,
             0xAE, 0x8A, 0x97, 0x9A, 0xBE}
DIVISOR_2_FROM_239 = {0xCC, 0xD5}  # Panther/Wildcat Lake: detected from the 2.39 branch on
DIVISOR_8 = {0x1A, 0x1E, 0x1F, 0x2E, 0x25, 0x2C, 0x2F, 0x2A, 0x2D, 0x3A, 0x3E, 0x3C, 0x3F, 0x45,
             0x46, 0x3D, 0x47, 0x4F, 0x56}
SKYLAKE_SERVER = {0x55, 0x66}  # INTEL_BIGCORE_SKYLAKE_AVX512, INTEL_BIGCORE_CANNONLAKE
NT_MIN, NT_MAX = 0x4040, SIZE_MAX >> 4
VEC_BYTES = {"avx512": 64, "evex": 32, "avx2": 32, "sse2": 16, "erms": 0}
TUNABLE = "glibc.cpu.%s"


class ModelError(Exception):
    """A CPU or input the model does not cover; str(e) is one line."""


class Cpuid:
    """Raw leaves from an AIDA64-style dump: `CPUID 0000000B: EAX-EBX-ECX-EDX [SL 01]`."""

    _LINE = re.compile(r"^CPUID ([0-9A-Fa-f]{8}): ([0-9A-Fa-f]{8})-([0-9A-Fa-f]{8})-"
                       r"([0-9A-Fa-f]{8})-([0-9A-Fa-f]{8})(?: \[SL ([0-9A-Fa-f]{2})\])?")

    # A leaf's line as against AIDA64's header lines ("CPUID Manufacturer: ...").
    _LEAF = re.compile(r"^CPUID [0-9A-Fa-f]{8}")

    def __init__(self, text, name="dump"):
        """The leaves of a dump; ModelError for a leaf line cut or not hex, or a dump without
        the leaves storebench's --cpuid needs (1, 7 and 0x80000000 where leaf 0 says they
        exist): the rule of `storebench info --cpuid`, so a garbled dump never models as
        family 0x0 or an L3 of 0 B."""
        self.name, self.leaves = name, {}
        for n, line in enumerate(text.splitlines(), 1):
            if line.startswith("-" * 20) and self.leaves:
                break  # the fixture's expected answers follow the first block
            m = self._LINE.match(line.strip())
            if m:
                key = (int(m.group(1), 16), int(m.group(6) or "0", 16))
                self.leaves.setdefault(key, tuple(int(m.group(i), 16) for i in range(2, 6)))
            elif self._LEAF.match(line.strip()):
                raise ModelError("%s: line %d is no 'CPUID xxxxxxxx: aaaaaaaa-bbbbbbbb-cccccccc-"
                                 "dddddddd' leaf (cut or not hex)" % (name, n))
        if (0, 0) not in self.leaves:
            raise ModelError("%s: no CPUID leaf 0 (not a CPUID dump?)" % name)
        top = self.leaves[(0, 0)][0]
        for leaf in [1, 7, 0x80000000]:
            if (leaf <= top or leaf == 0x80000000) and not any(self.leaves.get((leaf, 0), ())):
                raise ModelError("%s: a cut CPUID dump: leaf 0 says leaves up to 0x%x, but leaf "
                                 "0x%x is missing" % (name, top, leaf))

    @classmethod
    def live(cls, exe):
        """This machine's leaves, from `storebench info --cpuid-dump`."""
        try:
            out = subprocess.run([exe, "info", "--cpuid-dump"], capture_output=True, text=True,
                                 timeout=60)
        except (OSError, subprocess.SubprocessError) as e:
            raise ModelError("%s info --cpuid-dump: %s" % (exe, e))
        if out.returncode != 0:
            raise ModelError("%s info --cpuid-dump failed (exit %d): %s" % (
                exe, out.returncode, out.stderr.strip() or "no output"))
        return cls(out.stdout, "this CPU")

    @classmethod
    def load(cls, path):
        try:
            data = inputs.read_regular(path, inputs.CPUID_LIMIT)
        except inputs.InputError as e:
            raise ModelError("%s: %s" % (path, e))
        return cls(data.decode("utf-8", "replace"), path)

    def __call__(self, leaf, sub=0):
        """(eax, ebx, ecx, edx); zeros for a leaf beyond the maximum or absent, as the CPU."""
        top = self.leaves[(leaf & 0x80000000, 0)][0] if (leaf & 0x80000000, 0) in self.leaves \
            else 0
        if leaf > top:
            return (0, 0, 0, 0)
        return self.leaves.get((leaf, sub), (0, 0, 0, 0))

    def bit(self, leaf, sub, reg, n):
        return bool((self(leaf, sub)[reg] >> n) & 1)


def vendor(c):
    a, b, cx, d = c(0)
    name = b"".join(x.to_bytes(4, "little") for x in (b, d, cx)).decode("ascii", "replace")
    return {"GenuineIntel": "intel", "AuthenticAMD": "amd"}.get(name, name)


def family_model(c):
    """(family, model, stepping) with the extended fields added where glibc adds them."""
    eax = c(1)[0]
    base, model, step = (eax >> 8) & 0xF, (eax >> 4) & 0xF, eax & 0xF
    fam = base + ((eax >> 20) & 0xFF if base == 0xF else 0)
    if base in (0x6, 0xF):
        model += ((eax >> 16) & 0xF) << 4
    return fam, model, step


def features(c):
    """The CPUID bits memset's choice reads, usable as on Linux (see the module docstring)."""
    osxsave = c.bit(1, 0, 2, 27)
    avx = osxsave and c.bit(1, 0, 2, 28)
    avx512f = avx and c.bit(7, 0, 1, 16)
    return {"erms": c.bit(7, 0, 1, 9), "fsrm": c.bit(7, 0, 3, 4), "htt": c.bit(1, 0, 3, 28),
            "avx2": avx and c.bit(7, 0, 1, 5), "avx512f": avx512f,
            "avx512vl": avx512f and c.bit(7, 0, 1, 31), "avx512bw": avx512f and c.bit(7, 0, 1, 30),
            "avx512er": avx512f and c.bit(7, 0, 1, 27), "bmi2": c.bit(7, 0, 1, 8),
            "rtm": c.bit(7, 0, 1, 11), "avx_vnni": avx and c.bit(7, 1, 0, 4)}


def _leaf4_size(regs):
    a, b, cx, d = regs
    return ((b >> 22) + 1) * (((b >> 12) & 0x3FF) + 1) * ((b & 0xFFF) + 1) * (cx + 1)


def _subleaves(c, leaf):
    out = []
    for sub in range(64):
        r = c(leaf, sub)
        if r[0] & 0x1F == 0:
            break
        out.append(r)
    return out


def _intel_caches(c):
    """(data, core, shared, shared_per_thread, threads) as get_common_cache_info leaves them."""
    a, b, cx, d = c(2)
    if a & 0xFF != 1:
        regs = [0xFF]  # glibc: a low byte other than 1 means "use leaf 4"
    else:
        regs = [a & 0xFFFFFF00, b, cx, d]
    descriptors = [(r >> s) & 0xFF for r in regs if not r & 0x80000000 for s in (0, 8, 16, 24)]
    if 0xFF not in descriptors:
        raise ModelError("%s: Intel CPUID leaf 2 without descriptor 0xFF (a pre-2008 core): "
                         "not modelled" % c.name)
    found = {}
    for r in _subleaves(c, 4):
        kind, level = r[0] & 0x1F, (r[0] >> 5) & 7
        if level == 1 and kind == 1:
            found.setdefault("l1d", r)
        elif level in (2, 3):
            found.setdefault("l%d" % level, r)
    data = _leaf4_size(found["l1d"]) if "l1d" in found else 0
    core = _leaf4_size(found["l2"]) if "l2" in found else 0
    shared = _leaf4_size(found["l3"]) if "l3" in found else 0
    per_thread, threads = shared, 0
    level, threads_l2, threads_l3 = 3, 0, 0
    if shared <= 0:
        level, shared, per_thread, threads_l3 = 2, core, core, -1
    inclusive = True
    if features(c)["htt"]:
        max_leaf = c(0)[0]
        if max_leaf >= 4:
            if "l2" in found:
                threads_l2 = (found["l2"][0] >> 14) & 0x3FF
            if threads_l3 == 0 and "l3" in found:
                threads_l3 = (found["l3"][0] >> 14) & 0x3FF
                inclusive = bool(found["l3"][3] & 2)
            if max_leaf >= 11:
                count = int(threads_l2 > 0 and level == 3) | \
                    (int(threads_l3 > 0 or (threads_l2 > 0 and level == 2)) << 1)
                for sub in range(64):
                    if not count:
                        break
                    _, b, cx, _ = c(11, sub)
                    shipped, kind = b & 0xFF, cx & 0xFF00
                    if shipped == 0 or kind == 0:
                        break
                    if kind == 0x100 and count & 1:
                        threads_l2 = (shipped - 1) & ((1 << threads_l2.bit_length()) - 1)
                        count &= ~1
                    elif kind == 0x200 and count & 2:
                        core_t = threads_l2 if level == 2 else threads_l3
                        core_t = (shipped - 1) & ((1 << core_t.bit_length()) - 1)
                        if level == 2:
                            threads_l2 = core_t
                        else:
                            threads_l3 = core_t
                        count &= ~2
            threads_l2 += 1 if threads_l2 > 0 else 0
            threads_l3 += 1 if threads_l3 > 0 else 0
            threads = (threads_l2 if level == 2 else threads_l3) if \
                (threads_l2 if level == 2 else threads_l3) > 0 else 0
        else:
            threads = (c(1)[1] >> 16) & 0xFF
        if per_thread > 0 and threads > 0:
            per_thread //= threads
    if not inclusive:
        per_thread += core // threads_l2 if threads_l2 > 0 else core
        shared += core
    return data, core, shared, per_thread, threads


def _amd_legacy(c, level):
    """Cache size from 0x80000005 (L1d) / 0x80000006 (L2, L3), as the legacy handle_amd."""
    top = c(0x80000000)[0]
    fn = 0x80000005 if level == 1 else 0x80000006
    if top < fn:
        return 0
    _, _, cx, d = c(fn)
    if level == 1:
        return (cx >> 14) & 0x3FC00
    if level == 2:
        return 0 if cx & 0xF000 == 0 else (cx >> 6) & 0x3FFFC00
    return 0 if d & 0xF000 == 0 else (d & 0x3FFC0000) << 1


def _amd_size(c, level, rules):
    if "amd_leaf_1d" in rules and c(0x80000000)[0] >= 0x8000001D:
        sub = {1: 0, 2: 2, 3: 3}[level]
        _, b, cx, _ = c(0x8000001D, sub)
        if cx != 0:
            return (((b >> 22) & 0x3FF) + 1) * ((b & 0xFFF) + 1) * (cx + 1)
    return _amd_legacy(c, level)


def _amd_caches(c, fam, rules):
    data, core, shared = (_amd_size(c, n, rules) for n in (1, 2, 3))
    threads = 0
    if "amd_per_thread" in rules:
        per_thread = shared
        if shared <= 0:
            shared = per_thread = core
        else:
            if c(0x80000000)[0] >= 0x80000008:
                threads = 1 << ((c(0x80000008)[2] >> 12) & 0xF)
            if threads == 0 or fam >= 0x17:
                if features(c)["htt"]:
                    threads = (c(1)[1] >> 16) & 0xFF
            if threads > 0:
                per_thread //= threads
            if fam >= 0x17:
                per_thread *= ((c(0x8000001D, 3)[0] >> 14) & 0xFFF) + 1
            else:
                shared += core
                per_thread += core
        return data, core, shared, per_thread, threads
    if shared <= 0:
        shared = core
    elif fam < 0x17:
        shared += core
    return data, core, shared, shared, threads


def _tunable(tunables, name):
    v = (tunables or {}).get(TUNABLE % name)
    if v is None:
        return None
    try:
        return int(v, 0) % (1 << 64)
    except (TypeError, ValueError):
        return None


def _hwcaps(tunables):
    """{'Avoid_STOSB': True, 'AVX512F': False, ...} from glibc.cpu.hwcaps."""
    out = {}
    for item in ((tunables or {}).get(TUNABLE % "hwcaps") or "").split(","):
        item = item.strip()
        if item:
            out[item.lstrip("-")] = not item.startswith("-")
    return out


def model(c, version, tunables=None):
    """What glibc `version` (a release branch head) does for memset on CPU `c`, under the
    GLIBC_TUNABLES pairs `tunables` ({'glibc.cpu.x86_rep_stosb_threshold': '4096', ...}):
    {"version", "commit", "rules", "vendor", "family", "model", "variant", "vec_bytes", "erms",
     "data", "core", "shared", "shared_per_thread", "threads", "divisor",
     "non_temporal_threshold", "rep_movsb_threshold", "rep_stosb_threshold",
     "memset_non_temporal_threshold" (None: the branch has no streaming memset), "notes"}."""
    if version not in BRANCHES:
        raise ModelError("glibc %s is not modelled (modelled: %s)" % (version, ", ".join(VERSIONS)))
    rules = VERSION_RULES[version]
    ven = vendor(c)
    fam, mod, _ = family_model(c)
    raw = features(c)
    # init_cpu_features sets the preferences from the CPU's own bits; glibc.cpu.hwcaps is applied
    # after them (cpu-features.c, TUNABLE_GET (hwcaps) at its end), so -RTM masks RTM but leaves
    # the Prefer_No_VZEROUPPER that RTM set.
    prefer_no_avx512 = ven == "intel" and not raw["avx512er"] and not raw["avx_vnni"]
    prefer_no_vzu = ven == "intel" and (raw["avx512er"] or raw["rtm"])
    caps = _hwcaps(tunables)
    feat = {k: v and caps.get(k.upper(), True) for k, v in raw.items()}
    notes = []
    if ven == "intel":
        data, core, shared, per_thread, threads = _intel_caches(c)
    elif ven == "amd":
        data, core, shared, per_thread, threads = _amd_caches(c, fam, rules)
    else:
        raise ModelError("%s: vendor %s is not modelled (Intel and AMD are)" % (c.name, ven))

    divisor = 4
    if "nt_divisor" in rules and ven == "intel" and fam == 6:
        if mod in DIVISOR_2 or (mod in DIVISOR_2_FROM_239 and version >= "2.39"):
            divisor = 2
        elif mod in DIVISOR_8:
            divisor = 8
    nt = shared // divisor
    low = per_thread * 3 // 4
    nt = max(nt, low)
    if not feat["erms"]:
        nt = low
    if nt < NT_MIN:
        nt = 64 << 20
    elif nt > NT_MAX:
        nt = NT_MAX

    if feat["avx512f"] and not prefer_no_avx512:
        rep_movsb = 4096 * 4
    elif feat["avx2"]:
        rep_movsb = 4096 * 2  # AVX_Fast_Unaligned_Load comes with usable AVX2
    else:
        rep_movsb = 2048
    if feat["fsrm"]:
        rep_movsb = 2112
    if "amd_no_stosb" in rules and ven == "amd":  # the same commit series set memcpy's to nt
        rep_movsb = nt

    avoid_nt = "memset_nt_tunable" in rules and ven == "intel" and fam == 6 and \
        mod in SKYLAKE_SERVER
    avoid_nt = caps.get("Avoid_Non_Temporal_Memset", avoid_nt)
    given_nt = _tunable(tunables, "x86_non_temporal_threshold")
    memset_nt = None
    if "memset_nt_tunable" in rules:
        memset_nt = SIZE_MAX if avoid_nt else nt
        given = _tunable(tunables, "x86_memset_non_temporal_threshold")
        if given is not None and NT_MIN < given <= NT_MAX:
            memset_nt = given
    if given_nt is not None and NT_MIN < given_nt <= NT_MAX:
        nt = given_nt
    if "memset_nt_shared" in rules:
        memset_nt = nt

    stosb = _tunable(tunables, "x86_rep_stosb_threshold")
    if stosb is None:
        stosb = 2048
        if "amd_no_stosb" in rules and ven == "amd":
            stosb = SIZE_MAX
    if "avoid_stosb" in rules and caps.get("Avoid_STOSB"):
        stosb = memset_nt
    elif caps.get("Avoid_STOSB"):
        notes.append("hwcaps Avoid_STOSB is unknown to glibc %s (added in 2.41)" % version)

    variant = _variant(feat, caps.get("Prefer_No_AVX512", prefer_no_avx512),
                       caps.get("Prefer_No_VZEROUPPER", prefer_no_vzu), caps.get("Prefer_ERMS"),
                       avoid_nt, "avoid_stosb" in rules)
    return {"version": version, "commit": BRANCHES[version], "rules": rules, "vendor": ven,
            "family": fam, "model": mod, "variant": variant,
            "vec_bytes": VEC_BYTES[variant.split("_")[0]], "erms": "erms" in variant.split("_"),
            "data": data, "core": core,
            "shared": shared, "shared_per_thread": per_thread, "threads": threads,
            "divisor": divisor if "nt_divisor" in rules else 4, "non_temporal_threshold": nt,
            "rep_movsb_threshold": rep_movsb, "rep_stosb_threshold": stosb,
            "memset_non_temporal_threshold": memset_nt, "notes": notes}


def _variant(feat, no_avx512, no_vzeroupper, prefer_erms, avoid_nt, erms_or_nt):
    """ifunc-memset.h's choice.  From 2.41, the _erms builds are also taken without ERMS when
    the streaming path is wanted (prefer_erms_nt_impl)."""
    if prefer_erms:
        return "erms"
    suffix = "_unaligned_erms" if feat["erms"] or (erms_or_nt and not avoid_nt) else "_unaligned"
    vl_bw = feat["avx512vl"] and feat["avx512bw"] and feat["bmi2"]
    if feat["avx512f"] and not no_avx512:
        return "avx512" + suffix if vl_bw else "avx512_no_vzeroupper"
    if feat["avx2"]:
        if vl_bw:
            return "evex" + suffix
        if feat["rtm"]:
            return "avx2" + suffix + "_rtm"
        if not no_vzeroupper:
            return "avx2" + suffix
    return "sse2" + suffix


def path(m, size):
    """The path memset takes for one call of `size` bytes under model m."""
    if m["variant"] == "erms":
        return "rep_stosb"
    if not m["erms"] or size <= 2 * m["vec_bytes"] or size <= m["rep_stosb_threshold"]:
        return "vector"
    nt = m["memset_non_temporal_threshold"]
    if nt is not None and size >= nt:
        return "non_temporal"
    return "rep_stosb"


def regions(m, largest):
    """[(path, first size, last size)] over 1..largest: where each path runs.  The path can only
    change above 2 x VEC, above rep_stosb_threshold and at the non-temporal threshold."""
    starts = {1}
    for t in (2 * m["vec_bytes"] + 1, m["rep_stosb_threshold"] + 1,
              m["memset_non_temporal_threshold"]):
        if t is not None and 1 < t <= largest:
            starts.add(t)
    starts = sorted(starts)
    out = []
    for i, lo in enumerate(starts):
        hi = starts[i + 1] - 1 if i + 1 < len(starts) else largest
        p = path(m, lo)
        if out and out[-1][0] == p:
            out[-1] = (p, out[-1][1], hi)
        else:
            out.append((p, lo, hi))
    return out


def describe(m, largest):
    """'vector up to 2 KiB; rep_stosb above 2 KiB; non_temporal from 24 MiB' (1..largest)."""
    parts = regions(m, largest)
    if len(parts) == 1:
        return "%s at every size" % parts[0][0]
    out = []
    for p, lo, hi in parts:
        if lo == 1:
            where = "up to %s" % fmt_bytes(hi)
        elif lo == m["memset_non_temporal_threshold"]:
            where = "from %s" % fmt_bytes(lo)  # jae: the threshold itself streams
        else:
            where = "above %s" % fmt_bytes(lo - 1)  # ja: strictly above the threshold
        out.append("%s %s" % (p, where))
    return "; ".join(out)


def fmt_threshold(v):
    """A threshold as a size; SIZE_MAX and anything past it (a tunable's huge value) as
    SIZE_MAX, never '1.87e+08 GiB'."""
    return "-" if v is None else "SIZE_MAX" if v >= SIZE_MAX else fmt_bytes(v)


def rule_source(rule, version):
    """'sysdeps/x86/dl-cacheinfo.h @ release/2.40/master 9fe85766 (272708884c ...)'."""
    files, commits, _ = RULES[rule]
    paths = " + ".join(FILES[k] for k in files.split("+"))
    return "%s @ release/%s/master %s (%s)" % (paths, version, BRANCHES[version][:10], commits)
