/*
 * cpu.c — CPU identity and usable ISA from raw CPUID (+ XGETBV here), and the availability verdict.
 * Plain C, no ISA flags; XGETBV is issued as raw bytes so no -mxsave is needed.
 * An ISA counts only when the CPU has it AND the OS saves its register state (XCR0).
 */
#include "cpu.h"
#include "cpu_raw.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "input_file.h"

/* XCR0 state components the OS must enable before vector code may run. */
#define CPUID_DUMP_MAX (1 << 20) /* a dump of every leaf of one CPU is a few KiB */
#define XCR0_SSE     (1u << 1)
#define XCR0_AVX     (1u << 2)
#define XCR0_OPMASK  (1u << 5)
#define XCR0_ZMM_HI  (1u << 6)
#define XCR0_HI16ZMM (1u << 7)
#define XCR0_YMM     (XCR0_SSE | XCR0_AVX)
#define XCR0_ZMM     (XCR0_YMM | XCR0_OPMASK | XCR0_ZMM_HI | XCR0_HI16ZMM)

struct regs cpu_raw_leaf(const struct cpu_raw_data_t *raw, uint32_t n)
{
	const uint32_t *r;

	if (n & 0x80000000u) {
		if (n > raw->ext_cpuid[0][EAX] || n - 0x80000000u >= MAX_EXT_CPUID_LEVEL)
			return (struct regs){ 0, 0, 0, 0 };
		r = raw->ext_cpuid[n - 0x80000000u];
	} else {
		if (n > raw->basic_cpuid[0][EAX] || n >= MAX_CPUID_LEVEL)
			return (struct regs){ 0, 0, 0, 0 };
		r = raw->basic_cpuid[n];
	}
	return (struct regs){ r[EAX], r[EBX], r[ECX], r[EDX] };
}

static uint64_t xgetbv0(void)
{
	uint32_t lo, hi;

	__asm__ volatile(".byte 0x0f, 0x01, 0xd0" : "=a"(lo), "=d"(hi) : "c"(0));
	return ((uint64_t)hi << 32) | lo;
}

static int bit(uint32_t reg, unsigned n)
{
	return (reg >> n) & 1;
}

/* Whether every bit of mask is set in reg. */
static int all(uint32_t reg, uint32_t mask)
{
	return (reg & mask) == mask;
}

/* The psABI's x86-64 levels (x86-64-psABI, "Micro-architecture levels"), each including the last. */
static unsigned isa_levels(const struct regs *l1, const struct regs *l7, const struct regs *ext1)
{
	/* v2: cx16 (1.ECX13), popcnt (23), sse3 (0), sse4.1 (19), sse4.2 (20), ssse3 (9); lahf
	 * (0x80000001 ECX0).  v3: avx (1.ECX28), f16c (29), fma (12), movbe (22), osxsave (27);
	 * avx2 (7.EBX5), bmi1 (3), bmi2 (8); lzcnt (0x80000001 ECX5).  v4: avx512f (7.EBX16), dq
	 * (17), cd (28), bw (30), vl (31). */
	unsigned isa = 0;

	if (!all(l1->c, 1u << 13 | 1u << 23 | 1u << 0 | 1u << 19 | 1u << 20 | 1u << 9) ||
	    !bit(ext1->c, 0))
		return isa;
	isa |= ISA_X86_64_V2;
	if (!all(l1->c, 1u << 28 | 1u << 29 | 1u << 12 | 1u << 22 | 1u << 27) ||
	    !all(l7->b, 1u << 5 | 1u << 3 | 1u << 8) || !bit(ext1->c, 5))
		return isa;
	isa |= ISA_X86_64_V3;
	if (all(l7->b, 1u << 16 | 1u << 17 | 1u << 28 | 1u << 30 | 1u << 31))
		isa |= ISA_X86_64_V4;
	return isa;
}

/* What the silicon reports, before asking whether the OS saves the state. */
static unsigned isa_from_cpuid(const struct regs *l1, const struct regs *l7, const struct regs *ext1,
			       const struct regs *ext8)
{
	unsigned isa = isa_levels(l1, l7, ext1);

	if (bit(l1->d, 26))
		isa |= ISA_SSE2;
	if (bit(l7->b, 5))
		isa |= ISA_AVX2;
	if (bit(l7->b, 16))
		isa |= ISA_AVX512F;
	if (bit(l7->b, 23))
		isa |= ISA_CLFLUSHOPT;
	if (bit(l7->b, 24))
		isa |= ISA_CLWB;
	if (bit(l7->c, 28))
		isa |= ISA_MOVDIR64B;
	if (bit(ext8->b, 0))
		isa |= ISA_CLZERO;
	return isa;
}

/* The ISA bits whose register state the OS does not save (XCR0), so they must not be used. */
static unsigned isa_os_blocked(const struct regs *l1, uint64_t xcr0)
{
	unsigned blocked = 0;

	if (!bit(l1->c, 27)) /* OSXSAVE clear: the OS saves no extended state, XGETBV would fault */
		return ISA_AVX2 | ISA_AVX512F | ISA_X86_64_V3 | ISA_X86_64_V4;
	if ((xcr0 & XCR0_YMM) != XCR0_YMM)
		blocked |= ISA_AVX2 | ISA_AVX512F | ISA_X86_64_V3 | ISA_X86_64_V4;
	if ((xcr0 & XCR0_ZMM) != XCR0_ZMM)
		blocked |= ISA_AVX512F | ISA_X86_64_V4;
	return blocked;
}

static void copy_trimmed(char *dst, size_t len, const char *src)
{
	size_t n;

	while (*src == ' ')
		src++;
	snprintf(dst, len, "%s", src);
	n = strlen(dst);
	while (n && dst[n - 1] == ' ')
		dst[--n] = '\0';
}

static void identity_from_cpuid(struct cpu_info *info, const struct cpu_raw_data_t *raw)
{
	struct regs v = cpu_raw_leaf(raw, 0), l1 = cpu_raw_leaf(raw, 1);
	unsigned base_family = (l1.a >> 8) & 0xf, base_model = (l1.a >> 4) & 0xf;
	char brand[49] = "";

	memcpy(info->vendor, &v.b, 4);
	memcpy(info->vendor + 4, &v.d, 4);
	memcpy(info->vendor + 8, &v.c, 4);
	info->vendor[12] = '\0';
	info->family = base_family == 0xf ? base_family + ((l1.a >> 20) & 0xff) : base_family;
	info->model = base_family == 0xf || base_family == 6 ? ((l1.a >> 12) & 0xf0) | base_model
							      : base_model;
	info->stepping = l1.a & 0xf;
	if (cpu_raw_leaf(raw, 0x80000000u).a >= 0x80000004u) {
		for (unsigned i = 0; i < 3; i++) {
			struct regs b = cpu_raw_leaf(raw, 0x80000002u + i);

			memcpy(brand + 16 * i, &b, 16);
		}
		copy_trimmed(info->brand, sizeof info->brand, brand);
	}
}

/* libcpuid only refines the brand when CPUID gave none (very old parts). */
static void identity_from_libcpuid(struct cpu_info *info, struct cpu_raw_data_t *raw)
{
	struct cpu_id_t id;

	if (info->brand[0] || cpu_identify(raw, &id))
		return;
	copy_trimmed(info->brand, sizeof info->brand, id.brand_str);
}

static void microcode_from_proc(struct cpu_info *info)
{
	char line[256];
	FILE *f = fopen("/proc/cpuinfo", "r");

	if (!f)
		return;
	while (fgets(line, sizeof line, f)) {
		char *colon = strchr(line, ':');

		if (strncmp(line, "microcode", 9) || !colon)
			continue;
		colon[strcspn(colon, "\n")] = '\0';
		copy_trimmed(info->microcode, sizeof info->microcode, colon + 1);
		break;
	}
	fclose(f);
}

/* Everything CPUID says, for the CPU that produced raw; xcr0 is the OS's saved-state mask. */
static void decode(struct cpu_info *info, struct cpu_raw_data_t *raw, uint64_t xcr0)
{
	struct regs l1 = cpu_raw_leaf(raw, 1), l7 = cpu_raw_leaf(raw, 7),
		    ext1 = cpu_raw_leaf(raw, 0x80000001u), ext7 = cpu_raw_leaf(raw, 0x80000007u),
		    ext8 = cpu_raw_leaf(raw, 0x80000008u);
	unsigned has = isa_from_cpuid(&l1, &l7, &ext1, &ext8);

	identity_from_cpuid(info, raw);
	identity_from_libcpuid(info, raw);
	info->cpuid_known = true;
	info->codename = cpu_codename(info->vendor, info->family, info->model, info->stepping);
	info->isa_cpu = has;
	info->isa = has & ~isa_os_blocked(&l1, xcr0);
	info->erms = bit(l7.b, 9);
	info->fsrm = bit(l7.d, 4);
	info->invariant_tsc = bit(ext7.d, 8);
	info->hypervisor = bit(l1.c, 31);
	cpu_caches_from_cpuid(info, raw);
}

/* cpuid_get_raw_data reads the calling CPU only; the _all_ variant would leave the thread pinned. */
void cpu_detect(struct cpu_info *info)
{
	struct cpu_raw_data_t raw;
	long online = sysconf(_SC_NPROCESSORS_ONLN);

	memset(info, 0, sizeof *info);
	info->codename = "unknown";
	info->online_cpus = online > 0 ? (unsigned)online : 1;
	if (!cpuid_present() || cpuid_get_raw_data(&raw))
		return;
	decode(info, &raw, bit(cpu_raw_leaf(&raw, 1).c, 27) ? xgetbv0() : 0);
	microcode_from_proc(info);
}

/* Whether a dump holds the leaves its leaf 0 promises that the ISA is read from: a cut one (a
 * 200-byte head of a Sapphire Rapids dump once read as an Emerald Rapids with SSE2 alone) leaves
 * them zero, which no x86-64 CPU's leaf 7 and 0x80000000 both are when leaf 0 goes past 7. */
static bool complete(const struct cpu_raw_data_t *raw, char *err, size_t errlen)
{
	struct regs l0 = cpu_raw_leaf(raw, 0), l1 = cpu_raw_leaf(raw, 1), l7 = cpu_raw_leaf(raw, 7),
		    ext = cpu_raw_leaf(raw, 0x80000000u);
	bool no1 = l0.a >= 1 && !(l1.a | l1.b | l1.c | l1.d);
	bool no7 = l0.a >= 7 && !(l7.a | l7.b | l7.c | l7.d);

	if (no1 || no7 || !ext.a) {
		snprintf(err, errlen, "a cut CPUID dump: leaf 0 says leaves up to 0x%x, but leaf %s is "
			 "missing (its identity or ISA bits would read as absent)", l0.a,
			 no1 ? "1" : no7 ? "7" : "0x80000000");
		return false;
	}
	return true;
}

/* Whether s[0, n) are n hex digits. */
static bool hex_run(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!((s[i] >= '0' && s[i] <= '9') || ((s[i] | 0x20) >= 'a' && (s[i] | 0x20) <= 'f')))
			return false;
	return true;
}

/*
 * Whether libcpuid 0.6's raw data has room for leaf's subleaf sub (tagged: the line carries
 * "[SL nn]").  Its deserializer stores a tagged subleaf at its index without a bound, so the
 * fifth subleaf of AMD's leaf 0x8000001D (the null one that ends the list, which a Genoa's own
 * dump carries) overflowed the struct and crashed the replay.
 */
static bool libcpuid_holds(uint32_t leaf, unsigned long sub, bool tagged)
{
	if (leaf < 0x80000000u ? leaf >= MAX_CPUID_LEVEL : leaf - 0x80000000u >= MAX_EXT_CPUID_LEVEL)
		return false;
	if (!tagged)
		return true;
	switch (leaf) {
	case 4:
		return sub < MAX_INTELFN4_LEVEL;
	case 0xb:
		return sub < MAX_INTELFN11_LEVEL;
	case 0x12:
		return sub < MAX_INTELFN12H_LEVEL;
	case 0x14:
		return sub < MAX_INTELFN14H_LEVEL;
	case 0x8000001du:
		return sub < MAX_AMDFN8000001DH_LEVEL;
	default:
		return true;
	}
}

/*
 * The dump's text for libcpuid, or NULL with the reason in err.  Every "CPUID xxxxxxxx:
 * aaaaaaaa-bbbbbbbb-cccccccc-dddddddd" line must be well formed: libcpuid skips a line it cannot
 * read, so a cut or garbled leaf 1 read as family 0 (issue 40.7).  Lines of leaves libcpuid has
 * no room for (libcpuid_holds) are left out; every other line is kept as it is.
 */
static char *readable_dump(const char *dump, char *err, size_t errlen)
{
	static const char head[] = "CPUID ";
	char why[120], *text = input_file_read(dump, CPUID_DUMP_MAX, NULL, why, sizeof why);
	char *out, *end;
	int lineno = 0;
	bool ok = true;

	if (!text) {
		snprintf(err, errlen, "not a CPUID dump (%s)", why);
		return NULL;
	}
	out = end = malloc(strlen(text) + 1);
	if (!out) {
		snprintf(err, errlen, "out of memory reading a CPUID dump");
		free(text);
		return NULL;
	}
	for (char *line = text, *next; ok && line && *line; line = next) {
		size_t len, whole;
		const char *leaf = line + sizeof head - 1;
		unsigned long sub = 0;
		bool keep = true, tagged;

		next = strchr(line, '\n');
		whole = len = next ? (size_t)(next - line) + 1 : strlen(line);
		next = next ? next + 1 : NULL;
		lineno++;
		len -= next != NULL;
		if (len && line[len - 1] == '\r')
			len--;
		/* a leaf's line: "CPUID " and 8 hex digits (AIDA64's header lines name fields) */
		if (!strncmp(line, head, sizeof head - 1) && len >= sizeof head - 1 + 8 &&
		    hex_run(leaf, 8)) {
			len -= sizeof head - 1;
			/* 8 hex, ": ", four groups of 8 hex joined by '-' (a subleaf tag may follow) */
			ok = len >= 10 + 35 && leaf[8] == ':' && leaf[9] == ' ';
			for (int g = 0; ok && g < 4; g++)
				ok = hex_run(leaf + 10 + 9 * g, 8) &&
				     (g == 3 || leaf[10 + 9 * g + 8] == '-');
			ok = ok && (len == 45 || leaf[45] == ' ');
			if (!ok) {
				snprintf(err, errlen, "not a CPUID dump: line %d is no 'CPUID xxxxxxxx: "
					 "aaaaaaaa-bbbbbbbb-cccccccc-dddddddd' leaf (cut or not hex)",
					 lineno);
				break;
			}
			tagged = len > 45 && sscanf(leaf + 45, " [SL %lx]", &sub) == 1;
			keep = libcpuid_holds((uint32_t)strtoul(leaf, NULL, 16), sub, tagged);
		}
		if (keep) {
			memcpy(end, line, whole);
			end += whole;
		}
	}
	*end = '\0';
	free(text);
	if (!ok) {
		free(out);
		return NULL;
	}
	return out;
}

/* libcpuid reads a dump by its path only: text goes through a private temporary file. */
static int deserialize(struct cpu_raw_data_t *raw, const char *text, char *err, size_t errlen)
{
	const char *dir = getenv("TMPDIR");
	char path[4096];
	size_t len = strlen(text);
	int fd, rc;

	if (!dir || !*dir)
		dir = "/tmp";
	snprintf(path, sizeof path, "%s/storebench-cpuid-XXXXXX", dir);
	fd = mkstemp(path);
	if (fd < 0) {
		snprintf(err, errlen, "cannot make a temporary file in %s: %s", dir, strerror(errno));
		return -1;
	}
	rc = write(fd, text, len) == (ssize_t)len ? 0 : -1;
	if (close(fd) || rc) {
		snprintf(err, errlen, "cannot write a temporary file %s: %s", path, strerror(errno));
		unlink(path);
		return -1;
	}
	rc = cpuid_deserialize_raw_data(raw, path);
	unlink(path);
	if (rc)
		snprintf(err, errlen, "cannot read a CPUID dump: %s", cpuid_error());
	return rc ? -1 : 0;
}

int cpu_replay(struct cpu_info *info, const char *dump, char *err, size_t errlen)
{
	struct cpu_raw_data_t raw;
	libcpuid_warn_fn_t warn;
	char *text;
	int rc;

	memset(info, 0, sizeof *info);
	info->codename = "unknown";
	/* libcpuid reads lines until the end: /dev/zero or a FIFO would never end, a directory
	 * read as "no leaf 0 vendor" */
	text = readable_dump(dump, err, errlen);
	if (!text)
		return -1;
	warn = cpuid_set_warn_function(NULL); /* dumps carry header lines it skips */
	rc = deserialize(&raw, text, err, errlen);
	cpuid_set_warn_function(warn);
	free(text);
	if (rc)
		return -1;
	if (!raw.basic_cpuid[0][EBX]) {
		snprintf(err, errlen, "not a CPUID dump (no leaf 0 vendor)");
		return -1;
	}
	if (!complete(&raw, err, errlen))
		return -1;
	decode(info, &raw, ~0ull);
	return 0;
}

/* Per ISA bit: its name, and the two reasons a kernel needing it cannot run, as fixed strings. */
#define ISA_LIST(X)                            \
	X(ISA_SSE2, "sse2", "XMM")             \
	X(ISA_AVX2, "avx2", "YMM")             \
	X(ISA_AVX512F, "avx512f", "ZMM/opmask") \
	X(ISA_CLFLUSHOPT, "clflushopt", "its") \
	X(ISA_CLWB, "clwb", "its")             \
	X(ISA_CLZERO, "clzero", "its")         \
	X(ISA_MOVDIR64B, "movdir64b", "its")   \
	X(ISA_X86_64_V2, "x86-64-v2", "its")   \
	X(ISA_X86_64_V3, "x86-64-v3", "YMM")   \
	X(ISA_X86_64_V4, "x86-64-v4", "ZMM/opmask")

static const struct {
	const char *name, *cpu_lacks, *os_off;
} isa_desc[] = {
#define ISA_DESC(bit, name, state) \
	[__builtin_ctz(bit)] = { name, "needs " name ": CPU lacks it", \
				 "needs " name ": OS does not save " state " state" },
	ISA_LIST(ISA_DESC)
#undef ISA_DESC
};

void cpu_isa_names(unsigned mask, char *buf, size_t len)
{
	size_t used = 0;

	if (len)
		buf[0] = '\0';
	for (unsigned i = 0; i < sizeof isa_desc / sizeof isa_desc[0] && used < len; i++)
		if (mask & (1u << i))
			used += snprintf(buf + used, len - used, "%s%s", used ? " " : "", isa_desc[i].name);
}

const char *cpu_isa_unavailable(unsigned isa, const struct cpu_info *info)
{
	unsigned missing = isa & ~info->isa;

	for (unsigned i = 0; i < sizeof isa_desc / sizeof isa_desc[0]; i++)
		if (missing & (1u << i))
			return info->isa_cpu & (1u << i) ? isa_desc[i].os_off : isa_desc[i].cpu_lacks;
	return missing ? "needs an ISA extension this build does not know" : NULL;
}
