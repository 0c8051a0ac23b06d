/*
 * placement.c — CPU ordering for compact and spread placement from sysfs topology.
 * Plain C, Linux.  The L3 domain is the id of the CPU's level-3 cache (sysfs), so chiplet parts
 * (several L3s per socket) spread over chiplets, not just sockets.
 */
#define _GNU_SOURCE
#include "placement.h"
#include "cpulist.h"
#include "sysfs.h"

#include <numa.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct cpu_pos {
	int cpu, node, l3, package, core, smt;
	int domain, rank; /* dense (node, l3) index; position inside the domain */
};

static int sysfs_int(int cpu, const char *file, int fallback)
{
	char path[160], line[64];
	int v;

	snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu%d/%s", cpu, file);
	if (sysfs_line(path, line, sizeof line) || sscanf(line, "%d", &v) != 1)
		return fallback;
	return v;
}

static int l3_id(int cpu)
{
	for (int i = 0; i < 8; i++) {
		char file[64];

		snprintf(file, sizeof file, "cache/index%d/level", i);
		if (sysfs_int(cpu, file, -1) == 3) {
			snprintf(file, sizeof file, "cache/index%d/id", i);
			return sysfs_int(cpu, file, 0);
		}
	}
	return 0;
}

/* SMT index: how many siblings of cpu have a lower number (first in thread_siblings_list = 0). */
static int smt_index(int cpu)
{
	char path[160], list[256];
	struct cpulist it = cpulist_start(list);
	long lo, hi;
	int idx = 0;

	snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu%d/topology/thread_siblings_list",
		 cpu);
	if (sysfs_line(path, list, sizeof list))
		return 0;
	while (cpulist_next(&it, &lo, &hi) == CPULIST_RANGE)
		for (long c = lo; c <= hi; c++)
			idx += c < cpu;
	return idx;
}

static int node_of(int cpu)
{
	int n = numa_available() < 0 ? 0 : numa_node_of_cpu(cpu);

	return n < 0 ? 0 : n;
}

static int by_topology(const void *a, const void *b)
{
	const struct cpu_pos *x = a, *y = b;

	if (x->node != y->node)
		return x->node - y->node;
	if (x->l3 != y->l3)
		return x->l3 - y->l3;
	if (x->smt != y->smt)
		return x->smt - y->smt;
	if (x->package != y->package)
		return x->package - y->package;
	if (x->core != y->core)
		return x->core - y->core;
	return x->cpu - y->cpu;
}

static int by_compact(const void *a, const void *b)
{
	const struct cpu_pos *x = a, *y = b;

	if (x->smt != y->smt)
		return x->smt - y->smt;
	if (x->domain != y->domain)
		return x->domain - y->domain;
	return x->rank - y->rank;
}

static int by_spread(const void *a, const void *b)
{
	const struct cpu_pos *x = a, *y = b;

	if (x->smt != y->smt)
		return x->smt - y->smt;
	if (x->rank != y->rank)
		return x->rank - y->rank;
	return x->domain - y->domain;
}

/* "0,2,4-7" into cpus; every CPU must be in allowed. */
static bool parse_cpu_list(const char *s, const cpu_set_t *allowed, struct placement *pl,
			   char *err, size_t errlen)
{
	struct cpulist it = cpulist_start(s);
	enum cpulist_status st;
	long a, b;

	while ((st = cpulist_next(&it, &a, &b)) == CPULIST_RANGE)
		for (long c = a; c <= b; c++) {
			if (c >= CPU_SETSIZE || !CPU_ISSET(c, allowed)) {
				snprintf(err, errlen, "CPU %ld is not available to this process", c);
				return false;
			}
			for (size_t i = 0; i < pl->ncpus; i++)
				if (pl->cpu[i] == c) {
					snprintf(err, errlen, "CPU %ld listed twice", c);
					return false;
				}
			pl->node[pl->ncpus] = node_of((int)c);
			pl->cpu[pl->ncpus++] = (int)c;
		}
	switch (st) {
	case CPULIST_BAD_NUMBER:
		snprintf(err, errlen, "cannot parse CPU list '%s' (want e.g. cpus:0,2,4-7)", s);
		return false;
	case CPULIST_BAD_RANGE:
		snprintf(err, errlen, "bad CPU range in '%s'", s);
		return false;
	case CPULIST_BAD_SEPARATOR:
		snprintf(err, errlen, "cannot parse CPU list '%s'", s);
		return false;
	default:
		break;
	}
	if (!pl->ncpus) {
		snprintf(err, errlen, "empty CPU list");
		return false;
	}
	return true;
}

bool placement_build(const char *spec, struct placement *pl, char *err, size_t errlen)
{
	cpu_set_t allowed;
	struct cpu_pos *pos;
	size_t n = 0;
	bool spread = !strcmp(spec, "spread");

	memset(pl, 0, sizeof *pl);
	snprintf(pl->spec, sizeof pl->spec, "%s", spec);
	if (sched_getaffinity(0, sizeof allowed, &allowed)) {
		snprintf(err, errlen, "sched_getaffinity failed");
		return false;
	}
	pl->cpu = calloc(CPU_SETSIZE, sizeof *pl->cpu);
	pl->node = calloc(CPU_SETSIZE, sizeof *pl->node);
	pos = calloc(CPU_SETSIZE, sizeof *pos);
	if (!pl->cpu || !pl->node || !pos) {
		snprintf(err, errlen, "out of memory");
		return false;
	}
	if (!strncmp(spec, "cpus:", 5)) {
		free(pos);
		return parse_cpu_list(spec + 5, &allowed, pl, err, errlen);
	}
	if (!spread && strcmp(spec, "compact")) {
		snprintf(err, errlen, "unknown placement '%s' (want compact, spread or cpus:LIST)",
			 spec);
		free(pos);
		return false;
	}
	for (int c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &allowed))
			pos[n++] = (struct cpu_pos){
				.cpu = c, .node = node_of(c), .l3 = l3_id(c),
				.package = sysfs_int(c, "topology/physical_package_id", 0),
				.core = sysfs_int(c, "topology/core_id", c), .smt = smt_index(c),
			};
	qsort(pos, n, sizeof *pos, by_topology);
	for (size_t i = 0, domain = 0, rank = 0; i < n; i++) {
		if (i && (pos[i].node != pos[i - 1].node || pos[i].l3 != pos[i - 1].l3)) {
			domain++;
			rank = 0;
		} else if (i && pos[i].smt != pos[i - 1].smt) {
			rank = 0;
		}
		pos[i].domain = (int)domain;
		pos[i].rank = (int)rank++;
	}
	qsort(pos, n, sizeof *pos, spread ? by_spread : by_compact);
	for (size_t i = 0; i < n; i++) {
		pl->cpu[i] = pos[i].cpu;
		pl->node[i] = pos[i].node;
	}
	pl->ncpus = n;
	free(pos);
	return true;
}
