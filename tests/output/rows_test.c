/*
 * rows_test.c — the canary's verdict on the rows (bench/output/rows.c: slots_canary_step): each
 * point judged by its own regime's canary, a window out of band when the sample that closes it
 * is, a point drift when more than half of its measurements ran in such windows.
 * Plain C, no ISA: the canaries call libc's memset, on small buffers.
 * Why: the drift flag is the one verdict on a row that comes from outside the point itself.
 */
#include <string.h>

#include "canary.h"
#include "canary_run.h"
#include "rows.h"
#include "test_util.h"

/* Replace regime r's series by n constructed samples: s[i] closes the window ending at at[i]. */
static void set_series(struct canary *c, int r, const double *gbps, const size_t *at, size_t n)
{
	struct canary_series *s = &c->r[r];

	for (size_t i = 0; i < n; i++)
		s->s[i] = (struct canary_sample){ .t_s = (double)i, .gbps = gbps[i], .at = at[i],
						  .passes = CANARY_PASSES };
	s->n = n;
}

/*
 * 12 rounds of 8 DRAM points, each round in point order, a DRAM sample every 3 measurements
 * (96 in all); the windows closing inside (from, to] out of band, alternately far below and far
 * above, so the series' median stays in band.  Whether point i came out drift is bit i of the
 * result, or -1 when slots_canary_step failed.
 */
static int rounds_verdict(struct canary *c, size_t from, size_t to)
{
	enum { POINTS = 8, ROUNDS = 12, STEP = 3, N = POINTS * ROUNDS };
	size_t order[N], at[N / STEP + 1];
	unsigned char regime[POINTS];
	double dram[N / STEP + 1], quiet[N / STEP + 1];
	struct point_slot slots[POINTS];
	int flip = 0, drift = 0;

	for (size_t k = 0; k < N; k++)
		order[k] = k % POINTS;
	for (size_t i = 0; i <= N / STEP; i++) {
		bool out = i * STEP > from && i * STEP <= to;

		at[i] = i * STEP;
		dram[i] = !out ? 1000 : (flip ^= 1) ? 1 : 1e6;
		quiet[i] = 1000;
	}
	memset(regime, CANARY_DRAM, sizeof regime);
	memset(slots, 0, sizeof slots);
	set_series(c, CANARY_DRAM, dram, at, N / STEP + 1);
	set_series(c, CANARY_L2, quiet, at, N / STEP + 1);
	set_series(c, CANARY_LLC, quiet, at, N / STEP + 1);
	if (!slots_canary_step(c, slots, POINTS, order, regime, N, true))
		return -1;
	for (int i = 0; i < POINTS; i++)
		drift |= slots[i].quality == QUALITY_drift ? 1 << i : 0;
	return drift;
}

int main(void)
{
	struct canary_config cfg = canary_run();
	struct canary c;
	char err[256];
	/* four points measured once each, in this order: an L2 point, two DRAM ones, an LLC one */
	const size_t order[] = { 0, 1, 2, 3 };
	const unsigned char regime[] = { CANARY_L2, CANARY_DRAM, CANARY_DRAM, CANARY_LLC };
	struct point_slot slots[4];
	/* samples close the windows [0,2) (points 0 and 1), [2,3) (point 2) and [3,4) (point 3);
	 * the DRAM canary's first window is out of band, the cache canaries never are */
	const size_t at[] = { 0, 2, 3, 4 };
	const double dram[] = { 1000, 1, 1000, 1000 }, quiet[] = { 1000, 1000, 1000, 1000 };

	memset(slots, 0, sizeof slots);
	if (!canary_start(&c, &cfg, 4, err, sizeof err)) {
		CHECK(0, "canary_start: %s", err);
		return test_result("rows");
	}
	CHECK(c.r[CANARY_DRAM].cap >= 5 && c.r[CANARY_L2].cap >= 5 && c.r[CANARY_LLC].cap >= 5,
	      "room for the constructed series and one more sample");
	set_series(&c, CANARY_DRAM, dram, at, 4);
	set_series(&c, CANARY_L2, quiet, at, 4);
	set_series(&c, CANARY_LLC, quiet, at, 4);
	/* one more, real, sample after the last measurement closes an empty window; every window
	 * is judged again against the series' median (1000, whatever the real sample reads) */
	CHECK(slots_canary_step(&c, slots, 4, order, regime, 4, true), "slots_canary_step");
	CHECK(slots[1].quality == QUALITY_drift, "the DRAM point of the window out of band is drift");
	CHECK(slots[2].quality == 0,
	      "the DRAM point after it is not: a window is judged by the sample that closes it, not "
	      "by the one that opens it (its quality %#x)", slots[2].quality);
	CHECK(slots[0].quality == 0,
	      "the L2 point measured beside it is judged by the L2 canary, in band");
	CHECK(slots[3].quality == 0, "the LLC point is judged by the LLC canary, in band");
	/* a point measured in two windows, one of them out: not more than half, not drift */
	{
		const size_t order2[] = { 1, 1, 2, 3 };

		memset(slots, 0, sizeof slots);
		c.r[CANARY_DRAM].n = 4;
		c.r[CANARY_L2].n = c.r[CANARY_LLC].n = 4;
		CHECK(slots_canary_step(&c, slots, 4, order2, regime, 4, true), "slots_canary_step");
		CHECK(slots[1].quality == QUALITY_drift,
		      "both measurements of point 1 in the window out of band: drift");
		memset(slots, 0, sizeof slots);
		{
			const size_t order3[] = { 0, 1, 1, 3 };

			c.r[CANARY_DRAM].n = 4;
			c.r[CANARY_L2].n = c.r[CANARY_LLC].n = 4;
			CHECK(slots_canary_step(&c, slots, 4, order3, regime, 4, true),
			      "slots_canary_step");
			CHECK(slots[1].quality == 0,
			      "one of point 1's two measurements out of band is not more than half");
		}
	}
	/* over 12 rounds, the windows of measurements 30..65 out (a bent stretch of three
	 * rounds and a bit, windows not aligned with rounds): points 0, 1, 6 and 7 have 5 of 12
	 * measurements in them, the rest 4: none is drift (quality_cli_test's drift_third measures
	 * the same rule for one round on a real bent canary) */
	{
		int got = rounds_verdict(&c, 30, 66);

		CHECK(got == 0, "a third of 12 rounds out of band: no point drift (mask %#x)", got);
		/* measurements 30..83 out: points 0-3, 6 and 7 have 7 of 12 in them, more than
		 * half; points 4 and 5 have 6, which is not */
		got = rounds_verdict(&c, 30, 84);
		CHECK(got == 0xcf, "7 of 12 out is drift, 6 of 12 is not (mask %#x, want 0xcf)", got);
	}
	canary_free(&c);
	return test_result("rows: the canary judges each point by its own regime and window");
}
