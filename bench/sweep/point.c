/*
 * point.c — what a point prints as: its Google Benchmark name and the CSV columns it decides.
 * Plain C.  A mix point's chunk and region travel in the call and working-set fields of names and
 * rows (its rows have always read that way, and scripts and baselines key on them); only here.
 */
#include "point.h"

#include <stdio.h>

const char *const ws_mode_name[] = {
	[WS_CALL] = "call", [WS_HOT] = "hot", [WS_COLD] = "cold", [WS_SEQ] = "seq",
	[WS_RANDOM] = "random",
};

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
	return 1 + (double)point_ws_bytes(p) * p->threads / (32 << 20);
}

/*
 * The size fields a point shows as call_bytes, ws_mode and ws_bytes (names and rows alike): a
 * mix point walks its region in order, one chunk per call.
 */
struct shown_sizes {
	uint64_t call;     /* the call_bytes column and name field */
	enum ws_mode mode; /* the ws_mode column and name prefix */
	uint64_t ws;       /* the ws_bytes column and name field */
};

static struct shown_sizes shown_sizes(const struct point *p)
{
	if (p->kind == POINT_MIX)
		return (struct shown_sizes){ p->mix.chunk_bytes, WS_SEQ, p->mix.region_bytes };
	return (struct shown_sizes){ p->store.call_bytes, p->store.mode, p->store.ws_bytes };
}

/* A store point is rw 100 whatever the --rw element said ("100", "0:1"): it prints as 100. */
static const char *rw_text(const struct point *p, char *buf, size_t len)
{
	static const struct rw_ratio store_only = { 1, 1, "100" };

	return rw_ratio_format(p->kind == POINT_MIX ? &p->mix.rw : &store_only, buf, len);
}

void point_name(struct point *p)
{
	struct shown_sizes s = shown_sizes(p);
	char ws[48], mis[32] = "", mix[48] = "", pct[16];

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
	snprintf(p->name, sizeof p->name, "%s/call:%llu/ws:%s/threads:%u/rw:%s%s%s", p->k->name,
		 (unsigned long long)s.call, ws, p->threads, rw_text(p, pct, sizeof pct), mix, mis);
}

void point_columns(const struct point *p, const struct run_opts *o, struct csv_row *row)
{
	struct shown_sizes s = shown_sizes(p);
	bool mix = p->kind == POINT_MIX;
	enum rw_mode mode = mix ? p->mix.mode : o->rw_mode[0];
	enum rw_layout layout = mix ? p->mix.layout : o->rw_layout[0];
	char pct[16];

	csv_set(row, COL_kernel, "%s", p->k->name);
	csv_set(row, COL_kind, "%s", kernel_kind_name(p->k->kind));
	csv_set(row, COL_width_bytes, "%u", p->k->width);
	csv_set(row, COL_unroll, "%u", p->k->unroll);
	csv_set(row, COL_call_bytes, "%llu", (unsigned long long)s.call);
	csv_set(row, COL_ws_mode, "%s", ws_mode_name[s.mode]);
	csv_set(row, COL_ws_bytes, "%llu", (unsigned long long)s.ws);
	csv_set(row, COL_threads, "%u", p->threads);
	csv_set(row, COL_misalign_bytes, "%u", p->misalign);
	csv_set(row, COL_rw_ratio, "%s", rw_text(p, pct, sizeof pct));
	csv_set(row, COL_rw_mode, "%s", rw_mode_name(mode));
	if (!mix || mode != RW_MODE_split) /* whole threads: no layout */
		csv_set(row, COL_rw_layout, "%s", rw_layout_name(layout));
	csv_set(row, COL_chunk_bytes, "%llu", (unsigned long long)s.call);
	csv_set(row, COL_read_kernel, "%s", mix ? o->load->name : "");
}
