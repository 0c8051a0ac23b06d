/*
 * measure.h — one point from buffers to numbers: plans, prefill, calibration, run, verification.
 * Plain C, no ISA flags.
 * The one place that knows both the pool and the Google Benchmark shim; neither knows the other.
 */
#ifndef STOREBENCH_MEASURE_H
#define STOREBENCH_MEASURE_H

#include <stdbool.h>
#include <stdint.h>

#include "point.h"
#include "point_history.h"
#include "pool.h"
#include "quality.h"
#include "victim.h"

/* The counter id of total GB/s in a point's history: its samples and intervals are of it. */
#define MEASURE_COUNTER_GBPS 0

/*
 * What measuring takes of the run's settings, and nothing more: the command filled it from the
 * options (stage_settings.h), so no measurement reads the command line's whole config.
 */
struct measure_settings {
	double min_time;                /* --min-time: seconds a repetition; 0: Google Benchmark's */
	int repetitions;                /* a point's repetitions in one round; 0: Google Benchmark's */
	struct quality_limits quality;  /* the limits the flags judge by (quality.h) */
	enum page_policy pages;         /* --pages of the buffers */
	struct membind bind;            /* --membind of the buffers */
	const struct load_kernel *load; /* the read kernel of mix points, victims and warming */
	uint64_t llc_bytes;             /* one thread's LLC: a larger chase buffer is not warmed */
	unsigned fill, prefill;         /* --fill: byte stored; --prefill: byte the buffers start at */
	double stall_ms;                /* --inject-stall: the first point's calibrations stall */
	double skew_us;                 /* --inject-skew: a batch's last thread starts this late */
	double slowdown;                /* --inject-slowdown as a share of the time, 0: none */
	const struct kernel *const *slowed; /* the kernels it bends, nslowed of them; NULL: all */
	size_t nslowed;
};

struct measure_env {
	struct pool *pool;
	const struct measure_settings *s;
	double tsc_hz;       /* 0 when the TSC is not invariant: ticks columns stay empty */
	bool cycles;         /* perf_event_open works for every pool thread */
	bool stall;          /* --inject-stall applies to this point's calibrations */
	int round;           /* the run's round being measured: labels the point's sample */
	bool turn_start;     /* the first point of its group's turn: warmed until steady */
	struct plan_cache *plans; /* one per pool thread: its plan, kept from point to point */
	struct pool_work *work;   /* one per pool thread: its part of the point being measured */
	struct victim_helper **helper; /* the victims' and chases' thread, kept from point to point */
};

/* env->plans, env->work for every thread of env->pool and env->helper; false when out of
 * memory. */
bool measure_env_init(struct measure_env *env);

void measure_env_free(struct measure_env *env);

/*
 * A measured point's numbers over every round so far, one field per statistics column of the
 * CSV (csv_columns.def has what each means); NAN, or -1 for a count, where there is none to give
 * (no perf counters, no interval yet, a failed verification): the column then stays empty.
 */
struct point_stats {
	bool verified;            /* every written byte checked; false: the rates below are NAN */
	int repetitions;          /* Google Benchmark repetitions behind them, over every round */
	int64_t iterations;       /* timed batches per repetition; -1 when only aggregates came */
	uint64_t calls_per_batch; /* kernel calls per thread in one timed batch */
	uint64_t read_bytes;      /* per batch, all threads (split: the mean over timed batches) */
	uint64_t write_bytes;     /* per batch, all threads */
	int rounds;               /* rounds measured */
	double gbps_median, gbps_mean, gbps_min, gbps_max; /* total GB/s over the repetitions */
	double gbps_cv;           /* their coefficient of variation */
	int samples;              /* samples behind the interval; -1 when not counted */
	double gbps_ci_low, gbps_ci_high; /* the median's 95 % interval over those samples */
	double read_gbps, write_gbps; /* of the median repetition: its total by byte share */
	double ns_per_call, ticks_per_call, ticks_per_line, cycles_per_call; /* medians */
	double cpu_share_min;     /* least CPU time / wall time of any thread */
	double batch_ns;          /* median timed batch (makespan) */
	double start_skew_share;  /* median share of a batch between first and last start */
	struct victim_result victim; /* the victim's or chase's probe; trials -1 without one */
};

/* What a measured point says: its numbers, and what they may be bent by. */
struct point_result {
	struct point_stats stats; /* the CSV's statistics columns */
	unsigned quality;    /* enum quality_reason bits; later stages (the canary) OR in theirs */
	bool remeasured;     /* calibrated and measured a second time (short batches, an outlier) */
	double timed_s;      /* seconds inside timed batches (Google Benchmark's), this measurement */
};

/*
 * Measure p once more (one round: rounds_repetitions() of its repetitions) and give in
 * res->stats the statistics over every repetition in *hist, this round's included (*hist is
 * allocated on the first round); with one round they are Google Benchmark's aggregates, as in
 * the JSON.  The caller writes res->quality once every stage (every round, the canary) has had
 * its say.  From the second round on, cv, outlier and shared_cpu in res->quality are
 * judged over all rounds' repetitions, replacing earlier rounds' (cv and outlier dropped once
 * the samples give an interval, which carries that spread; shared_cpu then judged by the median
 * repetition's CPU share).  A point with a victim then runs its probe (victim.h), whose trials
 * gather over the rounds as the repetitions do.  Returns 0 when measured and verified, 1 on a
 * failed verification of the writers' or the victim's bytes (stats.verified false, rates NAN: an
 * error is not a number), -1 when buffers or memory cannot be had.
 */
int measure_point(const struct measure_env *env, const struct point *p,
		  struct point_history **hist, struct point_result *res);

#endif
