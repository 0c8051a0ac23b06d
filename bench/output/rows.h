/*
 * rows.h — a run's rows on their way to the CSV: each point's slot over the rounds, and the
 * writer that puts them out in the sweep's order and keeps both files at the same points.
 * Plain C.  A row is written once it is final: at once with one round and no canary, at the
 * canary sample after it with the canary, after the last round with rounds.
 */
#ifndef STOREBENCH_ROWS_H
#define STOREBENCH_ROWS_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "canary.h"
#include "compare.h"
#include "csv.h"
#include "measure.h"
#include "outfiles.h"
#include "quality.h"

/* A point between its first round and its row in the CSV. */
struct point_slot {
	struct point_history *hist; /* its repetitions so far (measure.c) */
	char *identity;             /* its identity columns, stamped when the sweep was built */
	struct point_stats stats;   /* its numbers over the rounds so far */
	bool measured;              /* stats hold a measurement: the point has a row */
	unsigned quality;           /* enum quality_reason bits of every round (and the canary) */
	bool remeasured;            /* some round measured it twice (quality.h) */
	bool failed;                /* a round failed verification: the row stays that round's */
	double visit_s;             /* the wall time of its last measurement, everything in:
				     * what the next costs (run_loop.c gives duels by it) */
};

/* Rows written with a quality flag, and how many carry each reason (bit b of the mask). */
struct flagged {
	size_t points;                   /* rows whose quality is not ok */
	size_t reason[QUALITY_REASONS];  /* rows with bit b set */
};

/* The CSV's rows on their way out, in the sweep's order, and what both files keep of them. */
struct rows_out {
	struct outfiles *of;       /* the two files */
	struct point_slot *slots;  /* where the rows come from */
	const struct compare *cmp; /* their ranks and paired verdicts, NULL at one round */
	size_t nslots;             /* the sweep's points, one slot each */
	off_t body;                /* the CSV's length once its header was kept: where rows start */
	size_t next;               /* the first slot not yet written */
	size_t pending;            /* rows written since the files were last kept */
	size_t done;               /* rows kept in both files */
	size_t samples;            /* canary samples written as canary_sample lines */
	struct flagged flagged;    /* the quality flags of the kept rows */
	struct flagged adding;     /* those of the pending rows */
	const char *failed;        /* the file a write failed on, NULL while all went through */
	int werr;                  /* and why */
	double timed_s;            /* seconds inside timed batches so far: the run's last metadata */
};

/*
 * The run's timed_s (seconds inside timed batches) and timed_share (of the wall time since the
 * sweep started) as key=value lines, each after prefix: what of a run measured stores, and
 * what went to prefill, verification, calibration, canaries and the rest.
 */
void rows_timing_keys(FILE *out, const char *prefix, double timed_s);

/* The one line a failed write gets: the file, why, and what is left of both files. */
int rows_write_failed(struct outfiles *of, const char *file, int err, size_t done);

/*
 * The end summary's line on flagged points: how many, and how many for each reason, e.g.
 * "3 of 27 points flagged in the quality column: shared_cpu 3, cv 1".
 */
void rows_print_flagged(const struct flagged *f, size_t done, const struct quality_limits *l);

/* The measured rows of slots [w->next, upto), kept in both files. */
bool rows_write(struct rows_out *w, size_t upto);

/*
 * With the canary, after each of its samples: the rows of slots [w->next, upto) the sample made
 * final, then a `# canary_sample` line for every sample not yet written, and at the end (last)
 * the canary's summary, all kept together — so a row is always followed by the sample that
 * judged it, and a killed run loses at most the points since the last sample.
 */
bool rows_canary(struct rows_out *w, const struct canary *c, size_t upto, bool last);

/*
 * The CSV's start, kept before the first point: the run's keys, the canary's settings (its
 * starting sample taken) and the header, then the starting sample.  Rows follow as they are final.
 */
bool rows_start(struct rows_out *w, const char *meta, const struct canary *c);

/*
 * With rounds, after each whole round and at the end (last): the CSV written again, its header
 * and every measured row with the rounds it has, then the canary's sample lines so far (and at
 * the end its summary), into a new file that replaces the old one by a rename once kept
 * (outfiles_rewrite_begin) — so a run killed outright at any moment leaves the whole CSV of the
 * rounds it finished, never a cut one.
 */
bool rows_rewrite(struct rows_out *w, const struct canary *c, bool last);

/*
 * n slots, each with the identity columns of its point of pts under o (csv_identity): the
 * sweep's part of every row, stamped once.  NULL when out of memory.
 */
struct point_slot *slots_new(const struct point *pts, size_t n, const struct run_config *o);

void slots_free(struct point_slot *slots, size_t n);

/*
 * One more sample of every canary, after the sweep's measurements [0, to), then each one's
 * verdict on the measurements of the points in its regime (regime[i], an enum canary_regime:
 * the DRAM canary judges DRAM points, the L2 one the points within a thread's L2 share; an L1
 * store loop does not slow down because memory bandwidth moved).  A measurement ran out of band
 * when the sample that closes its window (the median of the window's passes) lies outside the
 * band around the median of its canary's series so far; a point is drift when more than half of
 * its measurements did (its median then lies among them).  again:
 * every window since the first sample is judged anew against today's median (with rounds the
 * rows are written again); otherwise only the newest (at one round the rows before it are
 * written and stay).  false when out of memory for the series.
 */
bool slots_canary_step(struct canary *c, struct point_slot *slots, size_t npts,
		       const size_t *order, const unsigned char *regime, size_t to, bool again);

#endif
