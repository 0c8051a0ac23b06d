/*
 * shares.c — per-thread cache shares, domains and nodes used by the first t threads of a placement.
 * Plain C, no ISA.  Counting threads per cache instance is all it takes; the sweep (sizes, marks,
 * DRAM points, memory check) reads these numbers instead of the whole cache per thread.
 */
#include "shares.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Threads of ts in each instance of kind: counts[instance], calloc'ed; NULL when out of memory. */
static unsigned *threads_per_instance(const struct topology *t, const struct thread_set *ts, int kind)
{
	unsigned *n = calloc(t->cache[kind].count ? t->cache[kind].count : 1, sizeof *n);

	for (unsigned i = 0; n && i < ts->threads; i++) {
		int c = topology_pu(t, (unsigned)ts->cpu[i])->cache[kind];

		if (c >= 0)
			n[c]++;
	}
	return n;
}

static bool level_share(const struct topology *t, const struct thread_set *ts, int kind,
			struct cache_share *s)
{
	const struct topo_level *lv = &t->cache[kind];
	unsigned *n = threads_per_instance(t, ts, kind);

	if (!n)
		return false;
	memset(s, 0, sizeof *s);
	s->level = lv->level;
	for (size_t c = 0; c < lv->count; c++) {
		size_t share;

		if (!n[c])
			continue;
		share = lv->inst[c].size_bytes / n[c];
		s->domains++;
		s->aggregate_bytes += lv->inst[c].size_bytes;
		s->threads_max = n[c] > s->threads_max ? n[c] : s->threads_max;
		s->share_min_bytes = !s->share_min_bytes || share < s->share_min_bytes ? share
										     : s->share_min_bytes;
		s->share_max_bytes = share > s->share_max_bytes ? share : s->share_max_bytes;
	}
	free(n);
	return true;
}

static void nodes_used(const struct topology *t, struct thread_set *ts)
{
	bool memory_known = true;

	for (size_t k = 0; k < t->nnodes; k++) {
		bool used = false;

		for (unsigned i = 0; i < ts->threads && !used; i++)
			used = topology_pu(t, (unsigned)ts->cpu[i])->node == (int)t->node[k].os;
		if (!used)
			continue;
		ts->nodes++;
		ts->node_memory_bytes += t->node[k].memory_bytes;
		memory_known = memory_known && t->node[k].memory_bytes;
	}
	if (!memory_known)
		ts->node_memory_bytes = 0;
}

bool thread_set_of(const struct topology *t, const struct placement *pl, unsigned threads,
		   struct thread_set *ts, char *err, size_t errlen)
{
	memset(ts, 0, sizeof *ts);
	if (threads == 0 || threads > pl->ncpus) {
		snprintf(err, errlen, "%u threads but the placement has %zu CPUs", threads, pl->ncpus);
		return false;
	}
	for (unsigned i = 0; i < threads; i++)
		if (pl->cpu[i] < 0 || !topology_pu(t, (unsigned)pl->cpu[i])) {
			snprintf(err, errlen, "CPU %d is not in this topology", pl->cpu[i]);
			return false;
		}
	ts->threads = threads;
	ts->cpu = pl->cpu;
	ts->node = pl->node;
	nodes_used(t, ts);
	for (int k = 0; k < TOPO_SHARE_KINDS; k++)
		if (!level_share(t, ts, k, &ts->cache[k])) {
			snprintf(err, errlen, "out of memory");
			return false;
		}
	return true;
}

size_t thread_share_bytes(const struct topology *t, const struct thread_set *ts, int kind,
			  unsigned thread)
{
	int c = topology_pu(t, (unsigned)ts->cpu[thread])->cache[kind];
	unsigned *n;
	size_t share;

	if (c < 0 || !(n = threads_per_instance(t, ts, kind)))
		return 0;
	share = t->cache[kind].inst[c].size_bytes / n[c];
	free(n);
	return share;
}
