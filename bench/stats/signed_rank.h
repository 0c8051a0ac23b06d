/*
 * signed_rank.h — paired differences judged by the Wilcoxon signed-rank test: exact one-sided
 * p-values against a shifted centre, and the Hodges–Lehmann estimate with its exact interval.
 * Plain C.  The answer's pairs are per-round log ratios of two kernels measured back to back:
 * few (9-30), not normal, but close to symmetric on the log scale.  The signed-rank test uses
 * their signs and the ranks of their sizes, so an outlier round counts as one rank, not as its
 * size, and at 9-30 pairs its interval is far narrower than the sign test's order statistics
 * (stats.h) for the same coverage (Hollander & Wolfe, Nonparametric Statistical Methods, ch. 3).
 */
#ifndef STOREBENCH_SIGNED_RANK_H
#define STOREBENCH_SIGNED_RANK_H

#include <stdbool.h>
#include <stddef.h>

/* Up to this many non-zero differences the null distribution is counted exactly (n (n + 1) / 2
 * sums of ranks); beyond it the normal approximation with continuity correction stands in. */
#define SIGNED_RANK_EXACT_MAX 200

/* How the metadata names the method. */
#define SIGNED_RANK_METHOD "Wilcoxon signed-rank (exact up to " \
	SIGNED_RANK_STR(SIGNED_RANK_EXACT_MAX) " pairs), Hodges-Lehmann estimate"
#define SIGNED_RANK_STR(x) SIGNED_RANK_STR2(x)
#define SIGNED_RANK_STR2(x) #x

/*
 * One-sided p-values of d[0..n) against centre c: *above = P(W+ >= w) (small when the
 * differences lie above c), *below = P(W+ <= w) (small when below), w the sum of the ranks of
 * |d - c| over the d above c.  Differences equal to c are dropped, tied sizes take their mean
 * rank and the tail is read at the conservative side.  Both are 1 when no difference is left.
 * false when out of memory.
 */
bool signed_rank_p(const double *d, size_t n, double c, double *above, double *below);

/*
 * The Hodges–Lehmann estimate of d[0..n)'s centre (the median of the n (n + 1) / 2 pairwise
 * means d_i + d_j / 2, i <= j) and its two-sided interval at level: the order statistics of
 * those means that the signed-rank distribution puts at each tail's (1 - level) / 2.  *lo and
 * *hi are NAN when n is too small for the level (n < 6 at 95 %: 2^-n > 2.5 %).  false when n
 * is 0 or out of memory.
 */
bool signed_rank_hl(const double *d, size_t n, double level, double *est, double *lo,
		    double *hi);

/* The z with P(Z <= z) = q for the standard normal, 0 < q < 1, by bisection: the large-n
 * approximation's quantile, and the level a claim's projected pairs are sized by (compare.c). */
double signed_rank_normal_quantile(double q);

#endif
