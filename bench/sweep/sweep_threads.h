/*
 * sweep_threads.h — the sweep at every thread count with that count's sizes, and the cache each
 * point's working set lives in (levels.h).  Plain C.  sweep.c enumerates one size set; this file
 * runs it once per thread count (threads stay the outer axis), so cache words mean shares.
 */
#ifndef STOREBENCH_SWEEP_THREADS_H
#define STOREBENCH_SWEEP_THREADS_H

#include <stddef.h>

#include "canary.h"
#include "levels.h"
#include "run_config.h"
#include "sweep.h"

/* sweep_points() over o->at[], concatenated in o->threads order; the counts are summed. */
struct point *sweep_threads(const struct run_config *o, size_t *n, struct sweep_counts *counts);

/* A thread's shares of each cache level at a's thread count (levels.h). */
struct level_shares point_shares(const struct scaled_axes *a);

/* The level a thread's working set fits in (cold and random offsets: beyond L1d at least). */
enum level point_level(const struct point *p, const struct scaled_axes *a);

/* The level it lies well inside, LEVEL_BETWEEN between two: the CSV's ws_class. */
enum level point_class(const struct point *p, const struct scaled_axes *a);

/* The drift canary that judges a point of level l (canary.h). */
enum canary_regime canary_regime_of(enum level l);

/* The axes of the thread count threads (one of o->threads). */
const struct scaled_axes *axes_at(const struct run_config *o, unsigned threads);

#endif
