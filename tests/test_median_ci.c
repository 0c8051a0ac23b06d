/*
 * test_median_ci.c — the order-statistic interval of a median (bench/measure/median_ci.c): the
 * ranks the binomial tail gives, written down from its table, and the values they pick.
 * Plain C, no ISA.
 */
#include <math.h>

#include "median_ci.h"
#include "test_util.h"

int main(void)
{
	/* n, the 0-based ranks of the 95 % interval: P(B < k) for Binomial(n, 1/2) at or below 2.5 % */
	static const struct { size_t n, lo, hi; } want[] = {
		{ 6, 0, 5 }, { 7, 0, 6 }, { 8, 0, 7 }, { 9, 1, 7 }, { 10, 1, 8 }, { 12, 2, 9 },
		{ 20, 5, 14 }, { 60, 21, 38 },
	};
	double x[9] = { 9, 1, 8, 2, 7, 3, 6, 4, 5 }, median, lo, hi;
	size_t a, b;

	for (size_t n = 0; n < MEDIAN_CI_MIN_SAMPLES; n++)
		CHECK(!median_ci_ranks(n, MEDIAN_CI_LEVEL, &a, &b), "%zu samples: no 95 %% interval", n);
	for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
		CHECK(median_ci_ranks(want[i].n, MEDIAN_CI_LEVEL, &a, &b) && a == want[i].lo &&
		      b == want[i].hi, "%zu samples: ranks %zu..%zu, want %zu..%zu", want[i].n, a, b,
		      want[i].lo, want[i].hi);
	}
	CHECK(median_ci_ranks(1000, MEDIAN_CI_LEVEL, &a, &b) && a > 400 && b < 600 && a + b == 999,
	      "a thousand samples do not underflow: %zu..%zu", a, b);
	CHECK(median_ci(x, 9, MEDIAN_CI_LEVEL, &median, &lo, &hi) && median == 5 && lo == 2 &&
	      hi == 8, "1..9 shuffled: median %g in [%g, %g], want 5 in [2, 8]", median, lo, hi);
	CHECK(!median_ci(x, 5, MEDIAN_CI_LEVEL, &median, &lo, &hi) && median == 3,
	      "five samples (1..5, sorted by the call before): a median (%g) but no interval", median);
	x[0] = 1;
	x[1] = 3;
	CHECK(median_sorted_in_place(x, 2) == 2 && isnan(median_sorted_in_place(x, 0)),
	      "an even count's median is the mean of the middle two; none of no values");
	return test_result("median_ci: binomial ranks for 6..1000 samples, the values they pick");
}
