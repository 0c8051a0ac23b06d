/*
 * machine.c — this machine or a replayed one: CPU from CPUID (live or a dump), topology from hwloc.
 * Plain C, no ISA.  The topology's caches replace CPUID's (they know the real sharing); CPUID's
 * stay only when no topology is given (a dump alone), so every cache fact names its source.
 */
#include "machine.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const replay_opts[] = { "--topology", "--cpuid" };

/* Replay option k's value into m: false, after one stderr line, when it names no file. */
static bool replay_file(const char *cmd, size_t k, const char *val, struct machine *m)
{
	if (!val || !*val) {
		fprintf(stderr, "%s: %s needs a file (%s)\n", cmd, replay_opts[k],
			k ? "a raw CPUID dump, libcpuid's format" : "an hwloc XML topology");
		return false;
	}
	*(k ? &m->cpuid_file : &m->topology_file) = val;
	return true;
}

int machine_option(const char *cmd, int argc, char **argv, int *i, struct machine *m)
{
	for (size_t k = 0; k < sizeof replay_opts / sizeof replay_opts[0]; k++) {
		size_t n = strlen(replay_opts[k]);
		const char *val;

		if (strncmp(argv[*i], replay_opts[k], n) || (argv[*i][n] && argv[*i][n] != '='))
			continue;
		val = argv[*i][n] ? argv[*i] + n + 1 : *i + 1 < argc ? argv[++*i] : NULL;
		return replay_file(cmd, k, val, m) ? 1 : -1;
	}
	return 0;
}

int machine_replay(const char *cmd, const char *topology, const char *cpuid, struct machine *m)
{
	if (topology && !replay_file(cmd, 0, topology, m))
		return -1;
	if (cpuid && !replay_file(cmd, 1, cpuid, m))
		return -1;
	return 0;
}

/* hwloc's variables that load another machine's topology, or this one's from elsewhere: a run
 * under any of them would pin threads and size caches by what is not this machine (with
 * HWLOC_SYNTHETIC a run crashed writing its metadata and left two empty files). */
static const char *const replay_env[] = { "HWLOC_XMLFILE", "HWLOC_SYNTHETIC", "HWLOC_FSROOT",
					  "HWLOC_CPUID_PATH", "HWLOC_COMPONENTS",
					  "HWLOC_THISSYSTEM" };

bool machine_refuse_replay(const char *cmd, const char *topology, const char *cpuid)
{
	const char *given[] = { topology, cpuid };

	for (size_t k = 0; k < sizeof replay_opts / sizeof replay_opts[0]; k++)
		if (given[k]) {
			fprintf(stderr, "%s: %s: a replayed machine is never measured (info, list "
					"and run --dry-run take --topology/--cpuid; run measures this "
					"machine)\n", cmd, replay_opts[k]);
			return true;
		}
	for (size_t k = 0; k < sizeof replay_env / sizeof replay_env[0]; k++) {
		const char *env = getenv(replay_env[k]);

		if (env && *env) {
			fprintf(stderr, "%s: %s '%s' replaces this machine's topology, and a replayed "
					"machine is never measured: unset it to run (or plan with "
					"--dry-run)\n", cmd, replay_env[k], env);
			return true;
		}
	}
	return false;
}

/* Identity as far as a topology states it (hwloc's Package infos); no CPUID, so no ISA. */
static void cpu_from_topology(struct cpu_info *cpu, const struct topology *t)
{
	memset(cpu, 0, sizeof *cpu);
	snprintf(cpu->vendor, sizeof cpu->vendor, "%s", t->id.vendor);
	snprintf(cpu->brand, sizeof cpu->brand, "%s", t->id.model_name);
	/* a family without its model (or one beyond CPUID's range) names no CPU: family 0, which
	 * the metadata says is unknown */
	if (t->id.family > 0 && t->id.model >= 0) {
		cpu->family = (unsigned)t->id.family;
		cpu->model = (unsigned)t->id.model;
		cpu->stepping = t->id.stepping > 0 ? (unsigned)t->id.stepping : 0;
	}
	cpu->codename = cpu_codename(cpu->vendor, cpu->family, cpu->model, cpu->stepping);
}

/* The instance that serves the first allowed PU describes its level (hybrid parts: a P-core). */
static void caches_from_topology(struct cpu_info *cpu, const struct topology *t)
{
	static const int order[] = { TOPO_L1D, TOPO_L1I, TOPO_L2, TOPO_L3 };
	const struct topo_pu *first = t->pu;

	for (size_t i = 0; i < t->npus; i++)
		if (t->pu[i].allowed) {
			first = &t->pu[i];
			break;
		}
	cpu->ncaches = 0;
	for (size_t k = 0; k < sizeof order / sizeof order[0]; k++) {
		const struct topo_level *lv = &t->cache[order[k]];
		const struct topo_cache *c;
		struct cpu_cache *out;

		if (!lv->count || first->cache[order[k]] < 0)
			continue;
		c = &lv->inst[first->cache[order[k]]];
		out = &cpu->caches[cpu->ncaches++];
		memset(out, 0, sizeof *out);
		out->level = lv->level;
		snprintf(out->type, sizeof out->type, "%s", lv->type);
		out->size_bytes = c->size_bytes;
		out->shared_cpus = c->pus;
		out->shared_cores = c->cores;
		out->instances = (unsigned)lv->count;
	}
	cpu->cache_source = t->cache_source;
}

static void fill_from_topology(struct cpu_info *cpu, const struct topology *t)
{
	cpu->online_cpus = (unsigned)t->npus;
	cpu->threads_per_core = t->smt_width;
	cpu->numa_nodes = t->nnodes ? (unsigned)t->nnodes : 1;
	cpu->packages = t->packages;
	cpu->cores = t->cores;
	if (t->cache[TOPO_L1D].count || t->cache[TOPO_L2].count || t->cache[TOPO_L3].count)
		caches_from_topology(cpu, t);
	else if (t->source) /* a replayed topology without caches: none of this CPU's either */
		cpu->ncaches = 0;
}

/* A dump and a topology of different CPUs are shown as given, with one note. */
static void note_mismatch(const char *cmd, const struct machine *m)
{
	const struct topo_identity *id = &m->topo->id;

	if (!id->vendor[0] || id->family < 0 || id->model < 0)
		return;
	if (!strcmp(id->vendor, m->cpu.vendor) && (unsigned)id->family == m->cpu.family &&
	    (unsigned)id->model == m->cpu.model)
		return;
	fprintf(stderr, "%s: note: --cpuid is %s family 0x%x model 0x%x, the topology says %s family "
			"0x%x model 0x%x; shown as given\n", cmd, m->cpu.vendor, m->cpu.family,
		m->cpu.model, id->vendor, (unsigned)id->family, (unsigned)id->model);
}

int machine_load(struct machine *m, const char *cmd)
{
	const char *env = getenv("HWLOC_XMLFILE");
	char err[256];

	if (!m->topology_file && env && *env)
		m->topology_file = env;
	if (m->cpuid_file) {
		if (cpu_replay(&m->cpu, m->cpuid_file, err, sizeof err)) {
			fprintf(stderr, "%s: --cpuid '%s': %s\n", cmd, m->cpuid_file, err);
			return 2;
		}
	} else if (!m->topology_file) {
		cpu_detect(&m->cpu);
	}
	if (m->topology_file || !m->cpuid_file) {
		m->topo = topology_load(m->topology_file, err, sizeof err);
		if (!m->topo && m->topology_file) {
			fprintf(stderr, "%s: %s '%s': %s\n", cmd,
				m->topology_file == env ? "HWLOC_XMLFILE" : "--topology", m->topology_file,
				err);
			return 2;
		}
		if (!m->topo) {
			fprintf(stderr, "%s: cannot read this machine's topology: %s\n", cmd, err);
			return 1;
		}
		if (!m->topology_file && m->topo->source) /* another hwloc variable swapped it */
			m->topology_file = m->topo->source;
		/* hwloc falls back to this machine on a synthetic description it cannot read: say
		 * so rather than show this machine as if it were the one described */
		if (!m->topology_file && getenv("HWLOC_SYNTHETIC") && *getenv("HWLOC_SYNTHETIC") &&
		    strcmp(m->topo->backend, "Synthetic")) {
			fprintf(stderr, "%s: HWLOC_SYNTHETIC '%s': hwloc could not read it (this "
					"machine's topology came back instead); see hwloc's synthetic "
					"syntax, e.g. 'pack:2 core:4 pu:2'\n", cmd,
				getenv("HWLOC_SYNTHETIC"));
			return 2;
		}
		if (!m->cpuid_file && m->topology_file)
			cpu_from_topology(&m->cpu, m->topo);
		else if (m->cpuid_file)
			note_mismatch(cmd, m);
		fill_from_topology(&m->cpu, m->topo);
	}
	return 0;
}

void machine_free(struct machine *m)
{
	topology_free(m->topo);
	levels_free(&m->levels);
	m->topo = NULL;
}

void machine_replayed(const struct machine *m, char *buf, size_t len)
{
	if (!m->topology_file && !m->cpuid_file) {
		snprintf(buf, len, "no");
		return;
	}
	snprintf(buf, len, "%s%s%s%s%s", m->topology_file ? "topology:" : "",
		 m->topology_file ? m->topology_file : "", m->topology_file && m->cpuid_file ? " " : "",
		 m->cpuid_file ? "cpuid:" : "", m->cpuid_file ? m->cpuid_file : "");
}
