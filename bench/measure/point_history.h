/*
 * point_history.h — every repetition one point got over the rounds, and their statistics.
 * Plain C.  With --rounds a point is measured several times in one run; its row gives the
 * statistics over all of them, computed as Google Benchmark computes its aggregates, so a row of
 * one round and a row of many read alike.
 */
#ifndef STOREBENCH_POINT_HISTORY_H
#define STOREBENCH_POINT_HISTORY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gbench_shim.h"

/* The statistics of one counter over the repetitions. */
struct rep_stat {
	double median, mean, min, max; /* the median of an even count is the mean of the middle two */
	double cv;                     /* sample standard deviation over the mean */
	bool have_cv;                  /* two repetitions or more, and a mean that is not 0 */
};

struct point_history {
	double *v;    /* nrep rows of width values, NAN where a counter was not reported */
	int width;    /* counters per row: their ids run from 0 to width - 1 */
	int nrep;     /* rows stored; the caller may cut it back to drop a re-measured attempt */
	int cap;      /* rows allocated */
	int rounds;   /* rounds that measured the point */
	bool failed;  /* a row could not be stored (out of memory): the statistics lack it */
	/* one sample per round, the unit of the intervals and of the paired comparisons */
	double *sample;    /* GB/s of each round: the median of that round's repetitions */
	int *sample_round; /* the run's round each sample was taken in (pairs kernels' samples) */
	double *sample_skew; /* each round's median start skew share, NAN where not measured */
	int nsample;       /* samples stored */
	int sample_cap;    /* samples allocated */
	/* the paired trials of the point's victim or chase (victim.h), over every round */
	double *trial;     /* ntrial rows of TRIAL_WIDTH: idle ns, loaded ns, writers' GB/s,
			    * resident (warm) ns */
	int ntrial;        /* trials stored */
	int trial_cap;     /* trials allocated */
	/* what the first round learned, so later rounds skip the search (measure.c) */
	uint64_t passes;     /* plan passes per timed batch, as calibrated; 0 until then */
	int64_t iterations;  /* Google Benchmark iterations per repetition it settled on */
};

/* Values per trial row: the idle and loaded times, the writers' GB/s and the resident time
 * (NAN: not measured). */
#define TRIAL_WIDTH 4

/* An empty history of rows of width counters; NULL when out of memory. */
struct point_history *point_history_new(int width);

void point_history_free(struct point_history *h);

/* One repetition's n counters as a new row; false (and h->failed) when out of memory. */
bool point_history_add(struct point_history *h, const struct gbs_counter *c, size_t n);

/*
 * Close a round: the median of counter k over rows [first, nrep) becomes the sample of round
 * round, skew its start skew share (NAN: none).  false (and h->failed) when out of memory or no
 * row of the round has k.
 */
bool point_history_end_round(struct point_history *h, int k, int first, int round, double skew);

/* The median (median) or the largest of the rounds' start skew shares; NAN when no round
 * measured one. */
double point_history_skew(const struct point_history *h, bool median);

/*
 * The values an interval rests on: the round samples when two rounds or more measured the point,
 * else counter k of every repetition (one round's repetitions are all it has).  Copies them into
 * out (room for h->nrep values) and returns how many.
 */
int point_history_samples(const struct point_history *h, int k, double *out);

/* One paired trial; false (and h->failed) when out of memory. */
bool point_history_add_trial(struct point_history *h, double idle, double loaded, double gbps,
			     double warm);

/* Counter k's value in repetition i, NAN when that repetition did not report it. */
double point_history_value(const struct point_history *h, int i, int k);

/* Counter k's statistics over every row; tmp holds h->nrep values.  False when no row has k. */
bool point_history_stat(const struct point_history *h, int k, double *tmp, struct rep_stat *s);

#endif
