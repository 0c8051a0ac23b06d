/*
 * cpu.c — CPU identity and usable ISA from CPUID + XGETBV, and the kernel availability verdict.
 * Plain C, no ISA flags; XGETBV is issued as raw bytes so no -mxsave is needed.
 * An ISA counts only when the CPU has it AND the OS saves its register state (XCR0).
 */
#include "cpu.h"

#include <cpuid.h>
#include <libcpuid.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* XCR0 state components the OS must enable before vector code may run. */
#define XCR0_SSE     (1u << 1)
#define XCR0_AVX     (1u << 2)
#define XCR0_OPMASK  (1u << 5)
#define XCR0_ZMM_HI  (1u << 6)
#define XCR0_HI16ZMM (1u << 7)
#define XCR0_YMM     (XCR0_SSE | XCR0_AVX)
#define XCR0_ZMM     (XCR0_YMM | XCR0_OPMASK | XCR0_ZMM_HI | XCR0_HI16ZMM)

struct regs {
	uint32_t a, b, c, d;
};

static struct regs cpuid(uint32_t leaf, uint32_t sub)
{
	struct regs r = { 0, 0, 0, 0 };

	if (__get_cpuid_max(leaf & 0x80000000u, NULL) >= leaf)
		__cpuid_count(leaf, sub, r.a, r.b, r.c, r.d);
	return r;
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

/* What the silicon reports, before asking whether the OS saves the state. */
static unsigned isa_from_cpuid(const struct regs *l1, const struct regs *l7, const struct regs *ext8)
{
	unsigned isa = 0;

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
static unsigned isa_os_blocked(const struct regs *l1)
{
	uint64_t xcr0;
	unsigned blocked = 0;

	if (!bit(l1->c, 27)) /* OSXSAVE clear: the OS saves no extended state, XGETBV would fault */
		return ISA_AVX2 | ISA_AVX512F;
	xcr0 = xgetbv0();
	if ((xcr0 & XCR0_YMM) != XCR0_YMM)
		blocked |= ISA_AVX2 | ISA_AVX512F;
	if ((xcr0 & XCR0_ZMM) != XCR0_ZMM)
		blocked |= ISA_AVX512F;
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

static void identity_from_cpuid(struct cpu_info *info, const struct regs *l1)
{
	struct regs v = cpuid(0, 0);
	unsigned base_family = (l1->a >> 8) & 0xf, base_model = (l1->a >> 4) & 0xf;
	char brand[49] = "";

	memcpy(info->vendor, &v.b, 4);
	memcpy(info->vendor + 4, &v.d, 4);
	memcpy(info->vendor + 8, &v.c, 4);
	info->vendor[12] = '\0';
	info->family = base_family == 0xf ? base_family + ((l1->a >> 20) & 0xff) : base_family;
	info->model = base_family == 0xf || base_family == 6 ? ((l1->a >> 12) & 0xf0) | base_model
							       : base_model;
	info->stepping = l1->a & 0xf;
	if (__get_cpuid_max(0x80000000u, NULL) >= 0x80000004u) {
		for (unsigned i = 0; i < 3; i++) {
			struct regs b = cpuid(0x80000002u + i, 0);
			memcpy(brand + 16 * i, &b, 16);
		}
		copy_trimmed(info->brand, sizeof info->brand, brand);
	}
}

/*
 * libcpuid only refines the brand when CPUID gave none (very old parts); it reads the current
 * CPU only, because cpuid_get_all_raw_data() would leave the calling thread pinned.
 */
static void identity_from_libcpuid(struct cpu_info *info)
{
	struct cpu_raw_data_t raw;
	struct cpu_id_t id;

	if (info->brand[0] || !cpuid_present() || cpuid_get_raw_data(&raw) || cpu_identify(&raw, &id))
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

void cpu_detect(struct cpu_info *info)
{
	struct regs l1 = cpuid(1, 0), l7 = cpuid(7, 0), ext7 = cpuid(0x80000007u, 0),
		    ext8 = cpuid(0x80000008u, 0);
	unsigned has;

	memset(info, 0, sizeof *info);
	identity_from_cpuid(info, &l1);
	identity_from_libcpuid(info);
	info->codename = cpu_codename(info->vendor, info->family, info->model, info->stepping);
	microcode_from_proc(info);
	has = isa_from_cpuid(&l1, &l7, &ext8);
	info->isa_cpu = has;
	info->isa = has & ~isa_os_blocked(&l1);
	info->erms = bit(l7.b, 9);
	info->fsrm = bit(l7.d, 4);
	info->invariant_tsc = bit(ext7.d, 8);
	info->hypervisor = bit(l1.c, 31);
	cpu_topology(info);
}

/* Per ISA bit: its name, and the two reasons a kernel needing it cannot run, as fixed strings. */
#define ISA_LIST(X)                            \
	X(ISA_SSE2, "sse2", "XMM")             \
	X(ISA_AVX2, "avx2", "YMM")             \
	X(ISA_AVX512F, "avx512f", "ZMM/opmask") \
	X(ISA_CLFLUSHOPT, "clflushopt", "its") \
	X(ISA_CLWB, "clwb", "its")             \
	X(ISA_CLZERO, "clzero", "its")         \
	X(ISA_MOVDIR64B, "movdir64b", "its")

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

const char *cpu_kernel_unavailable(const struct kernel *k, const struct cpu_info *info)
{
	unsigned missing = k->isa & ~info->isa;

	for (unsigned i = 0; i < sizeof isa_desc / sizeof isa_desc[0]; i++)
		if (missing & (1u << i))
			return info->isa_cpu & (1u << i) ? isa_desc[i].os_off : isa_desc[i].cpu_lacks;
	return missing ? "needs an ISA extension this build does not know" : NULL;
}
