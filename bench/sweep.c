/*
 * sweep.c — enumerating points and naming them for Google Benchmark.
 * Plain C.  Names follow <kernel>/call:<n>/ws:<n>/threads:<t>/rw:<r>; axes that are usually
 * constant (working-set mode, misalignment) appear only when not the default, so names stay stable.
 */
#include "sweep.h"

#include <stdio.h>
#include <stdlib.h>

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
	char ws[48], mis[32] = "";

	if (p->mode == WS_CALL)
		snprintf(ws, sizeof ws, "%llu", (unsigned long long)p->ws);
	else
		snprintf(ws, sizeof ws, "%s:%llu", ws_mode_name[p->mode], (unsigned long long)p->ws);
	if (p->misalign)
		snprintf(mis, sizeof mis, "/misalign:%u", p->misalign);
	snprintf(p->name, sizeof p->name, "%s/call:%llu/ws:%s/threads:%u/rw:100%s", p->k->name,
		 (unsigned long long)p->call, ws, p->threads, mis);
}

struct point *sweep_points(const struct run_opts *o, size_t *n, size_t *skipped)
{
	size_t cap = o->threads.n * o->nws * o->call.n * o->misalign.n * o->sel.n, used = 0;
	struct point *pts = calloc(cap ? cap : 1, sizeof *pts);

	*skipped = 0;
	if (!pts) {
		perror("storebench run");
		exit(1);
	}
	for (size_t t = 0; t < o->threads.n; t++)
	for (size_t w = 0; w < o->nws; w++)
	for (size_t c = 0; c < o->call.n; c++)
	for (size_t m = 0; m < o->misalign.n; m++)
	for (size_t k = 0; k < o->sel.n; k++) {
		struct point p = {
			.k = o->sel.k[k], .mode = o->ws[w].mode, .call = o->call.v[c],
			.threads = (unsigned)o->threads.v[t], .misalign = (unsigned)o->misalign.v[m],
		};

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
	*n = used;
	return pts;
}
