/*
 * run_config.h — the options of `storebench run`, after presets and cache-relative sizes are
 * resolved.  Plain C.  Everything a sweep needs is decided here, before any file is created or byte
 * allocated, so bad input can always exit 2 with nothing left behind.
 */
#ifndef STOREBENCH_RUN_CONFIG_H
#define STOREBENCH_RUN_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "buffer.h"
#include "cmdline.h"
#include "cpu.h"
#include "load.h"
#include "machine.h"
#include "options.h"
#include "placement.h"
#include "plan.h"
#include "quality.h"
#include "rw.h"
#include "cache_words.h"
#include "select.h"
#include "size_dist.h"
#include "sizes.h"
#include "victim.h"

struct ws_item {
	enum ws_mode mode;
	unsigned long long bytes; /* WS_SEQ/WS_RANDOM only; cold derives its size from the LLC */
};

/* One element of --victim: who is measured beside the writers, over how many bytes. */
struct victim_item {
	enum victim_mode mode;
	unsigned long long bytes; /* whole 64-byte lines; 0 for none */
};

/* The size axes at one thread count: cache words are that count's per-thread shares
 * (cache_words.h). */
struct scaled_axes {
	unsigned threads;
	struct thread_set ts;		/* where they run: the placement's first threads CPUs */
	struct size_word words[SW_COUNT]; /* each word's bytes per thread at this count */
	struct level_source levels;	/* whether they are the reported or the measured levels */
	struct u64_list call;		/* --call evaluated with these words */
	struct ws_item *ws;		/* --ws likewise, nws of them */
	size_t nws;
	struct u64_list chunk;		/* --chunk likewise */
	unsigned long long cold_bytes;	/* cold's region: 4 x this count's LLC share */
	struct victim_item *victim;	/* --victim likewise, nvictim of them */
	size_t nvictim;
};

/* Calls of a distribution's sizes a thread makes per pass, each at its own random offset: the
 * same draws for every kernel and thread count, so their points compare call for call. */
#define DIST_CALLS 65536

struct run_config {
	const char *preset;
	const char *kernels_spec;
	const char *call_spec, *ws_spec, *threads_spec, *misalign_spec;
	const char *rw_spec, *rw_mode_spec, *rw_layout_spec, *chunk_spec, *victim_spec;
	struct selection sel;
	struct u64_list call;        /* bytes per kernel call */
	char *call_sizes_spec;       /* --call without its dist: elements ("" when it has none) */
	struct size_dist *dists;     /* --call's dist: elements, after its sizes on the call axis */
	uint64_t **dist_draws;       /* each one's DIST_CALLS sizes, drawn once from --seed */
	size_t ndists;
	size_t nws;
	struct ws_item *ws;
	struct u64_list threads;
	struct u64_list misalign;
	struct rw_ratio rw[RW_MAX_RATIOS]; /* percent written, an axis; 100 = store only */
	size_t nrw;
	enum rw_mode rw_mode[2];     /* an axis: interleave and/or split, in the order given */
	size_t nrw_mode;
	enum rw_layout rw_layout[2]; /* an axis of interleave points */
	size_t nrw_layout;
	struct u64_list chunk;       /* bytes per read or write call below rw 100 */
	struct victim_item *victim;  /* an axis of store points: what runs beside the writers */
	size_t nvictim;
	const char *victim_delay_spec;
	struct u64_list victim_delay; /* an axis of chases: ns a writer waits after each pass */
	const struct load_kernel *load; /* the one read kernel of the run */
	struct placement placement;
	struct membind bind;
	char membind_name[32];
	enum page_policy pages;
	unsigned fill, prefill;
	int repetitions;             /* 0: Google Benchmark decides (--benchmark_repetitions) */
	double min_time;             /* seconds; 0: Google Benchmark decides */
	double slowdown_pct;         /* --inject-slowdown */
	const char *slowed_spec;     /* --inject-slowdown-kernels, NULL: every kernel is slowed */
	struct selection slowed;     /* the kernels it names (empty when slowed_spec is NULL) */
	double stall_ms;             /* --inject-stall: the first point's calibrations stall */
	double skew_us;              /* --inject-skew: the last thread of a batch starts this late */
	double drift_pct;            /* --inject-drift: the canary's middle third is this % slower */
	struct quality_limits quality; /* --profile and the thresholds of the quality flags */
	int rounds;                  /* --rounds: each measures every point once (rounds.h) */
	unsigned long long seed;     /* --seed: the rounds' shuffle (from the clock by default) */
	double budget_s;             /* --budget: adaptive rounds until then, 0 = none */
	double tie_band;             /* --tie-band: a paired ratio within 1 +- this is a tie */
	bool canary;                 /* --canary on: the drift canary runs (canary.h) */
	double canary_period_s;      /* --canary-period: seconds of sweep between samples */
	const char *csv, *json, *machine;
	unsigned long long cold_bytes; /* working set of "cold" at 1 thread (metadata) */
	unsigned long long l2_bytes;   /* one thread's L2 and LLC (0: unknown), the sizes of the */
	unsigned long long llc_bytes;  /* drift canaries of the cache regimes (canary.h) */
	struct scaled_axes *at;      /* the sizes at each thread count, in o->threads order */
	const struct topology *topo; /* the machine planned for (this one, or replayed) */
	const char *levels_spec;     /* --levels as given: auto, measure, reported or a file */
	const struct levels_file *levels; /* the machine's measured levels (may hold none) */
	bool dry_run;                /* --dry-run: print the plan, measure nothing */
	bool verbose;                /* --verbose: Google Benchmark's console table on stdout too */
};

/*
 * The run's settings from the command line cl for machine m (its topology places the threads;
 * keep m and cl alive while o is used).  Returns 0 on success, 2 after one stderr line on bad
 * input.
 */
int run_config_parse(const struct cmdline *cl, const struct machine *m, struct run_config *o);

/*
 * The options cl would give without its option skip, the rest as given: what that option's
 * setting is by default in this run (the preset's or the option's default, or derived from the
 * rest; skip OPT_COUNT: none, as run_config_parse).  Returns run_config_parse's codes; o is
 * run_config_free'd like any other.
 */
int run_config_parse_without(const struct cmdline *cl, const struct machine *m,
			     enum option_id skip, struct run_config *o);

/* Release what run_config_parse allocated. */
void run_config_free(struct run_config *o);

#endif
