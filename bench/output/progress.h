/*
 * progress.h — progress on stderr: point i of N, elapsed, ETA; one line rewritten in place on a
 * terminal, one line per point elsewhere.
 * Plain C.  The ETA weighs points by the bytes they prefill and verify, since a 1 GiB point
 * costs far more than a 4 KiB one at the same minimum time.
 */
#ifndef STOREBENCH_PROGRESS_H
#define STOREBENCH_PROGRESS_H

#include <stddef.h>

/* npoints of total_weight in each of rounds rounds. */
void progress_start(double total_weight, size_t npoints, int rounds);

/*
 * An adaptive round beyond the planned ones: npoints of total weight w, measured because
 * undecided comparison groups are; the line then says so instead of "round r/N".
 */
void progress_adaptive(size_t npoints, double w, size_t undecided);

/* Announce the i-th point (0-based) of round round (0-based), of weight w, about to run. */
void progress_point(int round, size_t i, const char *name, double w);

/* Clear the rewritten line (terminal only) before the end summary. */
void progress_end(void);

/* Seconds since progress_start. */
double progress_elapsed(void);

#endif
