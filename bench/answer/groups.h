/*
 * groups.h — the sweep's comparison groups: the points that differ only in their kernel.
 * Plain C.  The kernels of a group compete at one call size, working set, thread count, mix,
 * misalignment and placement, so they are the ones measured back to back in a round and the ones
 * whose paired ratios decide a winner (compare.h).
 */
#ifndef STOREBENCH_GROUPS_H
#define STOREBENCH_GROUPS_H

#include <stdbool.h>
#include <stddef.h>

#include "point.h"

struct groups {
	size_t npoints; /* points of the sweep */
	size_t ngroups; /* comparison groups, numbered in the order their first point comes */
	size_t *group;  /* group[i]: the group of point i */
	size_t *member; /* every group's points, group by group, each group in the sweep's order */
	size_t *start;  /* group g is member[start[g] .. start[g + 1]); ngroups + 1 entries */
};

/*
 * Group pts[0..n): two points share a group when their names agree after the kernel (the name
 * spells every axis of a point, point.h).  false when out of memory.
 */
bool groups_init(struct groups *g, const struct point *pts, size_t n);

void groups_free(struct groups *g);

#endif
