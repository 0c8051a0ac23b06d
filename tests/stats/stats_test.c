/*
 * stats_test.c — the shared statistics (bench/stats/): the order-statistic interval of a median,
 * the ranks the binomial tail gives, written down from its table, and the values they pick; the
 * median and selection; the lag-1 autocorrelation and batch means; the generator's sequence and
 * draws.
 * Plain C, no ISA.
 */
#include <math.h>
#include <stdlib.h>

#include "prng.h"
#include "stats.h"
#include "test_util.h"

/* splitmix64 from state 0: its published first outputs (recomputed in Python before they were
 * written down), so a --seed means the same rounds here as in every earlier run. */
static void test_prng(void)
{
	static const uint64_t want[] = { 0xe220a8397b1dcdafull, 0x6e789e6aa1b965f4ull,
					 0x06c45d188009454full, 0xf88bb8a8724c81ecull };
	uint64_t state = 0, seen[5] = { 0 };

	for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
		uint64_t got = prng_next(&state);

		CHECK(got == want[i], "prng_next #%zu: %#llx, want %#llx", i, (unsigned long long)got,
		      (unsigned long long)want[i]);
	}
	/* below 5, 5000 draws: every value, none outside, none more than 10 % off its share */
	for (int i = 0; i < 5000; i++) {
		uint64_t d = prng_below(&state, 5);

		CHECK(d < 5, "prng_below(5) gave %llu", (unsigned long long)d);
		if (d < 5)
			seen[d]++;
	}
	for (int v = 0; v < 5; v++)
		CHECK(seen[v] > 900 && seen[v] < 1100, "prng_below(5): %d drawn %llu of 5000 times", v,
		      (unsigned long long)seen[v]);
}

/* The lag-1 autocorrelation and the batch means that answer it (compare.c). */
static void test_lag1(void)
{
	double alt[8] = { 1, -1, 1, -1, 1, -1, 1, -1 }, runs[8] = { 1, 1, 1, 1, -1, -1, -1, -1 };
	double same[5] = { 0.01, 0.01, 0.01, 0.01, 0.01 }, x[5] = { 1, 2, 3, 4, 5 };

	CHECK(fabs(stats_lag1(alt, 8) + 7.0 / 8) < 1e-12, "alternating: %g, want -7/8",
	      stats_lag1(alt, 8));
	CHECK(fabs(stats_lag1(runs, 8) - 5.0 / 8) < 1e-12, "two runs of four: %g, want 5/8",
	      stats_lag1(runs, 8));
	CHECK(isnan(stats_lag1(same, 5)) && isnan(stats_lag1(x, 2)),
	      "equal values or two values: no autocorrelation");
	CHECK(stats_batch_pairs(x, 5) == 2 && x[0] == 1.5 && x[1] == 3.5,
	      "batch means of 1..5: %g %g, the odd last one dropped", x[0], x[1]);
}

/*
 * Selection against a sort: every rank of arrays with many ties, runs and random values, each
 * selected from the array the one before left (as signed_rank_hl selects three in turn), and
 * the selection's median against stats_median at odd and even lengths.
 */
static void test_select(void)
{
	enum { N = 301 };
	double x[N], sorted[N], y[N];
	uint64_t state = 11;

	for (int shape = 0; shape < 4; shape++)
		for (size_t n = 1; n <= N; n += n < 12 ? 1 : 37) {
			for (size_t i = 0; i < n; i++) {
				double r = (double)prng_below(&state, 1000);

				x[i] = shape == 0 ? r : shape == 1 ? (double)(i % 3) :
				       shape == 2 ? (double)i : (double)(n - i);
				sorted[i] = y[i] = x[i];
			}
			qsort(sorted, n, sizeof *sorted, stats_cmp_double);
			for (size_t k = 0; k < n; k++) {
				double v = stats_select(x, n, k);
				bool below = true, above = true;

				for (size_t i = 0; i < k; i++)
					below &= x[i] <= v;
				for (size_t i = k + 1; i < n; i++)
					above &= x[i] >= v;
				CHECK(v == sorted[k] && below && above,
				      "shape %d, %zu values: rank %zu selected %g, sorted %g", shape, n,
				      k, v, sorted[k]);
			}
			CHECK(stats_median_select(y, n) == stats_median(sorted, n),
			      "shape %d, %zu values: median by selection %g, by sorting %g", shape, n,
			      stats_median_select(x, n), stats_median(sorted, n));
		}
}

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
		CHECK(!stats_median_ci_ranks(n, MEDIAN_CI_LEVEL, &a, &b), "%zu samples: no 95 %% interval",
		      n);
	for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
		CHECK(stats_median_ci_ranks(want[i].n, MEDIAN_CI_LEVEL, &a, &b) && a == want[i].lo &&
		      b == want[i].hi, "%zu samples: ranks %zu..%zu, want %zu..%zu", want[i].n, a, b,
		      want[i].lo, want[i].hi);
	}
	CHECK(stats_median_ci_ranks(1000, MEDIAN_CI_LEVEL, &a, &b) && a > 400 && b < 600 &&
	      a + b == 999, "a thousand samples do not underflow: %zu..%zu", a, b);
	CHECK(stats_median_ci(x, 9, MEDIAN_CI_LEVEL, &median, &lo, &hi) && median == 5 && lo == 2 &&
	      hi == 8, "1..9 shuffled: median %g in [%g, %g], want 5 in [2, 8]", median, lo, hi);
	CHECK(!stats_median_ci(x, 5, MEDIAN_CI_LEVEL, &median, &lo, &hi) && median == 3,
	      "five samples (1..5, sorted by the call before): a median (%g) but no interval", median);
	x[0] = 1;
	x[1] = 3;
	CHECK(stats_median(x, 2) == 2 && isnan(stats_median(x, 0)),
	      "an even count's median is the mean of the middle two; none of no values");
	CHECK(stats_cmp_double(&x[0], &x[1]) < 0 && stats_cmp_double(&x[1], &x[0]) > 0 &&
	      stats_cmp_double(&x[0], &x[0]) == 0, "stats_cmp_double orders ascending");
	test_prng();
	test_lag1();
	test_select();
	return test_result("stats: binomial ranks for 6..1000 samples, the values they pick, the "
			   "median, the generator");
}
