/*
 * metadata.c — collects the provenance of a result: storebench build, CPU, caches, OS, libraries.
 * Plain C.  Compiler identity and flags arrive as definitions from bench/CMakeLists.txt, the git
 * sha from the generated version.h, so the numbers can always be traced to the binary that made them.
 */
#define _GNU_SOURCE /* vasprintf */
#include "metadata.h"

#include <gnu/libc-version.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "cache_check.h"
#include "glibc_impl.h"
#include "cpulist.h"
#include "sysfs.h"
#include "version.h"

/* Longest list value written on one metadata line; longer ones are only in `info --json`. */
#define LIST_VALUE_MAX 1000
#define TOO_LONG "(too long for one line: storebench info --json)"

/* Bytes of the valid UTF-8 sequence at p (1..4), 0 if p does not start one. */
static size_t utf8_len(const unsigned char *p)
{
	unsigned char lo = 0x80, hi = 0xbf;
	size_t n;

	if (p[0] < 0x80)
		return 1;
	if (p[0] >= 0xc2 && p[0] <= 0xdf)
		n = 2;
	else if (p[0] >= 0xe0 && p[0] <= 0xef)
		n = 3;
	else if (p[0] >= 0xf0 && p[0] <= 0xf4)
		n = 4;
	else
		return 0;
	/* no overlong forms, no UTF-16 surrogates, nothing past U+10FFFF */
	if (p[0] == 0xe0)
		lo = 0xa0;
	else if (p[0] == 0xed)
		hi = 0x9f;
	else if (p[0] == 0xf0)
		lo = 0x90;
	else if (p[0] == 0xf4)
		hi = 0x8f;
	if (p[1] < lo || p[1] > hi)
		return 0;
	for (size_t i = 2; i < n; i++)
		if (p[i] < 0x80 || p[i] > 0xbf)
			return 0;
	return n;
}

void metadata_value(FILE *out, const char *value)
{
	for (const unsigned char *p = (const unsigned char *)(value ? value : ""); *p;) {
		size_t n = utf8_len(p);

		if (!n)
			fprintf(out, "\\x%02X", *p++);
		else if (n == 1 && (*p < 0x20 || *p == 0x7f))
			fputc(' ', out), p++;
		else
			fwrite(p, 1, n, out), p += n;
	}
}

void metadata_kv(FILE *out, const char *prefix, const char *key, const char *fmt, ...)
{
	va_list ap;
	char *value = NULL;
	int len;

	va_start(ap, fmt);
	len = vasprintf(&value, fmt, ap);
	va_end(ap);
	if (len < 0)
		value = NULL;
	fprintf(out, "%s%s=", prefix, key);
	metadata_value(out, value);
	fputc('\n', out);
	free(value);
}

static const char *yesno(bool b)
{
	return b ? "yes" : "no";
}

/* The bracketed choice of a sysfs selector such as "always [madvise] never", "" when absent. */
static void sysfs_choice(const char *path, char *buf, size_t len)
{
	char line[256];
	char *open, *close;

	buf[0] = '\0';
	if (!sysfs_line(path, line, sizeof line) && (open = strchr(line, '[')) &&
	    (close = strchr(open, ']'))) {
		*close = '\0';
		snprintf(buf, len, "%s", open + 1);
	}
}

static void cache_key_base(const struct cpu_cache *c, char *buf, size_t len)
{
	const char *suffix = !strcmp(c->type, "Data") ? "d" : !strcmp(c->type, "Instruction") ? "i" : "";

	snprintf(buf, len, "cache_l%u%s", c->level, suffix);
}

static void cache_keys(FILE *out, const char *prefix, const struct cpu_info *cpu)
{
	metadata_kv(out, prefix, "cache_source", "%s", cpu->cache_source ? cpu->cache_source : "");
	for (size_t i = 0; i < cpu->ncaches; i++) {
		const struct cpu_cache *c = &cpu->caches[i];
		char base[32], key[64], verdict[160];

		cache_key_base(c, base, sizeof base);
		snprintf(key, sizeof key, "%s_bytes", base);
		metadata_kv(out, prefix, key, "%zu", c->size_bytes);
		snprintf(key, sizeof key, "%s_shared_cpus", base);
		metadata_kv(out, prefix, key, "%u", c->shared_cpus);
		snprintf(key, sizeof key, "%s_instances", base);
		metadata_kv(out, prefix, key, "%u", c->instances);
		snprintf(key, sizeof key, "%s_check", base);
		if (cache_check(cpu, c, verdict, sizeof verdict))
			metadata_kv(out, prefix, key, "%s", verdict);
	}
}

static const char *known(const struct cpu_info *cpu, const char *value)
{
	return cpu->cpuid_known ? value : "unknown";
}

static void cpu_keys(FILE *out, const char *prefix, const struct cpu_info *cpu)
{
	char names[128];

	metadata_kv(out, prefix, "cpu_vendor", "%s", cpu->vendor[0] ? cpu->vendor : "unknown");
	metadata_kv(out, prefix, "cpu_brand", "%s", cpu->brand);
	/* no x86 CPU is of family 0: a topology that names its vendor but not its family */
	if (cpu->vendor[0] && cpu->family) {
		metadata_kv(out, prefix, "cpu_family", "0x%02x", cpu->family);
		metadata_kv(out, prefix, "cpu_model", "0x%02x", cpu->model);
		metadata_kv(out, prefix, "cpu_stepping", "%u", cpu->stepping);
	} else {
		metadata_kv(out, prefix, "cpu_family", "unknown");
		metadata_kv(out, prefix, "cpu_model", "unknown");
		metadata_kv(out, prefix, "cpu_stepping", "unknown");
	}
	metadata_kv(out, prefix, "cpu_codename", "%s", cpu->codename);
	metadata_kv(out, prefix, "cpu_microcode", "%s", cpu->microcode);
	metadata_kv(out, prefix, "hypervisor", "%s", known(cpu, yesno(cpu->hypervisor)));
	cpu_isa_names(cpu->isa, names, sizeof names);
	metadata_kv(out, prefix, "isa_usable", "%s", known(cpu, names));
	cpu_isa_names(cpu->isa_cpu & ~cpu->isa, names, sizeof names);
	metadata_kv(out, prefix, "isa_os_disabled", "%s", known(cpu, names));
	metadata_kv(out, prefix, "erms", "%s", known(cpu, yesno(cpu->erms)));
	metadata_kv(out, prefix, "fsrm", "%s", known(cpu, yesno(cpu->fsrm)));
	metadata_kv(out, prefix, "invariant_tsc", "%s", known(cpu, yesno(cpu->invariant_tsc)));
}

/* The CPUs of each group (a node, an L3) as space-separated lists, when that fits on one line. */
static void group_lists(FILE *out, const char *prefix, const char *key, const struct topology *t,
			size_t groups,
			int (*group_of)(const struct topology *, const struct topo_pu *))
{
	char value[LIST_VALUE_MAX + 1] = "", list[LIST_VALUE_MAX + 1];
	unsigned *cpus = calloc(t->npus ? t->npus : 1, sizeof *cpus);
	size_t used = 0;
	bool fits = cpus != NULL;

	for (size_t g = 0; fits && g < groups; g++) {
		size_t n = 0;

		for (size_t i = 0; i < t->npus; i++)
			if (group_of(t, &t->pu[i]) == (int)g)
				cpus[n++] = t->pu[i].os;
		fits = cpulist_format(cpus, n, list, sizeof list) &&
		       (size_t)snprintf(value + used, sizeof value - used, "%s%s", g ? " " : "",
					list) < sizeof value - used;
		used += fits ? strlen(value + used) : 0;
	}
	free(cpus);
	metadata_kv(out, prefix, key, "%s", fits ? value : TOO_LONG);
}

static int l3_of(const struct topology *t, const struct topo_pu *pu)
{
	(void)t;
	return pu->cache[TOPO_L3];
}

static int node_index_of(const struct topology *t, const struct topo_pu *pu)
{
	const struct topo_node *node = pu->node < 0 ? NULL : topology_node(t, (unsigned)pu->node);

	return node ? (int)(node - t->node) : -1;
}

static void topology_keys(FILE *out, const char *prefix, const struct machine *m)
{
	const struct topology *t = m->topo;
	char value[LIST_VALUE_MAX + 1] = "";
	unsigned *cpus;
	size_t used = 0, n = 0;

	metadata_kv(out, prefix, "packages", "%u", m->cpu.packages);
	metadata_kv(out, prefix, "cores", "%u", m->cpu.cores);
	if (!t)
		return;
	cpus = calloc(t->npus ? t->npus : 1, sizeof *cpus);
	for (size_t i = 0; cpus && i < t->npus; i++)
		if (t->pu[i].allowed)
			cpus[n++] = t->pu[i].os;
	metadata_kv(out, prefix, "allowed_cpus", "%s",
		    cpus && cpulist_format(cpus, n, value, sizeof value)
			    ? value : TOO_LONG);
	free(cpus);
	value[0] = '\0';
	for (size_t k = 0; k < t->nnodes && used < sizeof value; k++)
		used += (size_t)snprintf(value + used, sizeof value - used,
					 t->node[k].memory_bytes ? "%s%u:%llu" : "%s%u:unknown",
					 k ? " " : "", t->node[k].os, t->node[k].memory_bytes);
	metadata_kv(out, prefix, "numa_node_memory_bytes", "%s",
		    used < sizeof value ? value : TOO_LONG);
	group_lists(out, prefix, "numa_node_cpus", t, t->nnodes, node_index_of);
	group_lists(out, prefix, "l3_domain_cpus", t, t->cache[TOPO_L3].count, l3_of);
	if (t->source)
		metadata_kv(out, prefix, "xml_backend", "%s", t->backend);
}

static void os_keys(FILE *out, const char *prefix, const struct machine *m)
{
	const struct cpu_info *cpu = &m->cpu;
	struct utsname u;
	char thp[32];
	const char *tunables = getenv("GLIBC_TUNABLES");

	metadata_kv(out, prefix, "online_cpus", "%u", cpu->online_cpus);
	metadata_kv(out, prefix, "smt_threads_per_core", "%u", cpu->threads_per_core);
	metadata_kv(out, prefix, "numa_nodes", "%u", cpu->numa_nodes);
	topology_keys(out, prefix, m);
	if (uname(&u) == 0)
		metadata_kv(out, prefix, "kernel", "%s %s", u.sysname, u.release);
	metadata_kv(out, prefix, "glibc_version", "%s", gnu_get_libc_version());
	metadata_kv(out, prefix, "glibc_tunables", "%s", tunables ? tunables : "");
	/* which variant the memset row is: glibc's IFUNC pick, named from glibc's own list */
	metadata_kv(out, prefix, "glibc_memset_variant", "%s",
		    glibc_memset_variant() ? glibc_memset_variant() : "unknown");
	sysfs_choice("/sys/kernel/mm/transparent_hugepage/enabled", thp, sizeof thp);
	metadata_kv(out, prefix, "thp_enabled", "%s", thp);
	sysfs_choice("/sys/kernel/mm/transparent_hugepage/defrag", thp, sizeof thp);
	metadata_kv(out, prefix, "thp_defrag", "%s", thp);
}

void metadata_build_id(FILE *out, const char *prefix)
{
	metadata_kv(out, prefix, "storebench_version", "%s", STOREBENCH_VERSION);
	metadata_kv(out, prefix, "git_sha", "%s", STOREBENCH_GIT_SHA);
}

void metadata_build_flags(FILE *out, const char *prefix)
{
	metadata_kv(out, prefix, "compiler", "%s", SB_C_COMPILER);
	metadata_kv(out, prefix, "build_type", "%s", SB_BUILD_TYPE);
	metadata_kv(out, prefix, "cflags", "%s", SB_C_FLAGS);
	metadata_kv(out, prefix, "benchmark_version", "%s", SB_BENCHMARK_VERSION);
}

void metadata_machine(FILE *out, const char *prefix, const struct machine *m)
{
	char host[256] = "", replayed[2200];

	metadata_build_id(out, prefix);
	gethostname(host, sizeof host - 1);
	metadata_kv(out, prefix, "host", "%s", host);
	machine_replayed(m, replayed, sizeof replayed);
	metadata_kv(out, prefix, "replayed", "%s", replayed);
	cpu_keys(out, prefix, &m->cpu);
	cache_keys(out, prefix, &m->cpu);
	os_keys(out, prefix, m);
	metadata_build_flags(out, prefix);
}
