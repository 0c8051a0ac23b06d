/*
 * stats.h — the statistics every stage shares: the median, its distribution-free confidence
 * interval from order statistics, and the comparison qsort sorts doubles with.
 * Plain C.  Round samples on a shared guest are neither normal nor independent of the host's
 * speed states, so no variance formula is trusted: the interval is the pair of order statistics
 * that the binomial distribution of "samples below the median" says bracket it (Hahn & Meeker).
 */
#ifndef STOREBENCH_STATS_H
#define STOREBENCH_STATS_H

#include <stdbool.h>
#include <stddef.h>

/* The confidence level of every interval storebench writes. */
#define MEDIAN_CI_LEVEL 0.95

/* The fewest samples whose min..max already brackets the median at MEDIAN_CI_LEVEL (6: 96.9 %). */
#define MEDIAN_CI_MIN_SAMPLES 6

/* How the metadata names the method. */
#define MEDIAN_CI_METHOD "order-statistics (distribution-free, binomial ranks)"

/*
 * The 0-based ranks lo <= hi of n sorted samples whose values bracket the median with coverage of
 * at least level: the widest-inside pair x[k-1], x[n-k] with 1 - 2 P(Binomial(n, 1/2) < k) >=
 * level.  false when no pair covers that much (n below MEDIAN_CI_MIN_SAMPLES at 95 %).
 */
bool stats_median_ci_ranks(size_t n, double level, size_t *lo, size_t *hi);

/* qsort's comparison of two doubles, ascending. */
int stats_cmp_double(const void *a, const void *b);

/* The median of n values (the mean of the middle two for an even n; NAN when n is 0); sorts x
 * in place. */
double stats_median(double *x, size_t n);

/*
 * The k-th smallest of x[0..n) (0-based, k < n) by selection in O(n) expected: x is reordered
 * so that x[k] holds it, x[0..k) none larger and x(k..n) none smaller.  Where a median or a few
 * order statistics of many values are wanted again and again (the Walsh averages of a
 * Hodges–Lehmann interval: n (n + 1) / 2 of them), a sort each time cost more than the rounds.
 */
double stats_select(double *x, size_t n, size_t k);

/* The median of n values as stats_median gives it, by stats_select: x reordered, not sorted. */
double stats_median_select(double *x, size_t n);

/*
 * The median of x[0..n) and its interval at level; sorts x in place.  false (median still set
 * when n > 0) when n is too small for the level.
 */
bool stats_median_ci(double *x, size_t n, double level, double *median, double *lo, double *hi);

/*
 * The lag-1 autocorrelation of x[0..n) in its order: how much each value follows the one before
 * (NAN below 3 values or with no spread).
 */
double stats_lag1(const double *x, size_t n);

/* The means of consecutive pairs of x, in place (an odd last value dropped); returns n / 2. */
size_t stats_batch_pairs(double *x, size_t n);

#endif
