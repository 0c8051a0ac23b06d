/*
 * sweep.c — enumerating the points of a run from its option axes.
 * Plain C.  Each combination of the axes becomes a store point or a read/write mix point, or is
 * skipped or refused; points are named (point.c) and filtered here, once, before anything runs.
 */
#include "sweep.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gbench_shim.h"

static bool has_mode(const struct run_opts *o, enum rw_mode m)
{
	for (size_t i = 0; i < o->nrw_mode; i++)
		if (o->rw_mode[i] == m)
			return true;
	return false;
}

/*
 * The read/write point of this combination: the region each thread walks is the working set (the
 * call for call/hot), walked in calls of the chunk; a split point takes the ratio its whole
 * threads give.  Returns 1 to keep it, 0 to skip it, -1 after the error line when it cannot be
 * measured.
 */
static int mix_point(const struct run_opts *o, struct point *p, const struct ws_item *w,
		     uint64_t call, size_t *skipped_rw, size_t *rounded_split)
{
	struct mix_shape *m = &p->mix;
	struct rw_split split;
	char err[256];

	m->region_bytes = w->mode == WS_CALL || w->mode == WS_HOT ? call : w->bytes;
	if (w->mode == WS_COLD || w->mode == WS_RANDOM) {
		++*skipped_rw; /* an rw mix walks its region in order */
		return 0;
	}
	if (rw_check_chunk(m->chunk_bytes, m->region_bytes, err, sizeof err)) {
		fprintf(stderr, "storebench run: %s\n", err);
		return -1;
	}
	if (m->mode == RW_MODE_split) {
		struct rw_ratio asked = m->rw;

		if (rw_split_init(&split, p->threads, &m->rw, err, sizeof err)) {
			if (has_mode(o, RW_MODE_interleave)) {
				++*skipped_rw;
				return 0;
			}
			fprintf(stderr, "storebench run: %s\n", err);
			return -1;
		}
		rw_split_ratio(&split, &m->rw);
		if (m->rw.write_parts != asked.write_parts || m->rw.total_parts != asked.total_parts)
			++*rounded_split;
	}
	return 1;
}

/*
 * The store point of this combination: its working set from the ws item (the call itself for
 * call/hot).  Returns 1 to keep it, 0 to skip it (a call larger than its working set).
 */
static int store_point(const struct run_opts *o, struct point *p, const struct ws_item *w,
		       size_t *skipped)
{
	struct store_shape *st = &p->store;

	switch (st->mode) {
	case WS_CALL:
	case WS_HOT:
		st->ws_bytes = st->call_bytes;
		break;
	case WS_COLD:
		st->ws_bytes = o->cold_bytes > 4 * st->call_bytes ? o->cold_bytes
								  : 4 * st->call_bytes;
		break;
	default:
		if (w->bytes < st->call_bytes) {
			++*skipped;
			return 0;
		}
		/* whole calls only: the distinct bytes really cycled through */
		st->ws_bytes = w->bytes / st->call_bytes * st->call_bytes;
		break;
	}
	return 1;
}

bool sweep_combinations(const struct run_opts *o, size_t *n)
{
	size_t axis[] = { o->threads.n, o->nws, o->call.n, o->misalign.n, o->nrw, o->nrw_mode,
			  o->nrw_layout, o->chunk.n, o->sel.n };

	*n = 1;
	for (size_t i = 0; i < sizeof axis / sizeof axis[0]; i++)
		if (__builtin_mul_overflow(*n, axis[i], n))
			return false;
	return true;
}

/* Order of two points' names, then of their place in the sweep (qsort is not stable). */
static const struct point *order_base;

static int by_name(const void *a, const void *b)
{
	size_t i = *(const size_t *)a, j = *(const size_t *)b;
	int c = strcmp(order_base[i].name, order_base[j].name);

	return c ? c : (i > j) - (i < j);
}

/*
 * Keep the first of each name, in sweep order: a read/write point asked for twice (through the
 * call axis below rw 100, or two split ratios whole threads round alike) is measured once.
 * Sorting indices makes this O(n log n) for sweeps of many thousand points.
 */
static bool drop_repeats(struct point *pts, size_t *n)
{
	size_t *idx = malloc((*n ? *n : 1) * sizeof *idx), used = 0;
	bool *drop = calloc(*n ? *n : 1, sizeof *drop);

	if (!idx || !drop) {
		free(idx);
		free(drop);
		return false;
	}
	for (size_t i = 0; i < *n; i++)
		idx[i] = i;
	order_base = pts;
	qsort(idx, *n, sizeof *idx, by_name);
	for (size_t i = 1; i < *n; i++)
		drop[idx[i]] = !strcmp(pts[idx[i]].name, pts[idx[i - 1]].name);
	for (size_t i = 0; i < *n; i++)
		if (!drop[i])
			pts[used++] = pts[i];
	*n = used;
	free(idx);
	free(drop);
	return true;
}

struct point *sweep_points(const struct run_opts *o, size_t *n, size_t *skipped,
			   size_t *skipped_rw, size_t *rounded_split)
{
	size_t cap, used = 0;
	struct point *pts;

	*skipped = *skipped_rw = *rounded_split = 0;
	/* sweep_scaled checked the whole sweep against SWEEP_MAX_COMBINATIONS */
	if (!sweep_combinations(o, &cap) || cap > SWEEP_MAX_COMBINATIONS) {
		fprintf(stderr, "storebench run: the sweep has more than %d combinations of its "
				"axes; use shorter lists\n", SWEEP_MAX_COMBINATIONS);
		return NULL;
	}
	pts = calloc(cap ? cap : 1, sizeof *pts);
	if (!pts) {
		perror("storebench run");
		exit(1);
	}
	for (size_t t = 0; t < o->threads.n; t++)
	for (size_t w = 0; w < o->nws; w++)
	for (size_t c = 0; c < o->call.n; c++)
	for (size_t m = 0; m < o->misalign.n; m++)
	for (size_t r = 0; r < o->nrw; r++)
	for (size_t md = 0; md < o->nrw_mode; md++)
	for (size_t l = 0; l < o->nrw_layout; l++)
	for (size_t ch = 0; ch < o->chunk.n; ch++)
	for (size_t k = 0; k < o->sel.n; k++) {
		struct point p = {
			.k = o->sel.k[k], .threads = (unsigned)o->threads.v[t],
			.misalign = (unsigned)o->misalign.v[m],
		};
		int keep;

		if (rw_ratio_is_store_only(&o->rw[r])) {
			/* store only: the same point whatever the mode, layout and chunk */
			if (md || l || ch)
				continue;
			p.kind = POINT_STORE;
			p.store = (struct store_shape){ .mode = o->ws[w].mode,
							.call_bytes = o->call.v[c] };
			keep = store_point(o, &p, &o->ws[w], skipped);
		} else {
			/* layout is an interleave axis, and rw 0 reads the same in either */
			if (l && (o->rw_mode[md] == RW_MODE_split || rw_ratio_is_read_only(&o->rw[r])))
				continue;
			p.kind = POINT_MIX;
			p.mix = (struct mix_shape){ .rw = o->rw[r], .mode = o->rw_mode[md],
						    .layout = o->rw_layout[l],
						    .chunk_bytes = o->chunk.v[ch] };
			/* below rw 100 the call axis only sets call/hot regions: one point each */
			keep = mix_point(o, &p, &o->ws[w], o->call.v[c], skipped_rw, rounded_split);
		}
		if (keep < 0) {
			free(pts);
			return NULL;
		}
		if (!keep)
			continue;
		point_name(&p);
		if (gbs_filter_match(p.name))
			pts[used++] = p;
	}
	if (!drop_repeats(pts, &used)) {
		perror("storebench run");
		exit(1);
	}
	*n = used;
	return pts;
}
