/*
 * gbench_shim.h — the C interface to Google Benchmark (implemented in gbench_shim.cc), C header.
 * Points run one at a time so the C side keeps control (progress, Ctrl-C, verification), while one
 * console and one JSON reporter live across points: the JSON is one document, as compare.py wants.
 */
#ifndef STOREBENCH_GBENCH_SHIM_H
#define STOREBENCH_GBENCH_SHIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * One counter of a run, named by its index into the point's counter_names: the C side never
 * compares names; only the shim turns ids into Google Benchmark's counters, which it keys by name.
 */
struct gbs_counter {
	unsigned id;  /* index into gbs_point.counter_names */
	double value; /* of the repetition, or of the aggregate */
};

/* The most counters a point may name: the shim's per-run arrays hold this many. */
#define GBS_MAX_COUNTERS 8

/* One benchmark: a name and callbacks into the C harness. */
struct gbs_point {
	const char *name;
	const char *const *counter_names; /* by id, as the console and the JSON show them */
	size_t ncounters;                  /* ids in counter_names, at most GBS_MAX_COUNTERS */
	double min_time;  /* seconds per repetition; <= 0 leaves Google Benchmark's setting */
	int repetitions;  /* <= 0 leaves Google Benchmark's setting (--benchmark_repetitions) */
	/*
	 * Google Benchmark iterations one batch stands for (calls per thread): reported times are
	 * then per call, so runs whose calibration chose different batch sizes still compare.
	 */
	int64_t batch_iterations;
	/*
	 * > 0: exactly this many iterations per repetition (a multiple of batch_iterations), no
	 * search for the count; a later round reuses what the first one found.  <= 0: Google
	 * Benchmark grows the count until a run lasts min_time.
	 */
	int64_t iterations;
	void *ctx;
	void (*begin)(void *ctx);   /* before every run (calibration runs and repetitions) */
	double (*batch)(void *ctx); /* one timed batch; returns its makespan in seconds */
	/* after every run: fill out[] (each id once, below ncounters) and return how many */
	size_t (*end)(void *ctx, struct gbs_counter *out);
};

/* One run as reported: a repetition (aggregate "") or an aggregate ("median", "min", ...). */
struct gbs_run {
	const char *name;
	const char *aggregate;
	int64_t repetitions; /* of the point, as Google Benchmark planned them */
	int64_t iterations; /* batches x batch_iterations */
	double seconds;     /* manual time per iteration, i.e. per call (repetitions only) */
	size_t ncounters;
	const struct gbs_counter *counters; /* those of the point's counters the run reported */
};

typedef void (*gbs_report_fn)(void *ctx, const struct gbs_run *run);

/*
 * Hand Google Benchmark its flags (--benchmark_*, --v=N: nflags of them, as the command line
 * gave them).  Returns false (after one stderr line) when one is unknown or malformed.
 */
bool gbs_init(const char *const *flags, int nflags);

/* Whether name passes --benchmark_filter (regex, '-' prefix negates). */
bool gbs_filter_match(const char *name);

/* A key=value for the JSON "context" object; call before gbs_open. */
void gbs_context(const char *key, const char *value);

/*
 * Start the JSON reporter on json_fd (the empty file outfiles.c created; never reopened by name)
 * and, if console, Google Benchmark's console table on stdout (--benchmark_format/_color);
 * name_width aligns the table.
 */
void gbs_open(int json_fd, bool console, size_t name_width);

/*
 * Hold the JSON document in memory (its context and every point emitted) until gbs_close, so
 * context keys known only when the sweep ends (the drift canary's series) still reach it.
 */
void gbs_hold(void);

/*
 * Flush and fsync the JSON: every point reported so far is kept.  0, or the errno of a failure.
 * While held it writes nothing and only marks those points kept: gbs_close writes them.
 */
int gbs_keep(void);

/*
 * Register, run and forget one point; report() sees every run at once, the console and the JSON
 * only at gbs_emit.  Returns the runs reported.
 */
size_t gbs_run_point(const struct gbs_point *pt, gbs_report_fn report, void *ctx);

/* Show and write the runs of the last gbs_run_point (keep), or drop them (an attempt measured
 * again); gbs_keep then makes the kept ones durable. */
void gbs_emit(bool keep);

/*
 * Finish the JSON document after the last kept point (anything reported after it is cut, so
 * both files hold the same points) and fsync it; a held document is written now, its context
 * with every gbs_context so far.  0, or the errno of a failure.  The caller closes the descriptor.
 */
int gbs_close(void);

#ifdef __cplusplus
}
#endif

#endif
