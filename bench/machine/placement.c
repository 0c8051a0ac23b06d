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
