/*
 * metadata.c — collects the provenance of a result: storebench build, CPU, caches, OS, libraries.
 * Plain C.  Compiler identity and flags arrive as definitions from bench/CMakeLists.txt, the git
 * sha from the generated version.h, so the numbers can always be traced to the binary that made them.
 */
#include "metadata.h"

#include <gnu/libc-version.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "sysfs.h"
#include "version.h"

void metadata_kv(FILE *out, const char *prefix, const char *key, const char *fmt, ...)
{
	char value[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(value, sizeof value, fmt, ap);
	va_end(ap);
	for (char *p = value; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			*p = ' ';
	fprintf(out, "%s%s=%s\n", prefix, key, value);
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
	for (size_t i = 0; i < cpu->ncaches; i++) {
		const struct cpu_cache *c = &cpu->caches[i];
		char base[32], key[64];

		cache_key_base(c, base, sizeof base);
		snprintf(key, sizeof key, "%s_bytes", base);
		metadata_kv(out, prefix, key, "%zu", c->size_bytes);
		snprintf(key, sizeof key, "%s_shared_cpus", base);
		metadata_kv(out, prefix, key, "%u", c->shared_cpus);
		snprintf(key, sizeof key, "%s_instances", base);
		metadata_kv(out, prefix, key, "%u", c->instances);
	}
}

static void cpu_keys(FILE *out, const char *prefix, const struct cpu_info *cpu)
{
	char names[128];

	metadata_kv(out, prefix, "cpu_vendor", "%s", cpu->vendor);
	metadata_kv(out, prefix, "cpu_brand", "%s", cpu->brand);
	metadata_kv(out, prefix, "cpu_family", "0x%02x", cpu->family);
	metadata_kv(out, prefix, "cpu_model", "0x%02x", cpu->model);
	metadata_kv(out, prefix, "cpu_stepping", "%u", cpu->stepping);
	metadata_kv(out, prefix, "cpu_codename", "%s", cpu->codename);
	metadata_kv(out, prefix, "cpu_microcode", "%s", cpu->microcode);
	metadata_kv(out, prefix, "hypervisor", "%s", yesno(cpu->hypervisor));
	cpu_isa_names(cpu->isa, names, sizeof names);
	metadata_kv(out, prefix, "isa_usable", "%s", names);
	cpu_isa_names(cpu->isa_cpu & ~cpu->isa, names, sizeof names);
	metadata_kv(out, prefix, "isa_os_disabled", "%s", names);
	metadata_kv(out, prefix, "erms", "%s", yesno(cpu->erms));
	metadata_kv(out, prefix, "fsrm", "%s", yesno(cpu->fsrm));
	metadata_kv(out, prefix, "invariant_tsc", "%s", yesno(cpu->invariant_tsc));
}

static void os_keys(FILE *out, const char *prefix, const struct cpu_info *cpu)
{
	struct utsname u;
	char thp[32];
	const char *tunables = getenv("GLIBC_TUNABLES");

	metadata_kv(out, prefix, "online_cpus", "%u", cpu->online_cpus);
	metadata_kv(out, prefix, "smt_threads_per_core", "%u", cpu->threads_per_core);
	metadata_kv(out, prefix, "numa_nodes", "%u", cpu->numa_nodes);
	if (uname(&u) == 0)
		metadata_kv(out, prefix, "kernel", "%s %s", u.sysname, u.release);
	metadata_kv(out, prefix, "glibc_version", "%s", gnu_get_libc_version());
	metadata_kv(out, prefix, "glibc_tunables", "%s", tunables ? tunables : "");
	sysfs_choice("/sys/kernel/mm/transparent_hugepage/enabled", thp, sizeof thp);
	metadata_kv(out, prefix, "thp_enabled", "%s", thp);
	sysfs_choice("/sys/kernel/mm/transparent_hugepage/defrag", thp, sizeof thp);
	metadata_kv(out, prefix, "thp_defrag", "%s", thp);
}

void metadata_machine(FILE *out, const char *prefix, const struct cpu_info *cpu)
{
	char host[256] = "";

	metadata_kv(out, prefix, "storebench_version", "%s", STOREBENCH_VERSION);
	metadata_kv(out, prefix, "git_sha", "%s", STOREBENCH_GIT_SHA);
	gethostname(host, sizeof host - 1);
	metadata_kv(out, prefix, "host", "%s", host);
	cpu_keys(out, prefix, cpu);
	cache_keys(out, prefix, cpu);
	os_keys(out, prefix, cpu);
	metadata_kv(out, prefix, "compiler", "%s", SB_C_COMPILER);
	metadata_kv(out, prefix, "build_type", "%s", SB_BUILD_TYPE);
	metadata_kv(out, prefix, "cflags", "%s", SB_C_FLAGS);
	metadata_kv(out, prefix, "benchmark_version", "%s", SB_BENCHMARK_VERSION);
}
