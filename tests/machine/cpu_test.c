/*
 * cpu_test.c — CPU detection checked against the kernel's view (/proc/cpuinfo) and by construction.
 * Plain C, no ISA flags.  Linux lists avx2/avx512f only when it also saves their state, so its flags
 * must equal our "usable" set; caches must have sharing with or without sysfs (hwloc falls back).
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cpu.h"
#include "cpulist.h"
#include "machine.h"
#include "test_util.h"

/* The first "flags" line of /proc/cpuinfo, padded with spaces for whole-word search. */
static int proc_flags(char *buf, size_t len)
{
	char line[8192];
	FILE *f = fopen("/proc/cpuinfo", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof line, f)) {
		char *colon = strchr(line, ':');

		if (strncmp(line, "flags", 5) || !colon)
			continue;
		colon[strcspn(colon, "\n")] = '\0';
		snprintf(buf, len, "%s ", colon + 1);
		fclose(f);
		return 0;
	}
	fclose(f);
	return -1;
}

static void test_against_linux(const struct cpu_info *cpu)
{
	static const struct {
		unsigned bit;
		const char *flag;
	} map[] = {
		{ ISA_SSE2, " sse2 " }, { ISA_AVX2, " avx2 " }, { ISA_AVX512F, " avx512f " },
		{ ISA_CLFLUSHOPT, " clflushopt " }, { ISA_CLWB, " clwb " },
		{ ISA_CLZERO, " clzero " }, { ISA_MOVDIR64B, " movdir64b " },
	};
	char flags[8192];

	if (proc_flags(flags, sizeof flags)) {
		puts("no /proc/cpuinfo flags: cross-check skipped");
		return;
	}
	for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
		CHECK(!!(cpu->isa & map[i].bit) == !!strstr(flags, map[i].flag),
		      "usable %s disagrees with /proc/cpuinfo", map[i].flag);
	CHECK(cpu->erms == !!strstr(flags, " erms "), "erms disagrees with /proc/cpuinfo");
	CHECK(cpu->fsrm == !!strstr(flags, " fsrm "), "fsrm disagrees with /proc/cpuinfo");
	CHECK(cpu->hypervisor == !!strstr(flags, " hypervisor "), "hypervisor disagrees");
}

static void test_detect(void)
{
	cpu_set_t before, after;
	struct cpu_info cpu;

	sched_getaffinity(0, sizeof before, &before);
	cpu_detect(&cpu);
	sched_getaffinity(0, sizeof after, &after);
	CHECK(CPU_EQUAL(&before, &after), "cpu_detect changed the thread's affinity");
	CHECK(cpu.vendor[0] && cpu.family && cpu.cpuid_known, "no vendor/family");
	CHECK((cpu.isa & ~cpu.isa_cpu) == 0, "usable ISA the CPU does not report");
	CHECK(cpu.online_cpus >= 1, "online CPUs");
	CHECK(cpu.ncaches > 0 && cpu_cache_bytes(&cpu, 1) > 0, "CPUID: no L1 data cache found");
	CHECK(cpu_llc_bytes(&cpu) >= cpu_cache_bytes(&cpu, 1), "CPUID: LLC smaller than L1");
	CHECK(cpu.cache_source && !strcmp(cpu.cache_source, "cpuid"), "CPUID caches not marked cpuid");
	test_against_linux(&cpu);
}

/* This machine through hwloc: caches with sharing whether sysfs exports them or not. */
static void test_machine(void)
{
	struct machine m = { 0 };
	const struct cpu_info *cpu = &m.cpu;
	char path[96];

	CHECK(machine_load(&m, "cpu_test") == 0 && m.topo, "this machine's topology did not load");
	if (!m.topo)
		return;
	CHECK(!m.topology_file && !m.cpuid_file && !m.topo->source, "this machine counted as replayed");
	CHECK(cpu->online_cpus >= 1 && cpu->threads_per_core >= 1 && cpu->numa_nodes >= 1 &&
		      cpu->packages >= 1 && cpu->cores >= 1 && cpu->cores <= cpu->online_cpus,
	      "topology: %u CPUs, %u per core, %u nodes, %u packages, %u cores", cpu->online_cpus,
	      cpu->threads_per_core, cpu->numa_nodes, cpu->packages, cpu->cores);
	CHECK(cpu->ncaches > 0 && cpu_cache_bytes(cpu, 1) > 0, "no L1 data cache found");
	CHECK(cpu_llc_bytes(cpu) >= cpu_cache_bytes(cpu, 1), "LLC smaller than L1");
	for (size_t i = 1; i < cpu->ncaches; i++)
		CHECK(cpu->caches[i - 1].level <= cpu->caches[i].level, "caches not sorted by level");
	for (size_t i = 0; i < cpu->ncaches; i++)
		CHECK(cpu->caches[i].instances >= 1 && cpu->caches[i].shared_cpus >= 1 &&
			      cpu->caches[i].shared_cores >= 1 &&
			      cpu->caches[i].instances <= cpu->online_cpus,
		      "L%u %s: %u instances, %u sharers", cpu->caches[i].level, cpu->caches[i].type,
		      cpu->caches[i].instances, cpu->caches[i].shared_cpus);
	snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu%u/cache/index0", m.topo->pu[0].os);
	CHECK(!strcmp(cpu->cache_source, access(path, F_OK) ? "cpuid" : "sysfs"),
	      "cache_source %s, but %s %s", cpu->cache_source, path,
	      access(path, F_OK) ? "is absent" : "exists");
	machine_free(&m);
}

static void test_replay_errors(void)
{
	struct cpu_info cpu;
	char err[256] = "";

	CHECK(cpu_replay(&cpu, "/nonexistent/dump.test", err, sizeof err) == -1 && err[0],
	      "missing dump accepted");
	err[0] = '\0';
	CHECK(cpu_replay(&cpu, "/dev/null", err, sizeof err) == -1 && strstr(err, "not a CPUID dump"),
	      "empty dump accepted: %s", err);
}

/*
 * A dump with more tagged subleaves than libcpuid's raw data has room for (a Genoa's own dump ends
 * leaf 0x8000001D with a fifth, null subleaf; here sixteen of it and of leaf 0xB, and leaves past
 * libcpuid's last) replays as the CPU it describes: libcpuid stored them past its struct and the
 * replay crashed.
 */
static void test_replay_overflow(void)
{
	char path[] = "/tmp/storebench-cpu-test-XXXXXX", err[256] = "";
	struct cpu_info cpu;
	int fd = mkstemp(path);
	FILE *f = fd < 0 ? NULL : fdopen(fd, "w");

	CHECK(f, "cannot make a temporary dump");
	if (!f)
		return;
	fputs("------[ CPUID Registers / Logical CPU #0 ]------\n"
	      "CPUID 00000000: 0000000D-68747541-444D4163-69746E65\n"
	      "CPUID 00000001: 00A10F11-00020800-FFFA3203-178BFBFF\n"
	      "CPUID 00000007: 00000000-F1BF07AB-00405FC6-00000010 [SL 00]\n", f);
	for (unsigned sub = 0; sub < 16; sub++)
		fprintf(f, "CPUID 0000000B: 00000001-00000002-%08X-00000000 [SL %02X]\n",
			0x100 | sub, sub);
	fputs("CPUID 80000000: 80000028-68747541-444D4163-69746E65\n", f);
	for (unsigned sub = 0; sub < 16; sub++)
		fprintf(f, "CPUID 8000001D: 00004121-01C0003F-0000003F-00000000 [SL %02X]\n", sub);
	for (unsigned leaf = 0x80000020; leaf <= 0x80000028; leaf++)
		fprintf(f, "CPUID %08X: 00000001-00000002-00000003-00000004\n", leaf);
	fclose(f);
	CHECK(cpu_replay(&cpu, path, err, sizeof err) == 0 && cpu.family == 0x19 &&
	      cpu.model == 0x11 && !strcmp(cpu.vendor, "AuthenticAMD"),
	      "a dump with subleaves past libcpuid's room: rc, family 0x%x model 0x%x, %s", cpu.family,
	      cpu.model, err);
	unlink(path);
}

static void test_reasons(void)
{
	unsigned needs = ISA_AVX2 | ISA_CLWB;
	struct cpu_info cpu = { .isa = ISA_SSE2 | ISA_AVX2 | ISA_CLWB };
	const char *r;

	cpu.isa_cpu = cpu.isa;
	CHECK(cpu_isa_unavailable(needs, &cpu) == NULL, "available kernel reported unavailable");
	cpu.isa = cpu.isa_cpu = ISA_SSE2 | ISA_AVX2;
	r = cpu_isa_unavailable(needs, &cpu);
	CHECK(r && !strcmp(r, "needs clwb: CPU lacks it"), "reason %s", r ? r : "(null)");
	needs = ISA_AVX512F;
	cpu.isa_cpu |= ISA_AVX512F;
	r = cpu_isa_unavailable(needs, &cpu);
	CHECK(r && strstr(r, "needs avx512f: OS does not save"), "reason %s", r ? r : "(null)");
}

static void test_codenames(void)
{
	static const struct {
		const char *vendor;
		unsigned family, model, stepping;
		const char *want;
	} cases[] = {
		{ "AuthenticAMD", 0x1a, 0x02, 1, "Turin (Zen 5)" },
		{ "AuthenticAMD", 0x19, 0x01, 1, "Milan (Zen 3)" },
		{ "AuthenticAMD", 0x19, 0x11, 1, "Genoa (Zen 4)" },
		{ "AuthenticAMD", 0x17, 0x31, 0, "Rome/Castle Peak (Zen 2)" },
		{ "GenuineIntel", 6, 0x8f, 8, "Sapphire Rapids" },
		{ "GenuineIntel", 6, 0xad, 1, "Granite Rapids" },
		{ "GenuineIntel", 6, 0x55, 4, "Skylake-SP" },
		{ "GenuineIntel", 6, 0x55, 7, "Cascade Lake" },
		{ "GenuineIntel", 6, 0x01, 0, "unknown" },
		{ "HygonGenuine", 0x18, 0x00, 0, "unknown" },
	};

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		const char *got = cpu_codename(cases[i].vendor, cases[i].family, cases[i].model,
					       cases[i].stepping);
		CHECK(!strcmp(got, cases[i].want), "%s %#x/%#x: %s, want %s", cases[i].vendor,
		      cases[i].family, cases[i].model, got, cases[i].want);
	}
}

/* The list syntax of sysfs and --placement cpus:, ranges in order, errors after what precedes. */
static void expect_cpulist(const char *list, const char *want, enum cpulist_status last)
{
	struct cpulist it = cpulist_start(list);
	enum cpulist_status st;
	char got[128] = "";
	size_t used = 0;
	long lo, hi;

	while ((st = cpulist_next(&it, &lo, &hi)) == CPULIST_RANGE)
		used += (size_t)snprintf(got + used, sizeof got - used, "[%ld-%ld]", lo, hi);
	CHECK(!strcmp(got, want) && st == last, "cpulist '%s': %s status %d, want %s status %d",
	      list, got, st, want, last);
}

static void expect_format(const unsigned *cpus, size_t n, size_t len, const char *want, bool fits)
{
	char buf[64];
	bool ok = cpulist_format(cpus, n, buf, len);

	CHECK(ok == fits && !strcmp(buf, want), "cpulist_format: '%s' (%d), want '%s' (%d)", buf, ok,
	      want, fits);
}

static void test_cpulist(void)
{
	static const unsigned cpus[] = { 0, 1, 2, 3, 8, 10, 11, 1024, 1025 };

	expect_cpulist("0-3,8,10-11", "[0-3][8-8][10-11]", CPULIST_END);
	expect_cpulist("5,", "[5-5]", CPULIST_END);
	expect_cpulist("", "", CPULIST_END);
	expect_cpulist("0-1\n", "[0-1]", CPULIST_BAD_SEPARATOR);
	expect_cpulist("0,x", "[0-0]", CPULIST_BAD_NUMBER);
	expect_cpulist("-1", "", CPULIST_BAD_NUMBER);
	expect_cpulist("2,3-1", "[2-2]", CPULIST_BAD_RANGE);
	expect_cpulist("4-", "", CPULIST_BAD_RANGE);
	expect_format(cpus, 9, 64, "0-3,8,10-11,1024-1025", true);
	expect_format(cpus, 0, 64, "", true);
	expect_format(cpus + 4, 1, 64, "8", true);
	expect_format(cpus, 9, 10, "", false); /* never a silently shortened list */
}

int main(void)
{
	test_detect();
	test_machine();
	test_replay_errors();
	test_replay_overflow();
	test_reasons();
	test_codenames();
	test_cpulist();
	return test_result("ok cpu: detection against /proc/cpuinfo, caches with sharing, reasons, "
			   "codenames, CPU lists");
}
