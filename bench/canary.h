/*
 * canary.h — the drift canary: one fixed DRAM-bound point, measured at the start, every
 * --canary-period of sweep and at the end, whose series says when the machine itself moved.
 * Plain C.  A shared host's memory bandwidth flips between states from minute to minute; points
 * measured while the canary was outside its band, around the median of its samples, are flagged
 * drift (quality.h).
 */
#ifndef STOREBENCH_CANARY_H
#define STOREBENCH_CANARY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "buffer.h"
#include "canary_rules.h"
#include "opts.h"

/* One sample of the series. */
struct canary_sample {
	double t_s;  /* seconds since the canary started (the run's first point) */
	double gbps; /* median of CANARY_PASSES calls, 1e9 bytes/s */
	size_t at;   /* measurements of the sweep done before it: it closes their window */
};

struct canary {
	const struct kernel *k;    /* CANARY_KERNEL from the kernel table */
	struct buffer buf;         /* its own, allocated and first touched by the calling thread */
	size_t bytes;              /* bytes per call = the working set, one thread */
	int cpu;                   /* where it runs: the placement's first CPU (the pool's thread 0) */
	unsigned fill;             /* byte stored: the run's --fill */
	double band;               /* a sample outside ref x (1 +- band) is out of band */
	double ref;                /* the median of the samples so far: a low or high first one
				    * does not move the band (it once flagged a whole run) */
	uint64_t period_ns;        /* between two samples */
	uint64_t t0_ns, last_ns;   /* when it started and when it last sampled (mono_ns) */
	double drift_pct;          /* --inject-drift: samples taken after measurement drift_from
				    * and before drift_to busy-wait this % of their time, timed */
	size_t drift_from, drift_to; /* the middle third of the planned measurements */
	struct canary_sample *s;   /* the series, s[0] the starting sample */
	size_t n, cap;             /* samples taken, room for */
};

/* Bytes of the canary's call for o: 4 x the LLC share of one thread (cold's region: DRAM-bound
 * whatever the prefetchers do), at most CANARY_MAX_BYTES. */
size_t canary_bytes(const struct run_opts *o);

/*
 * Allocate and first-touch the buffer on the calling thread (pinned to the placement's first
 * CPU: call after pool_start) and take the starting sample; measurements: how many the sweep
 * plans (--rounds x points), whose middle third --inject-drift bends.  false + err when memory
 * is short.
 */
bool canary_start(struct canary *c, const struct run_opts *o, size_t measurements, char *err,
		  size_t len);

/* Whether a period has passed since the last sample. */
bool canary_due(const struct canary *c);

/* Take one more sample, after the sweep's first `at` measurements, and move ref to the median
 * of the series; false when out of memory for it. */
bool canary_sample(struct canary *c, size_t at);

/* Whether sample i lies outside the band around ref. */
bool canary_out(const struct canary *c, size_t i);

/*
 * The canary's keys as "<prefix>key=value" lines (prefix "" for the JSON context, "# " for the
 * CSV), in three parts so the CSV can be written as the sweep goes.  Settings, known once the
 * starting sample is taken: canary, canary_kernel, canary_call_bytes, canary_ws_bytes,
 * canary_threads, canary_cpu, canary_period_s, canary_band, canary_start_gbps.
 */
void canary_settings(FILE *out, const char *prefix, const struct canary *c);

/* canary_sample=<t_s>:<GB/s> of sample i, the form of one entry of canary_series. */
void canary_sample_line(FILE *out, const char *prefix, const struct canary *c, size_t i);

/* The summary, known when the sweep ends: canary_series (every sample as t_s:gbps, comma-joined,
 * in time order), canary_ref_gbps (their median, the band's centre) and canary_out_samples (how
 * many are outside the band). */
void canary_summary(FILE *out, const char *prefix, const struct canary *c);

void canary_free(struct canary *c);

#endif
