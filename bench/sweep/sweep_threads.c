/*
 * sweep_threads.c — one sweep per thread count, each with the sizes of its per-thread shares.
 * Plain C.  A view of the options with one thread count and that count's size axes goes through
 * sweep_points(); points of all counts are joined in order, so names and filters work as before.
 */
#include "sweep_threads.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct level_shares point_shares(const struct scaled_axes *a)
{
	return (struct level_shares){ { [LEVEL_L1D] = a->words[SW_L1D].value,
					[LEVEL_L2] = a->words[SW_L2].value,
					[LEVEL_L3] = a->words[SW_L3].value } };
}

enum level point_level(const struct point *p, const struct scaled_axes *a)
{
	struct level_shares s = point_shares(a);
	enum level l = level_fits(point_ws_bytes(p), &s);

	/* cold and random offsets miss L1d whatever the size: each call lands somewhere new */
	if (p->kind == POINT_STORE && (p->store.mode == WS_COLD || p->store.mode == WS_RANDOM) &&
	    l == LEVEL_L1D)
		return LEVEL_L2;
	return l;
}

enum level point_class(const struct point *p, const struct scaled_axes *a)
{
	struct level_shares s = point_shares(a);

	return level_inside(point_ws_bytes(p), &s);
}

const struct scaled_axes *axes_at(const struct run_config *o, unsigned threads)
{
	for (size_t i = 0; i < o->threads.n; i++)
		if (o->at[i].threads == threads)
			return &o->at[i];
	return NULL;
}

struct point *sweep_threads(const struct run_config *o, size_t *n, struct sweep_counts *counts)
{
	struct point *all = NULL;
	size_t used = 0, total = 0;

	*counts = (struct sweep_counts){ 0 };
	/* the whole sweep's size, every thread count's axes multiplied out, before any allocation */
	for (size_t i = 0; i < o->threads.n; i++) {
		struct run_config view = *o;
		size_t m;

		view.threads.n = 1;
		view.call = o->at[i].call;
		view.nws = o->at[i].nws;
		view.chunk = o->at[i].chunk;
		view.nvictim = o->at[i].nvictim;
		if (!sweep_combinations(&view, &m) || __builtin_add_overflow(total, m, &total) ||
		    total > SWEEP_MAX_COMBINATIONS) {
			char axes[160];

			fprintf(stderr, "storebench run: the sweep has more than %d combinations of "
					"%s; use shorter lists\n", SWEEP_MAX_COMBINATIONS,
				sweep_axis_options(axes, sizeof axes));
			return NULL;
		}
	}
	for (size_t i = 0; i < o->threads.n; i++) {
		struct run_config view = *o;
		unsigned long long count = o->threads.v[i];
		struct sweep_counts c;
		size_t m;
		struct point *pts, *grown;

		view.threads = (struct u64_list){ .n = 1, .cap = 1, .v = &count };
		view.call = o->at[i].call;
		view.ws = o->at[i].ws;
		view.nws = o->at[i].nws;
		view.chunk = o->at[i].chunk;
		view.victim = o->at[i].victim;
		view.nvictim = o->at[i].nvictim;
		view.cold_bytes = o->at[i].cold_bytes;
		pts = sweep_points(&view, &m, &c);
		if (!pts) {
			free(all);
			return NULL;
		}
		grown = realloc(all, (used + m + 1) * sizeof *all);
		if (!grown) {
			perror("storebench run");
			exit(1);
		}
		all = grown;
		memcpy(all + used, pts, m * sizeof *pts);
		free(pts);
		used += m;
		counts->skipped += c.skipped;
		counts->skipped_rw += c.skipped_rw;
		counts->rounded_split += c.rounded_split;
		counts->skipped_victim += c.skipped_victim;
		counts->skipped_size += c.skipped_size;
	}
	*n = used;
	return all ? all : calloc(1, sizeof *all);
}

enum canary_regime canary_regime_of(enum level l)
{
	return l == LEVEL_DRAM ? CANARY_DRAM : l == LEVEL_L3 ? CANARY_LLC : CANARY_L2;
}
