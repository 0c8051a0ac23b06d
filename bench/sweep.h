/*
 * sweep.h — the list of points a run measures, in the order it measures them.
 * Plain C.  Points are enumerated before anything runs, so the progress line knows N, the memory
 * check knows the largest buffer, and --benchmark_filter is applied once.
 */
#ifndef STOREBENCH_SWEEP_H
#define STOREBENCH_SWEEP_H

#include <stddef.h>
#include <stdint.h>

#include "opts.h"

struct point {
	const struct kernel *k;
	enum ws_mode mode;
	uint64_t call;     /* bytes per call */
	uint64_t ws;       /* distinct bytes per thread */
	unsigned threads;
	unsigned misalign;
	char name[192];    /* the Google Benchmark name */
};

extern const char *const ws_mode_name[];

/*
 * The points of o that pass the benchmark filter: threads, then working set, then call size,
 * then misalignment, then kernel, so buffers grow monotonically and are reused across kernels.
 * *skipped counts combinations dropped because the call exceeds an explicit working set.
 */
struct point *sweep_points(const struct run_opts *o, size_t *n, size_t *skipped);

/* Relative cost of p for the ETA: a fixed part plus the bytes prefilled and verified. */
double point_weight(const struct point *p);

/* Bytes one thread's buffer needs for p (region plus misalignment). */
uint64_t point_region_bytes(const struct point *p);

#endif
