/*
 * cmd_info.c — `storebench info`: this machine (or a replayed one) and build as key=value lines.
 * Plain C.  The same lines head every CSV (with "# "), so what info shows is what a result records;
 * --json prints them as one object with the topology in structured form.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "cpuid_dump.h"
#include "info_json.h"
#include "machine.h"
#include "metadata.h"
#include "outfiles.h"

static const char usage[] =
	"usage: storebench info [--json] [--topology FILE.xml] [--cpuid FILE]\n"
	"       storebench info --cpuid-dump\n"
	"Prints this machine and build as key=value lines (the metadata every CSV carries) and\n"
	"machine_id, the default results folder name.  --json: the same keys as one JSON object,\n"
	"plus \"topology\": packages, NUMA nodes with memory, caches with the CPUs of each instance,\n"
	"cores with their SMT siblings.\n"
	"Replay (a machine you do not have; never measured): --topology FILE.xml, an hwloc XML\n"
	"topology (`lstopo --of xml`; HWLOC_XMLFILE works too), and/or --cpuid FILE, a raw CPUID\n"
	"dump in libcpuid's format.  replayed= names them.  Counts are 0 and values 'unknown' where\n"
	"the replayed files do not say (a topology has no ISA, a CPUID dump no topology).\n"
	"cache_source says where the cache facts come from (sysfs, cpuid, xml); cache_l3_check flags\n"
	"an L3 no real x86 part has (the value is kept as reported).  levels_measured_cpus_<CPUs>:\n"
	"this machine's cache levels as measured with threads on those CPUs (a thread's share of\n"
	"each; 0-3,8 is written 0to3_8), kept from the `storebench run` that measured them\n"
	"(--levels); info never measures.\n"
	"--cpuid-dump: this CPU's raw CPUID leaves instead (the first CPU this process may run on),\n"
	"in the AIDA64 line format of tests/fixtures/machines/cpuid: save it to replay this machine\n"
	"elsewhere with --cpuid FILE, or to model glibc on it (scripts/glibc-model --cpuid FILE).\n";

/*
 * This machine's measured levels as kept (run's --levels; info never measures): the file, then
 * each entry's shares and latencies, or that none are kept.
 */
static void measured_levels(FILE *out, struct machine *m, const char *id)
{
	char path[4096], fingerprint[512], err[300], text[200];

	levels_fingerprint(&m->cpu, fingerprint, sizeof fingerprint);
	if (!levels_path(id, path, sizeof path) ||
	    levels_read(path, fingerprint, &m->levels, err, sizeof err) || !m->levels.n) {
		metadata_kv(out, "", "levels_measured", "none (storebench run measures them: --levels)");
		return;
	}
	metadata_kv(out, "", "levels_file", "%s", path);
	for (size_t i = 0; i < m->levels.n; i++) {
		const struct levels_entry *e = &m->levels.e[i];
		char key[2 * sizeof e->cpus + 32];
		size_t at = (size_t)snprintf(key, sizeof key, "levels_measured_cpus_");

		/* one key a set of CPUs (several sets may share a thread count), in a key's letters:
		 * 0-3,8 is 0to3_8 */
		for (const char *c = e->cpus; *c && at + 3 < sizeof key; c++)
			at += (size_t)snprintf(key + at, sizeof key - at, "%s",
					       *c == ',' ? "_" : *c == '-' ? "to" : (char[2]){ *c, 0 });
		effective_shares_text(e->found.bytes, text, sizeof text);
		if (e->found.why[0])
			metadata_kv(out, "", key, "none: %s (%u threads, %s)", e->found.why,
				    e->threads, e->utc);
		else
			metadata_kv(out, "", key, "%s (%u threads, %s; ns %.3g/%.3g/%.3g/%.3g)", text,
				    e->threads, e->utc, e->found.ns[0], e->found.ns[1], e->found.ns[2],
				    e->found.ns[3]);
	}
}

/* --cpuid-dump: pinned to the first allowed CPU, so the leaves are one CPU's. */
static int dump_cpuid(void)
{
	cpu_set_t set;
	int cpu = 0;

	if (sched_getaffinity(0, sizeof set, &set) == 0) {
		while (cpu < CPU_SETSIZE && !CPU_ISSET(cpu, &set))
			cpu++;
		CPU_ZERO(&set);
		CPU_SET(cpu, &set);
		if (sched_setaffinity(0, sizeof set, &set) != 0) {
			perror("storebench info: --cpuid-dump: cannot pin to one CPU");
			return 1;
		}
	}
	if (cpuid_dump_write(stdout, cpu)) {
		perror("storebench info: --cpuid-dump: write");
		return 1;
	}
	return 0;
}

int cmd_info(int argc, char **argv)
{
	struct machine m = { 0 };
	char id[128], *kv = NULL;
	size_t len = 0;
	bool json = false;
	FILE *mem;
	int rc;

	for (int i = 1; i < argc; i++) {
		int r = machine_option("storebench info", argc, argv, &i, &m);

		if (r < 0)
			return 2;
		if (r)
			continue;
		if (!strcmp(argv[i], "--json")) {
			json = true;
		} else if (!strcmp(argv[i], "--cpuid-dump")) {
			if (argc != 2) {
				fprintf(stderr, "storebench info: --cpuid-dump takes no other option\n");
				return 2;
			}
			return dump_cpuid();
		} else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			fputs(usage, stdout);
			return 0;
		} else {
			fprintf(stderr, "storebench info: unexpected argument '%s' (try --help)\n", argv[i]);
			return 2;
		}
	}
	rc = machine_load(&m, "storebench info");
	if (rc)
		return rc;
	mem = open_memstream(&kv, &len);
	if (!mem) {
		machine_free(&m);
		return 1;
	}
	metadata_machine(mem, "", &m);
	machine_id(&m.cpu, id, sizeof id);
	metadata_kv(mem, "", "machine_id", "%s", id);
	if (!m.topology_file && !m.cpuid_file)
		measured_levels(mem, &m, id);
	fclose(mem);
	if (json)
		info_json(stdout, kv, &m);
	else
		fputs(kv, stdout);
	free(kv);
	machine_free(&m);
	return fflush(stdout) ? 1 : 0;
}
