/*
 * signed_rank_test.c — the Wilcoxon signed-rank tails and the Hodges–Lehmann interval
 * (bench/stats/signed_rank.c) against values worked by hand: R's paired example (Hollander &
 * Wolfe's depression scores, V = 40, one-sided p = 10/512), the integers 1..9 (Walsh means
 * [W6, W40] at 95 %), mid-ranks of tied sizes, a shifted centre, and the normal tail past
 * SIGNED_RANK_EXACT_MAX.
 * Plain C, no ISA.
 */
#include <math.h>

#include "signed_rank.h"
#include "test_util.h"

#define NEAR(a, b) (fabs((a) - (b)) < 1e-12)

static void test_tails(void)
{
	/* x - y of the depression scores: ranks of |d| 1..9, the positive ones sum to 40 */
	static const double x[] = { 1.83, 0.50, 1.62, 2.48, 1.68, 1.88, 1.55, 3.06, 1.30 };
	static const double y[] = { 0.878, 0.647, 0.598, 2.05, 1.06, 1.29, 1.06, 3.14, 1.29 };
	static const double ties[] = { 1, 1, 1, -1 };
	double d[9], above, below, a2, b2;

	for (int i = 0; i < 9; i++)
		d[i] = x[i] - y[i];
	CHECK(signed_rank_p(d, 9, 0, &above, &below), "signed_rank_p");
	/* P(W+ >= 40) = P(W+ <= 5): the subsets of 1..9 summing to 0..5 are 1+1+1+2+2+3 */
	CHECK(NEAR(above, 10.0 / 512), "above: %.6f, want 10/512 = 0.019531 (R: V = 40)", above);
	/* P(W+ <= 40) = 1 - P(W+ >= 41) = 1 - P(W+ <= 4) */
	CHECK(NEAR(below, 1 - 7.0 / 512), "below: %.6f, want 1 - 7/512", below);
	/* shifting the centre is testing d - c against 0 */
	for (int i = 0; i < 9; i++)
		d[i] -= 0.3;
	CHECK(signed_rank_p(d, 9, -0.3, &a2, &b2) && NEAR(a2, above) && NEAR(b2, below),
	      "centre -0.3 of d - 0.3: %.6f %.6f, want %.6f %.6f", a2, b2, above, below);
	/* six rounds all one way: 1/64, the most six pairs can say */
	{
		static const double six[] = { 0.1, 0.2, 0.15, 0.3, 0.05, 0.12 };

		CHECK(signed_rank_p(six, 6, 0, &above, &below) && NEAR(above, 1.0 / 64) &&
		      NEAR(below, 1), "six positive: %.6f %.6f, want 1/64 and 1", above, below);
	}
	/* four tied sizes take rank 2.5 each: w = 7.5, read as 7 above and 8 below */
	CHECK(signed_rank_p(ties, 4, 0, &above, &below) && NEAR(above, 5.0 / 16) &&
	      NEAR(below, 14.0 / 16), "ties: %.6f %.6f, want 5/16 and 14/16", above, below);
	/* differences equal to the centre are dropped: nothing left says nothing */
	CHECK(signed_rank_p(ties, 3, 1, &above, &below) && above == 1 && below == 1,
	      "all at the centre: %.3f %.3f, want 1 and 1", above, below);
}

static void test_hl(void)
{
	double d[250], est, lo, hi;

	for (int i = 0; i < 9; i++)
		d[i] = i + 1;
	/* Walsh means of 1..9: the 6th smallest is 2.5 and the 6th largest 7.5 (T = 5 at n = 9) */
	CHECK(signed_rank_hl(d, 9, 0.95, &est, &lo, &hi) && est == 5 && lo == 2.5 && hi == 7.5,
	      "1..9: %g [%g, %g], want 5 [2.5, 7.5]", est, lo, hi);
	/* six: [min, max] (the first of 21 means from each end, 96.9 %); five: no interval */
	CHECK(signed_rank_hl(d, 6, 0.95, &est, &lo, &hi) && est == 3.5 && lo == 1 && hi == 6,
	      "1..6: %g [%g, %g], want 3.5 [1, 6]", est, lo, hi);
	CHECK(signed_rank_hl(d, 5, 0.95, &est, &lo, &hi) && est == 3 && isnan(lo) && isnan(hi),
	      "1..5: %g [%g, %g], want 3 and no interval", est, lo, hi);
	/* past the exact range: the normal tail, still inside and around the centre */
	for (int i = 0; i < 250; i++)
		d[i] = i - 124.5;
	CHECK(signed_rank_hl(d, 250, 0.95, &est, &lo, &hi) && NEAR(est, 0) && lo < 0 && hi > 0 &&
	      NEAR(lo, -hi) && lo > -30, "250 symmetric: %g [%g, %g]", est, lo, hi);
	{
		double above, below;

		CHECK(signed_rank_p(d, 250, -125, &above, &below) && above < 1e-30 && below == 1,
		      "250 all above the centre: %g %g", above, below);
	}
}

int main(void)
{
	test_tails();
	test_hl();
	return test_result("signed_rank");
}
