/*
 * cpu.h — what this CPU is and which ISA extensions (so which kernels) it can run.
 * Plain C.  Raw CPUID comes from libcpuid (this CPU, or a replayed dump) and is decoded here, since
 * libcpuid 0.6.2 lacks several bits we need; caches here are CPUID's, bench/machine/topology.c
 * adds sharing.
 */
#ifndef STOREBENCH_CPU_H
#define STOREBENCH_CPU_H

#include <stdbool.h>
#include <stddef.h>

#include "isa.h"

#define CPU_MAX_CACHES 8

struct cpu_cache {
	unsigned level;        /* 1, 2, 3, ... */
	char type[12];         /* "Data", "Instruction", "Unified" (sysfs spelling) */
	size_t size_bytes;     /* per instance */
	unsigned shared_cpus;  /* logical CPUs sharing one instance, 0 when unknown (CPUID alone) */
	unsigned shared_cores; /* cores sharing one instance, 0 when unknown */
	unsigned instances;    /* distinct instances across online CPUs, 0 when unknown */
};

struct cpu_info {
	char vendor[16];          /* "GenuineIntel", "AuthenticAMD", ... */
	char brand[64];           /* CPUID brand string, trimmed */
	unsigned family;          /* display family (base + extended) */
	unsigned model;           /* display model (with extended model) */
	unsigned stepping;
	const char *codename;     /* from our family/model table, "unknown" when absent */
	char microcode[24];       /* /proc/cpuinfo "microcode", "" when not exposed */
	bool cpuid_known;         /* identity and ISA came from CPUID (false: a replayed topology only) */
	unsigned isa;             /* enum isa_bit set usable here: CPUID and OS state both agree */
	unsigned isa_cpu;         /* enum isa_bit set the CPU reports, whether or not the OS enables it */
	bool erms, fsrm;          /* rep movsb/stosb hints; listed, no kernel requires them */
	bool invariant_tsc;       /* CPUID 0x80000007 EDX[8] */
	bool hypervisor;          /* CPUID 1 ECX[31]: numbers are from a guest */
	unsigned online_cpus;     /* logical CPUs online, 0 when unknown (a replayed CPUID dump) */
	unsigned threads_per_core; /* SMT width, 0 until a topology is known (bench/machine/machine.c) */
	unsigned numa_nodes;      /* NUMA nodes with or without CPUs, 0 until a topology is known */
	unsigned packages, cores; /* sockets and cores, 0 until a topology is known */
	const char *cache_source; /* where caches[] came from: "sysfs", "cpuid" or "xml" */
	size_t ncaches;
	struct cpu_cache caches[CPU_MAX_CACHES]; /* sorted by level, data before instruction */
};

/* Fill *info for the CPU we run on.  Never fails: unknown fields stay empty/zero. */
void cpu_detect(struct cpu_info *info);

/*
 * Fill *info from a raw CPUID dump of another machine (libcpuid's text format, CPU #0).  XCR0 is not
 * in a dump: the OS is taken to save every state the CPU has when OSXSAVE is set.  0, or -1 with
 * err set when the file cannot be read, holds no CPUID leaf 0, or lacks the leaves the ISA is
 * read from (a cut dump).
 */
int cpu_replay(struct cpu_info *info, const char *dump, char *err, size_t errlen);

/* Codename from our family/model table ("unknown" when absent); libcpuid 0.6.2 lacks recent parts. */
const char *cpu_codename(const char *vendor, unsigned family, unsigned model, unsigned stepping);

/* NULL when the ISA bits isa (a kernel's) can run here, else a fixed reason string ("needs
 * avx512f: CPU lacks it", ...). */
const char *cpu_isa_unavailable(unsigned isa, const struct cpu_info *info);

/* Size of the last-level data/unified cache instance, 0 when unknown. */
size_t cpu_llc_bytes(const struct cpu_info *info);

/* Size of the first data/unified cache of the given level, 0 when unknown. */
size_t cpu_cache_bytes(const struct cpu_info *info, unsigned level);

/* Space-separated names of the ISA bits in mask, e.g. "sse2 avx2 clwb". */
void cpu_isa_names(unsigned mask, char *buf, size_t len);

#endif
