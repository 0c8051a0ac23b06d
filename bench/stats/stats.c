/*
 * stats.c — the median, its order-statistic interval, the comparison of doubles.
 * Plain C.  The binomial tail is summed in logarithms, so a thousand rounds do not underflow.
 */
#include "stats.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>

int stats_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* P(Binomial(n, 1/2) <= j). */
static double binom_half_cdf(size_t n, size_t j)
{
	double sum = 0, log_half_n = (double)n * log(0.5);

	for (size_t i = 0; i <= j && i <= n; i++)
		sum += exp(lgamma((double)n + 1) - lgamma((double)i + 1) -
			   lgamma((double)(n - i) + 1) + log_half_n);
	return sum;
}

bool stats_median_ci_ranks(size_t n, double level, size_t *lo, size_t *hi)
{
	size_t k = 0;

	/* the largest k (1-based rank from each end) whose pair still covers level */
	while (k + 1 <= (n + 1) / 2 && 1 - 2 * binom_half_cdf(n, k) >= level)
		k++;
	if (!k)
		return false;
	*lo = k - 1;
	*hi = n - k;
	return true;
}

double stats_median(double *x, size_t n)
{
	if (!n)
		return NAN;
	qsort(x, n, sizeof *x, stats_cmp_double);
	return n % 2 ? x[n / 2] : (x[n / 2 - 1] + x[n / 2]) / 2;
}

double stats_select(double *x, size_t n, size_t k)
{
	ptrdiff_t lo = 0, hi = (ptrdiff_t)n - 1, at = (ptrdiff_t)k;

	/* Wirth's selection: partition about x[k] until [lo, hi] closes on k */
	while (lo < hi) {
		double pivot = x[at], t;
		ptrdiff_t i = lo, j = hi;

		do {
			while (x[i] < pivot)
				i++;
			while (pivot < x[j])
				j--;
			if (i <= j) {
				t = x[i];
				x[i++] = x[j];
				x[j--] = t;
			}
		} while (i <= j);
		if (j < at)
			lo = i;
		if (at < i)
			hi = j;
	}
	return x[k];
}

double stats_median_select(double *x, size_t n)
{
	double upper, lower;

	if (!n)
		return NAN;
	upper = stats_select(x, n, n / 2);
	if (n % 2)
		return upper;
	/* x[0, n/2) holds the lower half: its largest is the other middle value */
	lower = x[0];
	for (size_t i = 1; i < n / 2; i++)
		if (x[i] > lower)
			lower = x[i];
	return (lower + upper) / 2;
}

bool stats_median_ci(double *x, size_t n, double level, double *median, double *lo, double *hi)
{
	size_t a, b;

	*median = stats_median(x, n);
	if (!stats_median_ci_ranks(n, level, &a, &b))
		return false;
	*lo = x[a];
	*hi = x[b];
	return true;
}

double stats_lag1(const double *x, size_t n)
{
	double mean = 0, num = 0, den = 0, size = 0;

	if (n < 3)
		return NAN;
	for (size_t i = 0; i < n; i++)
		mean += x[i] / (double)n;
	for (size_t i = 0; i < n; i++) {
		den += (x[i] - mean) * (x[i] - mean);
		size += x[i] * x[i];
		if (i)
			num += (x[i] - mean) * (x[i - 1] - mean);
	}
	/* equal values leave a spread of rounding errors only, which correlate with nothing */
	return den > 1e-24 * (size > 1 ? size : 1) ? num / den : NAN;
}

size_t stats_batch_pairs(double *x, size_t n)
{
	for (size_t i = 0; i + 1 < n; i += 2)
		x[i / 2] = (x[i] + x[i + 1]) / 2;
	return n / 2;
}
