/*
 * sweep_scaled.h — the sweep at every thread count with that count's sizes, and the cache each
 * point's working set lives in.  Plain C.  sweep.c enumerates one size set; this file
 * runs it once per thread count (threads stay the outer axis), so cache words mean shares.
 */
#ifndef STOREBENCH_SWEEP_SCALED_H
#define STOREBENCH_SWEEP_SCALED_H

#include <stddef.h>

#include "canary.h"
#include "opts.h"
#include "sweep.h"

/* sweep_points() over o->at[], concatenated in o->threads order; the counts are summed. */
struct point *sweep_scaled(const struct run_opts *o, size_t *n, size_t *skipped,
			   size_t *skipped_rw, size_t *rounded_split);

/* Where a point's working set lives, by its thread count's per-thread shares. */
enum regime { R_L1D, R_L2, R_L3, R_DRAM };

extern const char *const regime_name[];

/* The cache a thread's working set fits in (random offsets: beyond L1d at least), by a's shares. */
enum regime point_regime(const struct point *p, const struct scaled_axes *a);

/* The drift canary that judges a point of regime r (canary.h). */
enum canary_regime canary_regime_of(enum regime r);

/* The axes of the thread count threads (one of o->threads). */
const struct scaled_axes *axes_at(const struct run_opts *o, unsigned threads);

#endif
