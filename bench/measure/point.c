/*
 * point.c — what a point prints as: its Google Benchmark name, and the sizes and ratio that its
 * name and its CSV row show.  Plain C.  A mix point's chunk and region travel in the call and
 * working-set fields of names and rows (its rows have always read that way, and scripts and
 * baselines key on them); only here.
 */
#include "point.h"

#include <stdio.h>

const char *const ws_mode_name[] = {
	[WS_CALL] = "call", [WS_HOT] = "hot", [WS_COLD] = "cold", [WS_SEQ] = "seq",
	[WS_RANDOM] = "random",
};

uint64_t point_call_bytes(const struct point *p)
{
	return p->kind == POINT_MIX ? p->mix.chunk_bytes : p->store.call_bytes;
}

uint64_t point_ws_bytes(const struct point *p)
{
	return p->kind == POINT_MIX ? p->mix.region_bytes : p->store.ws_bytes;
}

uint64_t point_region_bytes(const struct point *p)
{
	return point_ws_bytes(p) + p->misalign;
}

double point_weight(const struct point *p)
{
	double victim = p->victim.mode == VICTIM_NONE ? 0 : 2 * VICTIM_PAIRS;

	/* a probe's pairs each store the working set once more and wait as long (a chase's, a
	 * window each) */
	return 1 + (double)point_ws_bytes(p) * p->threads / (32 << 20) * (1 + victim);
}

struct shown_sizes point_shown(const struct point *p)
{
	if (p->kind == POINT_MIX)
		return (struct shown_sizes){ p->mix.chunk_bytes, WS_SEQ, p->mix.region_bytes };
	return (struct shown_sizes){ p->store.call_bytes, p->store.mode, p->store.ws_bytes };
}

const char *point_rw_text(const struct point *p, char *buf, size_t len)
{
	static const struct rw_ratio store_only = { 1, 1, "100" };

	return rw_ratio_format(p->kind == POINT_MIX ? &p->mix.rw : &store_only, buf, len);
}

void point_name(struct point *p)
{
	struct shown_sizes s = point_shown(p);
	char ws[48], mis[32] = "", mix[48] = "", pct[16], vic[72] = "", dist[72] = "";

	if (s.mode == WS_CALL)
		snprintf(ws, sizeof ws, "%llu", (unsigned long long)s.ws);
	else
		snprintf(ws, sizeof ws, "%s:%llu", ws_mode_name[s.mode], (unsigned long long)s.ws);
	if (p->misalign)
		snprintf(mis, sizeof mis, "/misalign:%u", p->misalign);
	/* mode and layout appear when not the default */
	if (p->kind == POINT_MIX && p->mix.mode != RW_MODE_interleave)
		snprintf(mix, sizeof mix, "/mode:%s", rw_mode_name(p->mix.mode));
	else if (p->kind == POINT_MIX && p->mix.layout != RW_LAYOUT_spread)
		snprintf(mix, sizeof mix, "/layout:%s", rw_layout_name(p->mix.layout));
	if (p->victim.mode != VICTIM_NONE)
		snprintf(vic, sizeof vic, "/victim:%s:%llu%s%.0llu", victim_mode_name[p->victim.mode],
			 (unsigned long long)p->victim.bytes, p->victim.delay_ns ? "/delay:" : "",
			 (unsigned long long)p->victim.delay_ns);
	if (p->kind == POINT_STORE && p->store.dist)
		snprintf(dist, sizeof dist, "/dist:%s", p->store.dist);
	snprintf(p->name, sizeof p->name, "%s/call:%llu/ws:%s/threads:%u/rw:%s%s%s%s%s", p->k->name,
		 (unsigned long long)s.call, ws, p->threads, point_rw_text(p, pct, sizeof pct), dist,
		 mix, mis, vic);
}
