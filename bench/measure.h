/*
 * measure.h — one point from buffers to CSV row: plans, prefill, calibration, run, verification.
 * Plain C, no ISA flags.
 * The one place that knows both the pool and the Google Benchmark shim; neither knows the other.
 */
#ifndef STOREBENCH_MEASURE_H
#define STOREBENCH_MEASURE_H

#include <stdbool.h>

#include "csv.h"
#include "opts.h"
#include "pool.h"
#include "sweep.h"

struct measure_env {
	struct pool *pool;
	const struct run_opts *o;
	double tsc_hz;       /* 0 when the TSC is not invariant: ticks columns stay empty */
	bool cycles;         /* perf_event_open works for every pool thread */
	bool stall;          /* --inject-stall applies to this point's calibrations */
};

/* What a measured point says about itself beyond its row. */
struct point_result {
	double cpu_share;    /* least CPU time / wall time any thread got in a repetition */
	unsigned quality;    /* enum quality_reason bits; later stages (the canary) OR in theirs */
	bool remeasured;     /* calibrated and measured a second time (short batches, an outlier) */
};

/*
 * Measure p and fill row (all but the quality column: the caller writes res->quality once every
 * stage has had its say).  Returns 0 when measured and verified, 1 on a failed verification (row
 * marked, numbers left empty: an error is not a number), -1 when buffers cannot be had.
 */
int measure_point(const struct measure_env *env, const struct point *p, struct csv_row *row,
		  struct point_result *res);

#endif
