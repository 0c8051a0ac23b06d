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
#include "point_history.h"
#include "pool.h"
#include "sweep.h"

/* The counter id of total GB/s in a point's history: its samples and intervals are of it. */
#define MEASURE_COUNTER_GBPS 0

struct measure_env {
	struct pool *pool;
	const struct run_opts *o;
	double tsc_hz;       /* 0 when the TSC is not invariant: ticks columns stay empty */
	bool cycles;         /* perf_event_open works for every pool thread */
	bool stall;          /* --inject-stall applies to this point's calibrations */
	int round;           /* the run's round being measured: labels the point's sample */
	struct plan_cache *plans; /* one per pool thread: its plan, kept from point to point */
	struct pool_work *work;   /* one per pool thread: its part of the point being measured */
};

/* env->plans and env->work for every thread of env->pool; false when out of memory. */
bool measure_env_init(struct measure_env *env);

void measure_env_free(struct measure_env *env);

/* What a measured point says about itself beyond its row. */
struct point_result {
	double cpu_share;    /* least CPU time / wall time any thread got in a repetition */
	unsigned quality;    /* enum quality_reason bits; later stages (the canary) OR in theirs */
	bool remeasured;     /* calibrated and measured a second time (short batches, an outlier) */
};


/*
 * Measure p once more (one round: rounds_repetitions() of its repetitions) and fill row with the
 * statistics over every repetition in *hist, this round's included (*hist is allocated on the
 * first round); with one round they are Google Benchmark's aggregates, as in the JSON.  All but
 * the quality column: the caller writes res->quality once every stage (every round, the canary)
 * has had its say.  From the second round on, cv, outlier and shared_cpu in res->quality are
 * judged over all rounds' repetitions, replacing earlier rounds' (cv and outlier dropped once
 * the samples give an interval, which carries that spread; shared_cpu then judged by the median
 * repetition's CPU share).  Returns 0 when measured and verified, 1 on a failed verification
 * (row marked, numbers left empty: an error is not a number), -1 when buffers or memory cannot
 * be had.
 */
int measure_point(const struct measure_env *env, const struct point *p,
		  struct point_history **hist, struct csv_row *row, struct point_result *res);

#endif
