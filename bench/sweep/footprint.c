/*
 * footprint.c — replay a sweep's buffer allocations to find the memory it maps at its peak.
 * Plain C, no ISA.  Adding each thread's largest buffer overstates the peak: a point that grows
 * buffers reallocates all its threads at its own size, so a big 1-thread buffer shrinks later.
 */
#include "footprint.h"

#include <stdlib.h>
#include <string.h>

bool footprint_point_grows(const struct point *p, unsigned long long *lens)
{
	unsigned long long need = point_region_bytes(p);
	bool grow = false;

	for (unsigned i = 0; i < p->threads; i++)
		grow |= lens[i] < need;
	if (grow)
		for (unsigned i = 0; i < p->threads; i++)
			lens[i] = need;
	return grow;
}

/* Index of thread i's node in t->node, or -1. */
static long node_index(const struct placement *pl, const struct topology *t, unsigned i)
{
	const struct topo_node *n = topology_node(t, (unsigned)pl->node[i]);

	return n ? n - t->node : -1;
}

bool footprint_of(const struct point *pts, size_t n, enum page_policy pages, bool local,
		  const struct placement *pl, const struct topology *t, struct footprint *f)
{
	size_t cpus = pl->ncpus ? pl->ncpus : 1;
	unsigned long long *lens = calloc(cpus, sizeof *lens), *old = calloc(cpus, sizeof *old);
	unsigned long long *node_now = NULL, total = 0;

	memset(f, 0, sizeof *f);
	if (local && t && t->nnodes) {
		f->nnodes = t->nnodes;
		f->node_peak = calloc(t->nnodes, sizeof *f->node_peak);
		node_now = calloc(t->nnodes, sizeof *node_now);
	}
	if (!lens || !old || (f->nnodes && (!f->node_peak || !node_now))) {
		free(lens);
		free(old);
		free(node_now);
		footprint_free(f);
		return false;
	}
	for (size_t k = 0; k < n; k++) {
		const struct point *p = &pts[k];

		if (p->threads > pl->ncpus)
			continue; /* run_config.c refuses these; never index past the placement */
		memcpy(old, lens, p->threads * sizeof *old);
		if (!footprint_point_grows(p, lens))
			continue;
		f->grows++;
		f->grown_bytes += buffer_footprint(point_region_bytes(p), pages) * p->threads;
		/* each thread unmaps its old buffer before it maps the new one */
		for (unsigned i = 0; i < p->threads; i++) {
			unsigned long long was = old[i] ? buffer_footprint(old[i], pages) : 0;
			unsigned long long now = buffer_footprint(lens[i], pages);
			long nd = f->nnodes ? node_index(pl, t, i) : -1;

			total += now - was;
			if (nd >= 0)
				node_now[nd] += now - was;
		}
		if (total > f->peak_bytes)
			f->peak_bytes = total;
		for (size_t d = 0; d < f->nnodes; d++)
			if (node_now[d] > f->node_peak[d])
				f->node_peak[d] = node_now[d];
	}
	free(lens);
	free(old);
	free(node_now);
	return true;
}

void footprint_free(struct footprint *f)
{
	free(f->node_peak);
	f->node_peak = NULL;
	f->nnodes = 0;
}
