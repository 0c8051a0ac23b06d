/*
 * canary.h — the drift canaries: one fixed point per regime (a thread's L2, its LLC, DRAM),
 * sampled at the start, every --canary-period of sweep and at the end, whose series say when
 * the machine itself moved.  A sample is the median of the passes of its window: one pass a
 * tick (every CANARY_TICK_MS or more, between groups) since the sample before, and CANARY_PASSES
 * at the sample, so it reads the state the window's points saw, not that of one millisecond.
 * Plain C.  A shared host's speeds flip between states from minute to minute, and not in every
 * regime at once (its memory bandwidth with its neighbours, its caches with its clocks); points
 * measured while their own regime's canary was outside its band, around the median of that
 * canary's samples, are flagged drift (quality.h).
 */
#ifndef STOREBENCH_CANARY_H
#define STOREBENCH_CANARY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "buffer.h"
#include "canary_rules.h"

/* The regimes a canary judges: points whose per-thread working set lies in a thread's L1d or
 * L2 share, in its L3 share, or beyond (sweep_threads.h: point_level, canary_regime_of). */
enum canary_regime { CANARY_L2, CANARY_LLC, CANARY_DRAM, CANARY_REGIMES };

/* What the canaries take of a run: canary_config_of(o) (stage_settings.h), or a test's own. */
struct canary_config {
	int cpu, node;               /* the placement's first CPU (pool thread 0) and its node */
	unsigned fill;               /* byte stored: the run's --fill */
	double band;                 /* --drift-band: out of band beyond ref x (1 +- band) */
	double period_s;             /* --canary-period: seconds between two samples */
	double drift_pct;            /* --inject-drift: the DRAM canary's middle third this % slower */
	unsigned long long l2_bytes; /* one thread's L2 and LLC (0: unknown) and cold's region: the */
	unsigned long long llc_bytes; /* sizes of the three canaries */
	unsigned long long cold_bytes;
	enum page_policy pages;      /* --pages and --membind of the run's buffers */
	struct membind bind;
	int (*stopped)(void);        /* nonzero once the run is asked to stop (signals_pending), or
				      * NULL: polled while the buffers are first touched, which takes
				      * seconds (1.3 GiB where a guest reports a 508 MiB L3) */
};

/* One sample of a series. */
struct canary_sample {
	double t_s;      /* seconds since the canaries started (the run's first point) */
	double gbps;     /* median of its window's timed passes, 1e9 bytes/s */
	size_t at;       /* measurements of the sweep done before it: it closes their window */
	unsigned passes; /* passes it is the median of */
};

/* One regime's canary: its buffer and its series. */
struct canary_series {
	const char *key;           /* its metadata keys' prefix: canary_l2, canary_llc, canary */
	struct buffer buf;         /* its own, allocated and first touched by the calling thread */
	size_t bytes;              /* bytes per call = the working set, one thread; 0: not sampled */
	unsigned calls;            /* calls per timed pass, so a pass stores CANARY_PASS_BYTES */
	bool warm;                 /* a cache regime's: an untimed call before each pass brings its
				    * buffer back from wherever the sweep's points pushed it (cold,
				    * the LLC canary's windows read 30-44 GB/s in quiet quick runs on
				    * the Turin guest; warmed, and after the DRAM pass, 40-61) */
	double ref;                /* the median of the samples so far: a low or high first one
				    * does not move the band (it once flagged a whole run) */
	struct canary_sample *s;   /* the series, s[0] the starting sample */
	size_t n, cap;             /* samples taken, room for */
	double *pass;              /* GB/s of the window's passes so far: the next sample's */
	size_t npass, pass_cap;    /* passes in the window, room for */
};

struct canary {
	const struct kernel *k;    /* CANARY_KERNEL from the kernel table */
	struct canary_config cfg;  /* what they were started with: CPU, fill, band, injection */
	uint64_t period_ns;        /* between two samples */
	uint64_t t0_ns, last_ns;   /* when they started and when they last sampled (mono_ns) */
	uint64_t last_tick_ns;     /* when they last took a pass, at a tick or a sample */
	uint64_t tick_ns;          /* between two ticks: CANARY_TICK_MS, or CANARY_TICK_SHARE x
				    * the last tick's time when that is longer */
	uint64_t tick_max_ns;      /* the longest tick_ns of the run: how far apart ticks were */
	size_t drift_from, drift_to; /* the middle third of the planned measurements, whose DRAM
				      * passes cfg.drift_pct bends */
	struct canary_series r[CANARY_REGIMES];
};

/* Bytes of regime's canary call under cfg, 0 when that regime is not sampled: half a thread's
 * L2 (L2), half its LLC when that is more than its L2 (LLC), 4 x its LLC share, cold's region
 * and DRAM-bound whatever the prefetchers do, at most CANARY_MAX_BYTES (DRAM). */
size_t canary_bytes(const struct canary_config *cfg, enum canary_regime regime);

/*
 * Allocate and first-touch the buffers on the calling thread (pinned to the placement's first
 * CPU: call after pool_start) and take the starting samples; measurements: how many the sweep
 * plans (--rounds x points), whose middle third --inject-drift bends.  false + err when memory
 * is short.
 */
bool canary_start(struct canary *c, const struct canary_config *cfg, size_t measurements,
		  char *err, size_t len);

/* Whether a period has passed since the last samples. */
bool canary_due(const struct canary *c);

/* Whether a tick is due: tick_ns since the last pass. */
bool canary_tick_due(const struct canary *c);

/* One pass of every regime into its window, after the sweep's first `at` measurements; false
 * when out of memory for it.  Called between groups, so a group's kernels stay back to back. */
bool canary_tick(struct canary *c, size_t at);

/* Take one more sample of every regime, after the sweep's first `at` measurements, and move each
 * ref to the median of its series; false when out of memory for it. */
bool canary_sample(struct canary *c, size_t at);

/* Whether sample i of regime's series lies outside the band around its ref: the window it
 * closes ran out of band. */
bool canary_out(const struct canary *c, enum canary_regime regime, size_t i);

/*
 * The canaries' keys as "<prefix>key=value" lines (prefix "" for the JSON context, "# " for the
 * CSV), in three parts so the CSV can be written as the sweep goes.  Settings, known once the
 * starting samples are taken: canary, canary_kernel, canary_call_bytes, canary_ws_bytes,
 * canary_threads, canary_cpu, canary_period_s, canary_tick_s, canary_band, canary_start_gbps
 * (DRAM), and <key>_call_bytes, <key>_calls, <key>_start_gbps of each cache regime sampled.
 */
void canary_settings(FILE *out, const char *prefix, const struct canary *c);

/* canary_sample=<t_s>:<GB/s> of the DRAM canary's sample i, the form of one entry of its
 * canary_series. */
void canary_sample_line(FILE *out, const char *prefix, const struct canary *c, size_t i);

/* The summary, known when the sweep ends, each cache regime's then the DRAM canary's last:
 * <key>_series (every sample as t_s:gbps, comma-joined, in time order), <key>_passes (each
 * sample's passes, in the same order), <key>_ref_gbps (their median, the band's centre) and
 * <key>_out_samples (how many are outside the band). */
void canary_summary(FILE *out, const char *prefix, const struct canary *c);

void canary_free(struct canary *c);

#endif
