/*
 * run_loop.h — the run stage: the sweep's points measured round after round in the rounds'
 * order, the answer judged after every round, and the contest rounds of the open kernels while
 * --budget allows.
 * Plain C.  cli/cmd_run.c validates, creates the files and builds what struct run_mem holds;
 * this stage measures, keeps every row final as soon as it is (output/rows.h) and leaves the
 * winner sets in mem->cmp for the console answer.
 */
#ifndef STOREBENCH_RUN_LOOP_H
#define STOREBENCH_RUN_LOOP_H

#include <stddef.h>
#include <stdint.h>

#include "canary.h"
#include "compare.h"
#include "groups.h"
#include "measure.h"
#include "rows.h"
#include "run_config.h"

/* What a run allocates (cli/cmd_run.c fills it), freed by run_mem_free whichever way the run
 * ends. */
struct run_mem {
	struct point *pts;        /* the sweep */
	size_t npts;              /* its points */
	struct groups groups;     /* the sweep's comparison groups */
	struct compare cmp;       /* their ranks and paired verdicts, updated after every round */
	size_t *order;            /* the measuring order: indices into pts, round after round */
	size_t norder;            /* entries of order: rounds x npts, plus the adaptive rounds' */
	uint64_t rng;             /* where the adaptive rounds go on drawing their order */
	unsigned char *regime;    /* per point: the enum canary_regime of the canary judging it */
	struct point_slot *slots; /* npts of them, each with its point's identity columns */
	char *meta;               /* the run's metadata, until the preamble is written */
	struct canary canary;     /* the drift canary, when --canary on */
	double timed_s;           /* seconds inside timed batches, over every measurement so far */
};

/*
 * The sweep proper: round after round, every measurement in mem->order, each row out as soon as
 * it is final, the canary sampled when due and once more at the end; with rounds, the groups
 * judged after each round, and contest rounds while --budget allows.  Stops early on a signal,
 * a failed write (w->failed) or memory running out.  Returns 0, or 1 when a point failed its
 * verification or memory ran out.
 */
int run_loop(struct measure_env *env, struct run_mem *mem, struct rows_out *w,
	     const struct run_config *o);

/* Everything mem holds; mem may be partly filled. */
void run_mem_free(struct run_mem *mem);

#endif
