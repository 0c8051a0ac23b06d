/*
 * sweep_scaled.c — one sweep per thread count, each with the sizes of its per-thread shares.
 * Plain C.  A view of the options with one thread count and that count's size axes goes through
 * sweep_points(); points of all counts are joined in order, so names and filters work as before.
 */
#include "sweep_scaled.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const regime_name[] = { "L1d", "L2", "L3", "DRAM" };

enum regime point_regime(const struct point *p, const struct scaled_axes *a)
{
	uint64_t ws = point_ws_bytes(p);

	if (p->kind == POINT_STORE && (p->store.mode == WS_COLD || p->store.mode == WS_RANDOM))
		return ws <= a->words[SW_L2].value ? R_L2 : ws <= a->words[SW_L3].value ? R_L3 : R_DRAM;
	if (ws <= a->words[SW_L1D].value)
		return R_L1D;
	if (ws <= a->words[SW_L2].value)
		return R_L2;
	if (a->words[SW_L3].value && ws <= a->words[SW_L3].value)
		return R_L3;
	return R_DRAM;
}

const struct scaled_axes *axes_at(const struct run_opts *o, unsigned threads)
{
	for (size_t i = 0; i < o->threads.n; i++)
		if (o->at[i].threads == threads)
			return &o->at[i];
	return NULL;
}

struct point *sweep_scaled(const struct run_opts *o, size_t *n, size_t *skipped,
			   size_t *skipped_rw, size_t *rounded_split)
{
	struct point *all = NULL;
	size_t used = 0, total = 0;

	*skipped = *skipped_rw = *rounded_split = 0;
	/* the whole sweep's size, every thread count's axes multiplied out, before any allocation */
	for (size_t i = 0; i < o->threads.n; i++) {
		struct run_opts view = *o;
		size_t m;

		view.threads.n = 1;
		view.call = o->at[i].call;
		view.nws = o->at[i].nws;
		view.chunk = o->at[i].chunk;
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
		struct run_opts view = *o;
		unsigned long long count = o->threads.v[i];
		size_t m, s, srw, rs;
		struct point *pts, *grown;

		view.threads = (struct u64_list){ .n = 1, .cap = 1, .v = &count };
		view.call = o->at[i].call;
		view.ws = o->at[i].ws;
		view.nws = o->at[i].nws;
		view.chunk = o->at[i].chunk;
		view.cold_bytes = o->at[i].cold_bytes;
		pts = sweep_points(&view, &m, &s, &srw, &rs);
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
		*skipped += s;
		*skipped_rw += srw;
		*rounded_split += rs;
	}
	*n = used;
	return all ? all : calloc(1, sizeof *all);
}

enum canary_regime canary_regime_of(enum regime r)
{
	return r == R_DRAM ? CANARY_DRAM : r == R_L3 ? CANARY_LLC : CANARY_L2;
}
