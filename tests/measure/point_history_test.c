/*
 * point_history_test.c — a point's repetitions over rounds and their statistics: the same
 * median, mean, min, max and cv Google Benchmark's aggregates give, counters a repetition did
 * not report left out, a re-measured attempt dropped by cutting nrep back, and the start skew
 * over rounds (their median, or the largest).
 * Plain C, no ISA.
 */
#include <math.h>

#include "point_history.h"
#include "test_util.h"

/* Two counters: 0 in every repetition, 1 only in some. */
static void add(struct point_history *h, double a, double b)
{
	struct gbs_counter c[2] = { { 0, a }, { 1, b } };

	CHECK(point_history_add(h, c, isnan(b) ? 1 : 2), "add %g %g", a, b);
}

static bool near(double x, double y)
{
	return fabs(x - y) <= 1e-12 * fabs(y);
}

int main(void)
{
	struct point_history *h = point_history_new(2);
	struct rep_stat s;
	double tmp[64];

	CHECK(h && h->nrep == 0 && !h->failed, "a new history is empty");
	CHECK(!point_history_stat(h, 0, tmp, &s), "no statistics without a row");
	add(h, 4, 10);
	add(h, 1, NAN);
	add(h, 3, 30);
	add(h, 2, NAN);
	CHECK(point_history_stat(h, 0, tmp, &s), "counter 0");
	/* 1 2 3 4: the median of an even count is the mean of the middle two */
	CHECK(s.median == 2.5 && s.mean == 2.5 && s.min == 1 && s.max == 4, "median %g mean %g "
	      "min %g max %g", s.median, s.mean, s.min, s.max);
	/* sample stddev sqrt(5/3) over the mean 2.5 */
	CHECK(s.have_cv && near(s.cv, sqrt(5.0 / 3.0) / 2.5), "cv %g", s.cv);
	CHECK(point_history_stat(h, 1, tmp, &s), "counter 1");
	CHECK(s.median == 20 && s.min == 10 && s.max == 30, "the repetitions without counter 1 are "
	      "left out: median %g", s.median);
	CHECK(isnan(point_history_value(h, 1, 1)) && point_history_value(h, 2, 1) == 30,
	      "values by repetition");
	/* an attempt measured again replaces its rows: the caller cuts nrep back */
	h->nrep = 2;
	add(h, 7, 70);
	CHECK(point_history_stat(h, 0, tmp, &s) && s.median == 4 && s.max == 7, "after a cut: "
	      "median %g max %g", s.median, s.max);
	for (int i = 0; i < 40; i++)
		add(h, 5, 50);
	CHECK(h->nrep == 43 && !h->failed, "grows past its first allocation: %d rows", h->nrep);
	point_history_free(h);
	h = point_history_new(1);
	add(h, 6, NAN);
	CHECK(point_history_stat(h, 0, tmp, &s) && !s.have_cv && s.median == 6,
	      "one repetition: its own median, no cv");
	point_history_free(h);
	/* one round of twelve with a thread started late (skew 0.4): the median round judges the
	 * point once the rounds give an interval, the worst one before */
	h = point_history_new(1);
	CHECK(isnan(point_history_skew(h, true)), "no round, no skew");
	for (int r = 0; r < 12; r++) {
		int first = h->nrep;

		add(h, 10 + r, NAN);
		CHECK(point_history_end_round(h, 0, first, r, r == 5 ? 0.4 : r == 7 ? NAN : 0.001),
		      "round %d", r);
	}
	CHECK(h->nsample == 12 && h->sample[3] == 13, "a sample a round: %d", h->nsample);
	CHECK(point_history_skew(h, true) == 0.001 && point_history_skew(h, false) == 0.4,
	      "skew over the rounds: median %g, largest %g (a round without one left out)",
	      point_history_skew(h, true), point_history_skew(h, false));
	point_history_free(h);
	return test_result("ok: point history statistics");
}
