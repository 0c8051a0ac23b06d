/*
 * compare.c — ranks, paired ratios and verdicts of every comparison group.
 * Plain C.  Samples are paired by the round they were taken in, not by position: a point that
 * failed verification stops being measured, and its partners' later rounds have no pair.
 */
#include "compare.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "measure.h"
#include "stats.h"

const char *const verdict_name[] = {
	[VERDICT_NONE] = "", [VERDICT_DECIDED] = "decided", [VERDICT_TIE] = "tie",
	[VERDICT_UNDECIDED] = "undecided",
};

bool compare_init(struct compare *c, const struct point *pts, const struct groups *g,
		  double band)
{
	*c = (struct compare){ .pts = pts, .g = g, .band = band };
	c->pt = calloc(g->npoints ? g->npoints : 1, sizeof *c->pt);
	c->leader = calloc(g->ngroups ? g->ngroups : 1, sizeof *c->leader);
	c->answer = calloc(g->ngroups ? g->ngroups : 1, sizeof *c->answer);
	if (!c->pt || !c->leader || !c->answer) {
		compare_free(c);
		return false;
	}
	return true;
}

void compare_free(struct compare *c)
{
	free(c->pt);
	free(c->leader);
	free(c->answer);
	c->pt = NULL;
	c->leader = NULL;
	c->answer = NULL;
}

enum verdict compare_verdict(double lo, double hi, double band)
{
	if (isnan(lo) || isnan(hi))
		return VERDICT_UNDECIDED;
	if (lo > 1 + band || hi < 1 - band)
		return VERDICT_DECIDED;
	if (lo >= 1 - band && hi <= 1 + band)
		return VERDICT_TIE;
	return VERDICT_UNDECIDED;
}

/* a against b over the rounds both have; tmp holds the shorter history's samples. */
static struct pair pair_of(const struct point_history *a, const struct point_history *b,
			   size_t other, double band, double *tmp)
{
	struct pair p = { .other = other, .lo = NAN, .hi = NAN };
	int i = 0, j = 0, n = 0;

	while (i < a->nsample && j < b->nsample) {
		if (a->sample_round[i] < b->sample_round[j]) {
			i++;
		} else if (a->sample_round[i] > b->sample_round[j]) {
			j++;
		} else {
			if (b->sample[j] > 0)
				tmp[n++] = a->sample[i] / b->sample[j];
			i++;
			j++;
		}
	}
	p.n = n;
	if (!n) {
		p.ratio = NAN;
		p.verdict = VERDICT_UNDECIDED;
		return p;
	}
	stats_median_ci(tmp, (size_t)n, MEDIAN_CI_LEVEL, &p.ratio, &p.lo, &p.hi);
	p.verdict = compare_verdict(p.lo, p.hi, band);
	return p;
}

static const struct compare *sort_c; /* qsort has no context argument in C11 */

/* Faster first; equal medians in the sweep's order, so a rank never depends on qsort. */
static int by_median(const void *a, const void *b)
{
	size_t i = *(const size_t *)a, j = *(const size_t *)b;
	double x = sort_c->pt[i].median, y = sort_c->pt[j].median;

	if (x != y)
		return x < y ? 1 : -1;
	return (i > j) - (i < j);
}

/*
 * Medians are taken at different moments, paired ratios round by round: where they disagree the
 * pair decides, so no kernel is ranked above one it is slower than in the rounds they shared
 * (every vs_next ratio is at least 1).  Adjacent swaps, at most n passes: the order settles even
 * where three kernels' ratios go round in a circle.
 */
static void settle_order(size_t *rank, size_t n, const struct point_history *const *hist,
			 double *tmp)
{
	bool swapped = true;

	for (size_t pass = 0; swapped && pass < n; pass++) {
		swapped = false;
		for (size_t r = 0; r + 1 < n; r++) {
			struct pair p = pair_of(hist[rank[r]], hist[rank[r + 1]], 0, 0, tmp);

			if (p.n && p.ratio < 1) {
				size_t t = rank[r];

				rank[r] = rank[r + 1];
				rank[r + 1] = t;
				swapped = true;
			}
		}
	}
}

/* The median of a point's samples: what it is ranked by. */
static double median_of(const struct point_history *h, double *tmp)
{
	int n = point_history_samples(h, MEASURE_COUNTER_GBPS, tmp);

	return n ? stats_median(tmp, (size_t)n) : NAN;
}

static enum verdict answer_of(const struct compare *c, size_t leader, size_t ranked)
{
	const struct compare_point *l = &c->pt[leader];
	enum verdict next = l->next.verdict, base = l->memset.verdict;

	if (ranked < 2)
		return VERDICT_NONE;
	if (!c->paired)
		return VERDICT_UNDECIDED;
	if (next == VERDICT_UNDECIDED || base == VERDICT_UNDECIDED)
		return VERDICT_UNDECIDED;
	return next == VERDICT_TIE ? VERDICT_TIE : VERDICT_DECIDED;
}

bool compare_update(struct compare *c, const struct point_history *const *hist, bool paired)
{
	const struct groups *g = c->g;
	size_t *rank = malloc((g->npoints ? g->npoints : 1) * sizeof *rank);
	size_t cap = 1;
	double *tmp;

	for (size_t i = 0; i < g->npoints; i++)
		if (hist[i] && hist[i]->nrep > (int)cap)
			cap = (size_t)hist[i]->nrep;
	tmp = malloc(cap * sizeof *tmp);
	if (!rank || !tmp) {
		free(rank);
		free(tmp);
		return false;
	}
	c->paired = paired;
	memset(c->count, 0, sizeof c->count);
	for (size_t k = 0; k < g->ngroups; k++) {
		size_t n = 0, base = (size_t)-1;

		for (size_t m = g->start[k]; m < g->start[k + 1]; m++) {
			size_t i = g->member[m];

			c->pt[i] = (struct compare_point){ .median = NAN };
			if (hist[i] && hist[i]->nrep)
				c->pt[i].median = median_of(hist[i], tmp);
			if (!isnan(c->pt[i].median))
				rank[n++] = i;
		}
		sort_c = c;
		qsort(rank, n, sizeof *rank, by_median);
		if (paired)
			settle_order(rank, n, hist, tmp);
		for (size_t r = 0; r < n; r++) {
			c->pt[rank[r]].rank = (unsigned)r + 1;
			if (!strcmp(c->pts[rank[r]].k->name, COMPARE_BASELINE))
				base = rank[r];
		}
		for (size_t r = 0; paired && r < n; r++) {
			struct compare_point *p = &c->pt[rank[r]];
			const struct point_history *h = hist[rank[r]];

			if (r + 1 < n)
				p->next = pair_of(h, hist[rank[r + 1]], rank[r + 1], c->band, tmp);
			if (base != (size_t)-1 && base != rank[r])
				p->memset = pair_of(h, hist[base], base, c->band, tmp);
		}
		c->leader[k] = n ? rank[0] : (size_t)-1;
		c->answer[k] = n ? answer_of(c, rank[0], n) : VERDICT_NONE;
		c->count[c->answer[k]]++;
	}
	free(rank);
	free(tmp);
	return true;
}
