/*
 * signed_rank.c — the signed-rank null distribution, its tails and the Hodges–Lehmann interval.
 * Plain C.  Under the null every subset of the ranks 1..n is equally likely to be the positive
 * one, so P(W+ = w) is the count of subsets summing to w over 2^n: one pass per rank, halving as
 * it goes, so no count overflows.
 */
#include "signed_rank.h"

#include <math.h>
#include <stdlib.h>

#include "stats.h"

/* P(W+ = w) for w = 0..n (n + 1) / 2, n ranks; NULL when out of memory. */
static double *null_distribution(size_t n)
{
	size_t top = n * (n + 1) / 2;
	double *p = calloc(top + 1, sizeof *p);

	if (!p)
		return NULL;
	p[0] = 1;
	for (size_t k = 1; k <= n; k++)
		for (size_t w = k * (k + 1) / 2; ; w--) {
			p[w] = (p[w] + (w >= k ? p[w - k] : 0)) / 2;
			if (!w)
				break;
		}
	return p;
}

/* P(Z <= z) for the standard normal. */
static double normal_cdf(double z)
{
	return 0.5 * erfc(-z / sqrt(2));
}

double signed_rank_normal_quantile(double q)
{
	double lo = -40, hi = 40;

	for (int i = 0; i < 200; i++) {
		double mid = (lo + hi) / 2;

		if (normal_cdf(mid) < q)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

/* P(W+ <= w) for n ranks, from the exact distribution p (NULL: the normal approximation). */
static double lower_tail(const double *p, size_t n, double w)
{
	double mean = (double)n * (double)(n + 1) / 4;
	double sd = sqrt((double)n * (double)(n + 1) * (double)(2 * n + 1) / 24);
	double sum = 0;

	if (w < 0)
		return 0;
	if (!p)
		return normal_cdf((w + 0.5 - mean) / sd);
	for (size_t v = 0; v <= (size_t)w && v <= n * (n + 1) / 2; v++)
		sum += p[v];
	return sum > 1 ? 1 : sum;
}

struct ranked {
	double size;   /* |d - c| */
	bool positive; /* d > c */
};

static int by_size(const void *a, const void *b)
{
	double x = ((const struct ranked *)a)->size, y = ((const struct ranked *)b)->size;

	return (x > y) - (x < y);
}

bool signed_rank_p(const double *d, size_t n, double c, double *above, double *below)
{
	struct ranked *r = malloc((n ? n : 1) * sizeof *r);
	double w = 0, *p = NULL;
	size_t m = 0;

	if (!r)
		return false;
	for (size_t i = 0; i < n; i++)
		if (d[i] != c && !isnan(d[i]))
			r[m++] = (struct ranked){ fabs(d[i] - c), d[i] > c };
	*above = *below = 1;
	if (!m) {
		free(r);
		return true;
	}
	qsort(r, m, sizeof *r, by_size);
	/* tied sizes share the mean of the ranks they span */
	for (size_t i = 0, j; i < m; i = j) {
		for (j = i + 1; j < m && r[j].size == r[i].size; j++)
			;
		for (size_t k = i; k < j; k++)
			w += r[k].positive ? (double)(i + 1 + j) / 2 : 0;
	}
	free(r);
	if (m <= SIGNED_RANK_EXACT_MAX && !(p = null_distribution(m)))
		return false;
	/* a mid-rank sum between two integers is read at the side that gives the larger p */
	*below = lower_tail(p, m, ceil(w));
	*above = 1 - lower_tail(p, m, floor(w) - 1);
	free(p);
	return true;
}

bool signed_rank_hl(const double *d, size_t n, double level, double *est, double *lo,
		    double *hi)
{
	size_t nw = n * (n + 1) / 2, k = 0;
	double *walsh, *p = NULL, tail = (1 - level) / 2;

	*lo = *hi = NAN;
	if (!n)
		return false;
	walsh = malloc(nw * sizeof *walsh);
	if (!walsh || (n <= SIGNED_RANK_EXACT_MAX && !(p = null_distribution(n)))) {
		free(walsh);
		return false;
	}
	for (size_t i = 0; i < n; i++)
		for (size_t j = i; j < n; j++)
			walsh[k++] = (d[i] + d[j]) / 2;
	*est = stats_median_select(walsh, nw); /* three selections, not a sort of n^2 / 2 */
	if (p) {
		/* t - 1: the largest C with P(W+ <= C) <= tail; the interval drops C Walsh means
		 * at each end: [W(C + 1), W(M - C)] */
		size_t t = 0;
		double cum = p[0];

		while (t < nw && cum <= tail)
			cum += p[++t];
		if (t > 0 && t <= nw / 2) {
			*lo = stats_select(walsh, nw, t - 1);
			*hi = stats_select(walsh, nw, nw - t);
		}
	} else {
		double mean = (double)nw / 2;
		double sd = sqrt((double)n * (double)(n + 1) * (double)(2 * n + 1) / 24);
		double t = floor(mean + signed_rank_normal_quantile(tail) * sd - 0.5) + 1;

		if (t >= 1 && t <= (double)(nw / 2)) {
			*lo = stats_select(walsh, nw, (size_t)t - 1);
			*hi = stats_select(walsh, nw, nw - (size_t)t);
		}
	}
	free(p);
	free(walsh);
	return true;
}
