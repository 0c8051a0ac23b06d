/*
 * groups.c — comparison groups from the points' names.
 * Plain C.  Sorting by the name's shape makes grouping n log n: a full sweep has ten thousand
 * points, and comparing each with each would cost more than planning it.
 */
#include "groups.h"

#include <stdlib.h>
#include <string.h>

/* Everything of a name after its kernel: the point's shape, shared by its group. */
static const char *shape_of(const struct point *p)
{
	const char *slash = strchr(p->name, '/');

	return slash ? slash : "";
}

static const struct point *sort_pts; /* qsort has no context argument in C11 */

static int by_shape(const void *a, const void *b)
{
	size_t i = *(const size_t *)a, j = *(const size_t *)b;
	int c = strcmp(shape_of(&sort_pts[i]), shape_of(&sort_pts[j]));

	return c ? c : (i > j) - (i < j);
}

static int by_first(const void *a, const void *b)
{
	const size_t *x = a, *y = b; /* {first point, run start} pairs */

	return (x[0] > y[0]) - (x[0] < y[0]);
}

bool groups_init(struct groups *g, const struct point *pts, size_t n)
{
	size_t *idx = malloc((n ? n : 1) * sizeof *idx);
	size_t *runs = malloc((n ? n : 1) * 2 * sizeof *runs), nruns = 0;

	*g = (struct groups){ .npoints = n };
	g->group = malloc((n ? n : 1) * sizeof *g->group);
	g->member = malloc((n ? n : 1) * sizeof *g->member);
	g->start = malloc((n + 1) * sizeof *g->start);
	if (!idx || !runs || !g->group || !g->member || !g->start) {
		free(idx);
		free(runs);
		groups_free(g);
		return false;
	}
	for (size_t i = 0; i < n; i++)
		idx[i] = i;
	sort_pts = pts;
	qsort(idx, n, sizeof *idx, by_shape);
	/* runs of one shape, each with its first point (the smallest index, sorted first) */
	for (size_t k = 0; k < n; k++)
		if (!k || strcmp(shape_of(&pts[idx[k]]), shape_of(&pts[idx[k - 1]]))) {
			runs[2 * nruns] = idx[k];
			runs[2 * nruns++ + 1] = k;
		}
	qsort(runs, nruns, 2 * sizeof *runs, by_first);
	for (size_t r = 0, m = 0; r < nruns; r++) {
		g->start[r] = m;
		for (size_t k = runs[2 * r + 1];
		     k < n && !strcmp(shape_of(&pts[idx[k]]), shape_of(&pts[runs[2 * r]])); k++) {
			g->member[m++] = idx[k];
			g->group[idx[k]] = r;
		}
	}
	g->ngroups = nruns;
	g->start[nruns] = n;
	free(idx);
	free(runs);
	return true;
}

void groups_free(struct groups *g)
{
	free(g->group);
	free(g->member);
	free(g->start);
	*g = (struct groups){ 0 };
}
