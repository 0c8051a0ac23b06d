/*
 * placement.c — CPU lists for compact, spread and explicit placement, from topology.c's orders.
 * Plain C, no ISA.  Sized by the machine's CPU count (no 1024-CPU cpu_set_t anywhere); the L3 and
 * node structure comes from hwloc, so chiplet parts spread over chiplets, SNC/NPS nodes over nodes.
 */
#include "placement.h"
#include "cpulist.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void add_cpu(struct placement *pl, const struct topo_pu *pu)
{
	pl->cpu[pl->ncpus] = (int)pu->os;
	pl->node[pl->ncpus++] = pu->node < 0 ? 0 : pu->node;
}

/* "0,2,4-7" in the order written; every CPU must be allowed, none listed twice. */
static bool parse_cpu_list(const struct topology *t, const char *s, struct placement *pl,
			   char *err, size_t errlen)
{
	struct cpulist it = cpulist_start(s);
	enum cpulist_status st;
	bool *used = calloc(t->npus ? t->npus : 1, sizeof *used);
	long a, b;

	if (!used) {
		snprintf(err, errlen, "out of memory");
		return false;
	}
	while ((st = cpulist_next(&it, &a, &b)) == CPULIST_RANGE)
		for (long c = a; c <= b; c++) {
			const struct topo_pu *pu = c > (long)~0u ? NULL : topology_pu(t, (unsigned)c);

			if (!pu || !pu->allowed) {
				snprintf(err, errlen, "CPU %ld is not available to this process", c);
				free(used);
				return false;
			}
			if (used[pu - t->pu]) {
				snprintf(err, errlen, "CPU %ld listed twice", c);
				free(used);
				return false;
			}
			used[pu - t->pu] = true;
			add_cpu(pl, pu);
		}
	free(used);
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

bool placement_order(const struct topology *t, const char *spec, struct placement *pl, char *err,
		     size_t errlen)
{
	bool spread = !strcmp(spec, "spread"), ok = true;

	memset(pl, 0, sizeof *pl);
	snprintf(pl->spec, sizeof pl->spec, "%s", spec);
	pl->cpu = calloc(t->npus ? t->npus : 1, sizeof *pl->cpu);
	pl->node = calloc(t->npus ? t->npus : 1, sizeof *pl->node);
	if (!pl->cpu || !pl->node) {
		snprintf(err, errlen, "out of memory");
		ok = false;
	} else if (!strncmp(spec, "cpus:", 5)) {
		ok = parse_cpu_list(t, spec + 5, pl, err, errlen);
	} else if (!spread && strcmp(spec, "compact")) {
		snprintf(err, errlen, "unknown placement '%s' (want compact, spread or cpus:LIST)",
			 spec);
		ok = false;
	} else {
		/* the orders number the allowed PUs 0..allowed_pus-1: place each at its position */
		for (size_t i = 0; i < t->npus; i++)
			if (t->pu[i].allowed) {
				size_t at = spread ? t->pu[i].spread : t->pu[i].compact;

				pl->cpu[at] = (int)t->pu[i].os;
				pl->node[at] = t->pu[i].node < 0 ? 0 : t->pu[i].node;
			}
		pl->ncpus = t->allowed_pus;
	}
	if (!ok) {
		placement_free(pl);
		snprintf(pl->spec, sizeof pl->spec, "%s", spec);
	}
	return ok;
}

bool placement_build(const char *spec, struct placement *pl, char *err, size_t errlen)
{
	struct topology *t = topology_load(NULL, err, errlen);
	bool ok;

	memset(pl, 0, sizeof *pl);
	if (!t)
		return false;
	if (t->source) {
		snprintf(err, errlen, "this machine's topology is replaced by %s (HWLOC_XMLFILE?)",
			 t->source);
		topology_free(t);
		return false;
	}
	ok = placement_order(t, spec, pl, err, errlen);
	topology_free(t);
	return ok;
}

void placement_free(struct placement *pl)
{
	free(pl->cpu);
	free(pl->node);
	pl->cpu = pl->node = NULL;
	pl->ncpus = 0;
}

const char *const near_name[NEAR_COUNT] = {
	[NEAR_L3] = "same L3", [NEAR_PACKAGE] = "another L3 of the package",
	[NEAR_SOCKET] = "another package", [NEAR_ANY] = "nearest free core",
};

/* Whether pu stands in relation where to the first writer w. */
static bool related(const struct topo_pu *pu, const struct topo_pu *w, enum near where)
{
	bool same_l3 = pu->cache[TOPO_L3] >= 0 && pu->cache[TOPO_L3] == w->cache[TOPO_L3];

	switch (where) {
	case NEAR_L3: return pu->package == w->package && same_l3;
	case NEAR_PACKAGE: return pu->package == w->package && !same_l3;
	case NEAR_SOCKET: return pu->package != w->package;
	default: return true;
	}
}

/* Whether a writer runs on pu's core. */
static bool writers_core(const struct topology *t, const struct topo_pu *pu, const int *cpus,
			 size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const struct topo_pu *w = cpus[i] < 0 ? NULL : topology_pu(t, (unsigned)cpus[i]);

		if (w && w->package == pu->package && w->core == pu->core)
			return true;
	}
	return false;
}

int placement_near(const struct topology *t, const int *cpus, size_t n, enum near where)
{
	const struct topo_pu *w = n && cpus[0] >= 0 ? topology_pu(t, (unsigned)cpus[0]) : NULL;
	const struct topo_pu *best = NULL;

	if (!w)
		return -1;
	if (where == NEAR_ANY) {
		for (int r = NEAR_L3; r < NEAR_ANY; r++) {
			int cpu = placement_near(t, cpus, n, (enum near)r);

			if (cpu >= 0)
				return cpu;
		}
		return -1;
	}
	/* the least (SMT rank, compact position): a core's first PU wins over any sibling */
	for (size_t i = 0; i < t->npus; i++) {
		const struct topo_pu *pu = &t->pu[i];

		if (!pu->allowed || !related(pu, w, where) || writers_core(t, pu, cpus, n))
			continue;
		if (!best || pu->smt < best->smt ||
		    (pu->smt == best->smt && pu->compact < best->compact))
			best = pu;
	}
	return best ? (int)best->os : -1;
}
