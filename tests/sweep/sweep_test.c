/*
 * sweep_test.c — the sweep's filter rules one by one, the counters each bumps, and the shape of
 * the points it keeps (store: call and working set; mix: chunk and region), through the options
 * parser and sweep_threads() as `storebench run` calls them, on a replayed 2-socket Genoa.
 * Plain C.
 */
#include <stdlib.h>
#include <string.h>

#include "machine.h"
#include "run_config.h"
#include "sweep.h"
#include "sweep_threads.h"
#include "replay_genoa.h"
#include "test_util.h"

static struct machine genoa;

/* What one sweep gave: its points (NULL when refused) and counters. */
struct swept {
	struct point *pts;
	size_t n, combinations;
	struct sweep_counts c;
};

/* Sweep the run options in args (NULL-ended); false when the options themselves are bad. */
static bool sweep(const char *const *args, struct swept *s)
{
	char *argv[32] = { "run" };
	struct cmdline cl;
	struct run_config o;
	int argc = 1;

	for (; args[argc - 1]; argc++)
		argv[argc] = (char *)args[argc - 1];
	memset(s, 0, sizeof *s);
	if (cmdline_read(argc, argv, &cl) || run_config_parse(&cl, &genoa, &o)) {
		cmdline_free(&cl);
		return false;
	}
	CHECK(sweep_combinations(&o, &s->combinations), "combinations overflow");
	s->pts = sweep_threads(&o, &s->n, &s->c);
	run_config_free(&o);
	cmdline_free(&cl);
	return true;
}

#define SWEEP(s, ...) CHECK(sweep((const char *const[]){ __VA_ARGS__, NULL }, s), "bad options")

static void store_ignores_mix_axes(void)
{
	struct swept s;

	SWEEP(&s, "--kernels=memset", "--threads=2", "--call=4096", "--ws=call", "--rw=100",
	      "--rw-mode=interleave,split", "--rw-layout=spread,contiguous", "--chunk=64,4096");
	CHECK(s.combinations == 8, "8 combinations, got %zu", s.combinations);
	CHECK(s.pts && s.n == 1 && !s.c.skipped && !s.c.skipped_rw && !s.c.rounded_split,
	      "one store point whatever the mix axes: %zu", s.n);
	if (s.pts && s.n == 1) {
		const struct point *p = &s.pts[0];

		CHECK(p->kind == POINT_STORE && p->store.mode == WS_CALL &&
		      p->store.call_bytes == 4096 && p->store.ws_bytes == 4096, "store shape");
		CHECK(!strcmp(p->name, "memset/call:4096/ws:4096/threads:2/rw:100"), "%s", p->name);
	}
	free(s.pts);
}

static void call_within_ws(void)
{
	struct swept s;

	SWEEP(&s, "--kernels=memset,sse2_t_u1", "--threads=1,2", "--call=64,4096,1000",
	      "--ws=seq:1024,random:4000");
	/* of 2 threads x 2 kernels x 6: seq:1024 and random:4000 hold no 4096 call */
	CHECK(s.pts && s.n == 16 && s.c.skipped == 2 * 2 * 2 && !s.c.skipped_rw,
	      "%zu points, %zu skipped", s.n, s.c.skipped);
	for (size_t i = 0; s.pts && i < s.n; i++)
		CHECK(s.pts[i].store.ws_bytes % s.pts[i].store.call_bytes == 0 &&
		      s.pts[i].store.ws_bytes <= (s.pts[i].store.mode == WS_SEQ ? 1024 : 4000),
		      "%s: whole calls within the working set", s.pts[i].name);
	free(s.pts);
}

static void mix_walks_in_order(void)
{
	struct swept s;

	SWEEP(&s, "--kernels=memset", "--threads=2", "--call=4096", "--rw=50",
	      "--ws=cold,random:65536,seq:65536,hot", "--chunk=1024");
	CHECK(s.pts && s.n == 2 && s.c.skipped_rw == 2 && !s.c.skipped, "%zu points, %zu skipped_rw",
	      s.n, s.c.skipped_rw);
	if (s.pts && s.n == 2) {
		const struct mix_shape *m = &s.pts[0].mix, *hot = &s.pts[1].mix;

		CHECK(s.pts[0].kind == POINT_MIX && m->chunk_bytes == 1024 &&
		      m->region_bytes == 65536 && m->mode == RW_MODE_interleave &&
		      m->rw.write_parts * 2 == m->rw.total_parts, "mix shape of seq:65536");
		CHECK(hot->region_bytes == 4096, "hot: the call is the region, got %llu",
		      (unsigned long long)hot->region_bytes);
		CHECK(!strcmp(s.pts[0].name, "memset/call:1024/ws:seq:65536/threads:2/rw:50"), "%s",
		      s.pts[0].name);
	}
	free(s.pts);
}

static void layout_interleave_only(void)
{
	static const char *const want[] = {
		"memset/call:4096/ws:seq:16384/threads:2/rw:50",
		"memset/call:4096/ws:seq:16384/threads:2/rw:50/layout:contiguous",
		"memset/call:4096/ws:seq:16384/threads:2/rw:50/mode:split",
		"memset/call:4096/ws:seq:16384/threads:2/rw:0",
		"memset/call:4096/ws:seq:16384/threads:2/rw:0/mode:split",
	};
	struct swept s;

	SWEEP(&s, "--kernels=memset", "--threads=2", "--call=16384", "--ws=call", "--rw=50,0",
	      "--rw-mode=interleave,split", "--rw-layout=spread,contiguous");
	CHECK(s.pts && s.n == 5 && !s.c.skipped && !s.c.skipped_rw, "%zu points", s.n);
	for (size_t i = 0; s.pts && i < s.n && i < 5; i++)
		CHECK(!strcmp(s.pts[i].name, want[i]), "#%zu %s, want %s", i, s.pts[i].name, want[i]);
	free(s.pts);
}

static void chunk_within_region(void)
{
	struct swept s;

	fprintf(stderr, "expected: one refusal of a chunk larger than its region\n");
	SWEEP(&s, "--kernels=memset", "--threads=1", "--call=4096", "--rw=100,50", "--chunk=8192");
	CHECK(!s.pts, "a chunk larger than the region is refused");
	SWEEP(&s, "--kernels=memset", "--threads=1", "--call=4096", "--rw=100", "--chunk=8192");
	CHECK(s.pts && s.n == 1, "a store point has no chunk to fit");
	free(s.pts);
}

static void split_needs_threads(void)
{
	struct swept s;

	fprintf(stderr, "expected: one refusal of split at 1 thread\n");
	SWEEP(&s, "--kernels=memset", "--threads=1,2", "--call=8192", "--rw=50", "--rw-mode=split");
	CHECK(!s.pts, "split alone at 1 thread is refused");
	SWEEP(&s, "--kernels=memset", "--threads=1,2", "--call=8192", "--rw=50,0",
	      "--rw-mode=split,interleave");
	/* 1 thread: rw 50 interleave, rw 0 split (a reader alone), rw 0; 2 threads: all four */
	CHECK(s.pts && s.n == 7 && s.c.skipped_rw == 1, "%zu points, %zu skipped_rw", s.n,
	      s.c.skipped_rw);
	free(s.pts);
}

static void split_ratio_rounded(void)
{
	struct swept s;

	SWEEP(&s, "--kernels=memset", "--threads=2,3", "--call=8192", "--rw=75,3:1",
	      "--rw-mode=split");
	/* 2 threads: both are one writer of two; 3: 75 -> 2 of 3 (66.67), 3:1 -> 1 of 3 (33.33) */
	CHECK(s.c.rounded_split == 4 && s.pts && s.n == 3, "%zu rounded, %zu points",
	      s.c.rounded_split, s.n);
	if (s.pts && s.n == 3) {
		CHECK(s.pts[0].mix.rw.write_parts == 1 && s.pts[0].mix.rw.total_parts == 2 &&
		      !strcmp(s.pts[0].name, "memset/call:4096/ws:seq:8192/threads:2/rw:50/mode:split"),
		      "%s", s.pts[0].name);
		CHECK(s.pts[1].mix.rw.write_parts == 2 && s.pts[1].mix.rw.total_parts == 3, "2 of 3");
	}
	free(s.pts);
}

static void cold_store(void)
{
	struct swept s;

	SWEEP(&s, "--kernels=memset", "--threads=1", "--call=64,1GiB", "--ws=cold");
	CHECK(s.pts && s.n == 2, "two cold points");
	if (s.pts && s.n == 2) {
		CHECK(s.pts[0].store.ws_bytes > 4 * 64 && s.pts[0].store.mode == WS_COLD,
		      "cold: 4 x LLC for a small call");
		CHECK(s.pts[1].store.ws_bytes == 4ull << 30, "cold: 4 x a call larger than the LLC");
	}
	free(s.pts);
}

/* The walk: threads slowest, then call, then kernel fastest; named in that order. */
static void walk_order(void)
{
	static const char *const want[] = {
		"memset/call:64/ws:64/threads:3/rw:100", "sse2_t_u1/call:64/ws:64/threads:3/rw:100",
		"memset/call:128/ws:128/threads:3/rw:100", "sse2_t_u1/call:128/ws:128/threads:3/rw:100",
		"memset/call:64/ws:64/threads:2/rw:100", "sse2_t_u1/call:64/ws:64/threads:2/rw:100",
		"memset/call:128/ws:128/threads:2/rw:100", "sse2_t_u1/call:128/ws:128/threads:2/rw:100",
	};
	struct swept s;
	char axes[200];

	SWEEP(&s, "--kernels=memset,sse2_t_u1", "--threads=3,2", "--call=64,128");
	CHECK(s.pts && s.n == 8, "%zu points", s.n);
	for (size_t i = 0; s.pts && i < s.n && i < 8; i++)
		CHECK(!strcmp(s.pts[i].name, want[i]), "#%zu %s, want %s", i, s.pts[i].name, want[i]);
	free(s.pts);
	CHECK(!strcmp(sweep_axis_options(axes, sizeof axes),
		      "--threads, --ws, --call, --misalign, --rw, --rw-mode, --rw-layout, --chunk, "
		      "--victim, --victim-delay and --kernels"), "axes: %s", axes);
}

int main(int argc, char **argv)
{
	int rc = replay_genoa(&genoa, argc, argv, "sweep_test");

	if (rc)
		return rc;
	store_ignores_mix_axes();
	call_within_ws();
	mix_walks_in_order();
	layout_interleave_only();
	chunk_within_region();
	split_needs_threads();
	split_ratio_rounded();
	cold_store();
	walk_order();
	machine_free(&genoa);
	return test_result("sweep rules, counters and point shapes ok");
}
