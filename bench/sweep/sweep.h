/*
 * sweep.h — the list of points a run measures, in the order it measures them.
 * Plain C.  Points are enumerated before anything runs, so the progress line knows N, the memory
 * check knows the largest buffer, and --benchmark_filter is applied once.
 */
#ifndef STOREBENCH_SWEEP_H
#define STOREBENCH_SWEEP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "run_config.h"
#include "point.h"

/*
 * Most combinations of the axes one sweep may have (before skips and the filter), at all thread
 * counts together; a larger sweep is bad input (exit 2) refused before anything is allocated.
 */
#define SWEEP_MAX_COMBINATIONS 1000000

/* The product of o's axis lengths (every combination); false if it overflows size_t. */
bool sweep_combinations(const struct run_config *o, size_t *n);

/* The options of the axes in the order of the walk, "--threads, --ws, ... and --kernels". */
char *sweep_axis_options(char *buf, size_t len);

/* What enumerating a sweep dropped or changed, said once the files exist. */
struct sweep_counts {
	size_t skipped;        /* combinations whose call exceeds an explicit working set */
	size_t skipped_rw;     /* read/write combinations that cannot be: cold/random working
				* sets; split at 1 thread when interleave is also asked for */
	size_t rounded_split;  /* split points whose ratio whole threads rounded (they carry the
				* ratio really measured; one asked for twice that way is measured
				* once) */
	size_t skipped_victim; /* victims without a free core of their kind, or beside a mix */
	size_t skipped_size;   /* compile-time-size kernels at a call size they were not built for */
};

/*
 * The points of o that pass the benchmark filter, in the order of one walk over the axes:
 * threads, then working set, then call size, then misalignment, then rw ratio, mode, layout and
 * chunk, then victim and its delay, then kernel, so buffers grow monotonically and are reused
 * across kernels.  Rules drop the combinations that are no point, counted into *counts.
 * Returns NULL after one stderr line when the options cannot be measured (a chunk larger than a
 * region, split with one thread only).
 */
struct point *sweep_points(const struct run_config *o, size_t *n, struct sweep_counts *counts);

#endif
