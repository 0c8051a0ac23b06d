/*
 * sweep.c — enumerating points and naming them for Google Benchmark.
 * Plain C.  Names follow <kernel>/call:<n>/ws:<n>/threads:<t>/rw:<r>; usually constant axes (ws
 * mode, rw mode and layout, misalignment) appear only when not the default, so names stay stable.
 */
#include "sweep.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gbench_shim.h"

const char *const ws_mode_name[] = {
	[WS_CALL] = "call", [WS_HOT] = "hot", [WS_COLD] = "cold", [WS_SEQ] = "seq",
	[WS_RANDOM] = "random",
};

uint64_t point_region_bytes(const struct point *p)
{
	return p->ws + p->misalign;
}

double point_weight(const struct point *p)
{
	return 1 + (double)p->ws * p->threads / (32 << 20);
}

static void name_point(struct point *p)
{
	char ws[48], mis[32] = "", mix[48] = "", pct[16];

	if (p->mode == WS_CALL)
		snprintf(ws, sizeof ws, "%llu", (unsigned long long)p->ws);
	else
		snprintf(ws, sizeof ws, "%s:%llu", ws_mode_name[p->mode], (unsigned long long)p->ws);
	if (p->misalign)
		snprintf(mis, sizeof mis, "/misalign:%u", p->misalign);
	/* the chunk is the call size; mode and layout appear when not the default */
	if (point_mixed(p) && p->rw_mode != RW_MODE_interleave)
		snprintf(mix, sizeof mix, "/mode:%s", rw_mode_name(p->rw_mode));
	else if (point_mixed(p) && p->rw_layout != RW_LAYOUT_spread)
		snprintf(mix, sizeof mix, "/layout:%s", rw_layout_name(p->rw_layout));
	snprintf(p->name, sizeof p->name, "%s/call:%llu/ws:%s/threads:%u/rw:%s%s%s", p->k->name,
		 (unsigned long long)p->call, ws, p->threads, rw_ratio_format(&p->rw, pct, sizeof pct),
		 mix, mis);
}

static bool has_mode(const struct run_opts *o, enum rw_mode m)
{
	for (size_t i = 0; i < o->nrw_mode; i++)
		if (o->rw_mode[i] == m)
			return true;
	return false;
}

/*
 * Turn p into its read/write point: the region each thread walks is the working set (the call
 * for call/hot), walked in calls of the chunk; a split point takes the ratio its whole threads
 * give.  Returns 1 to keep it, 0 to skip it, -1 after the error line when it cannot be measured.
 */
static int mix_point(const struct run_opts *o, struct point *p, const struct ws_item *w,
		     uint64_t chunk, size_t *skipped_rw, size_t *rounded_split)
{
	uint64_t region = w->mode == WS_CALL || w->mode == WS_HOT ? p->call : w->bytes;
	struct rw_split split;
	char err[256];

	if (w->mode == WS_COLD || w->mode == WS_RANDOM) {
		++*skipped_rw; /* an rw mix walks its region in order */
		return 0;
	}
	if (rw_check_chunk(chunk, region, err, sizeof err)) {
		fprintf(stderr, "storebench run: %s\n", err);
		return -1;
	}
	if (p->rw_mode == RW_MODE_split) {
		struct rw_ratio asked = p->rw;

		if (rw_split_init(&split, p->threads, &p->rw, err, sizeof err)) {
			if (has_mode(o, RW_MODE_interleave)) {
				++*skipped_rw;
				return 0;
			}
			fprintf(stderr, "storebench run: %s\n", err);
			return -1;
		}
		rw_split_ratio(&split, &p->rw);
		if (p->rw.write_parts != asked.write_parts || p->rw.total_parts != asked.total_parts)
			++*rounded_split;
	}
	p->mode = WS_SEQ;
	p->call = chunk;
	p->ws = region;
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
			.k = o->sel.k[k], .mode = o->ws[w].mode, .call = o->call.v[c],
			.threads = (unsigned)o->threads.v[t], .misalign = (unsigned)o->misalign.v[m],
			.rw = o->rw[r], .rw_mode = o->rw_mode[md], .rw_layout = o->rw_layout[l],
		};

		if (point_mixed(&p)) {
			/* layout is an interleave axis, and rw 0 reads the same in either */
			if (l && (p.rw_mode == RW_MODE_split || rw_ratio_is_read_only(&p.rw)))
				continue;
			switch (mix_point(o, &p, &o->ws[w], o->chunk.v[ch], skipped_rw, rounded_split)) {
			case -1:
				free(pts);
				return NULL;
			case 0:
				continue;
			}
			name_point(&p);
			/* below rw 100 the call axis only sets call/hot regions: one point each */
			if (gbs_filter_match(p.name))
				pts[used++] = p;
			continue;
		}
		/* store only: the same point whatever the mode, layout and chunk */
		if (md || l || ch)
			continue;
		switch (p.mode) {
		case WS_CALL:
		case WS_HOT:
			p.ws = p.call;
			break;
		case WS_COLD:
			p.ws = o->cold_bytes > 4 * p.call ? o->cold_bytes : 4 * p.call;
			break;
		default:
			if (o->ws[w].bytes < p.call) {
				++*skipped;
				continue;
			}
			/* whole calls only: the distinct bytes really cycled through */
			p.ws = o->ws[w].bytes / p.call * p.call;
			break;
		}
		name_point(&p);
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
