/*
 * canary_test.c — the drift canaries (bench/measure/canary.c) on small buffers: the size of each
 * regime's canary, the window a sample closes (its ticks' passes and its own), the band, the
 * injected drift bending the DRAM canary alone, and the keys the summary writes.
 * Plain C, no ISA: the canaries call libc's memset.
 * Why: every drift flag a row carries is one of these samples judged against its band.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "canary.h"
#include "canary_run.h"
#include "sweep_threads.h"
#include "test_util.h"

static void test_bytes(void)
{
	struct canary_config cfg = canary_run();

	CHECK(canary_bytes(&cfg, CANARY_L2) == 128 << 10, "L2 canary: half a thread's L2");
	CHECK(canary_bytes(&cfg, CANARY_LLC) == 1 << 20, "LLC canary: half its LLC");
	CHECK(canary_bytes(&cfg, CANARY_DRAM) == 8 << 20, "DRAM canary: the cold region");
	cfg.llc_bytes = 512 << 10;
	CHECK(canary_bytes(&cfg, CANARY_LLC) == 0, "no LLC canary when half the LLC fits the L2");
	cfg.cold_bytes = 3ull << 30;
	CHECK(canary_bytes(&cfg, CANARY_DRAM) == CANARY_MAX_BYTES, "DRAM canary at most 1 GiB");
	cfg.cold_bytes = (8 << 20) + 100;
	CHECK(canary_bytes(&cfg, CANARY_DRAM) == (8 << 20) + 64, "whole lines only");
	CHECK(canary_regime_of(LEVEL_DRAM) == CANARY_DRAM && canary_regime_of(LEVEL_L3) == CANARY_LLC &&
	      canary_regime_of(LEVEL_L1D) == CANARY_L2 && canary_regime_of(LEVEL_L2) == CANARY_L2,
	      "each regime's judge");
}

/* The summary's line for key=, or "" when absent, into buf. */
static const char *summary_line(const struct canary *c, const char *key, char *buf, size_t len)
{
	char *text = NULL, *at;
	size_t n = 0;
	FILE *m = open_memstream(&text, &n);

	buf[0] = '\0';
	if (!m)
		return buf;
	canary_summary(m, "", c);
	fclose(m);
	for (at = text; at && *at; at = strchr(at, '\n') ? strchr(at, '\n') + 1 : NULL)
		if (!strncmp(at, key, strlen(key)) && at[strlen(key)] == '=') {
			snprintf(buf, len, "%.*s", (int)strcspn(at + strlen(key) + 1, "\n"),
				 at + strlen(key) + 1);
			break;
		}
	free(text);
	return buf;
}

static void test_windows(void)
{
	struct canary_config cfg = canary_run();
	struct canary c;
	char err[256], buf[256];

	if (!canary_start(&c, &cfg, 90, err, sizeof err)) {
		CHECK(0, "canary_start: %s", err);
		return;
	}
	for (int r = 0; r < CANARY_REGIMES; r++)
		CHECK(c.r[r].n == 1 && c.r[r].s[0].passes == CANARY_PASSES && c.r[r].s[0].at == 0 &&
		      c.r[r].s[0].gbps > 0 && c.r[r].ref == c.r[r].s[0].gbps && c.r[r].npass == 0,
		      "regime %d: the starting sample rests on its %d passes", r, CANARY_PASSES);
	CHECK(c.r[CANARY_L2].calls == CANARY_PASS_BYTES / (128 << 10) && c.r[CANARY_L2].warm &&
	      c.r[CANARY_DRAM].calls == 1 && !c.r[CANARY_DRAM].warm,
	      "a cache canary's pass stores CANARY_PASS_BYTES after a warming call; DRAM's is one");
	CHECK(!canary_tick_due(&c) && c.tick_ns >= (uint64_t)CANARY_TICK_MS * 1000000,
	      "no tick due right after a sample");
	for (int i = 0; i < 4; i++)
		CHECK(canary_tick(&c, 10 + (size_t)i), "tick %d", i);
	CHECK(c.r[CANARY_L2].npass == 4 && c.r[CANARY_DRAM].npass == 4, "ticks fill the windows");
	CHECK(canary_sample(&c, 20), "the second sample");
	for (int r = 0; r < CANARY_REGIMES; r++)
		CHECK(c.r[r].n == 2 && c.r[r].s[1].passes == 4 + CANARY_PASSES && c.r[r].s[1].at == 20 &&
		      c.r[r].npass == 0 &&
		      fabs(c.r[r].ref - (c.r[r].s[0].gbps + c.r[r].s[1].gbps) / 2) < 1e-9 * c.r[r].ref,
		      "regime %d: a sample closes its window's 4 ticks and %d passes of its own, the "
		      "ref is the series' median", r, CANARY_PASSES);
	CHECK(!strcmp(summary_line(&c, "canary_passes", buf, sizeof buf), "3,7") &&
	      !strcmp(summary_line(&c, "canary_l2_passes", buf, sizeof buf), "3,7") &&
	      !strcmp(summary_line(&c, "canary_llc_passes", buf, sizeof buf), "3,7"),
	      "the summary's passes per sample: %s", buf);
	/* the band: a share of the ref either side; two samples sit either side of their mean */
	c.cfg.band = 0;
	CHECK(canary_out(&c, CANARY_DRAM, 1) || c.r[CANARY_DRAM].s[1].gbps ==
	      c.r[CANARY_DRAM].ref, "band 0: a sample off the ref is out");
	c.cfg.band = 0.99;
	CHECK(!canary_out(&c, CANARY_DRAM, 0) && !canary_out(&c, CANARY_DRAM, 1),
	      "a band of 99 %% holds two samples of one quiet machine");
	canary_free(&c);
}

/* --inject-drift bends the DRAM canary's passes taken within the middle third of the planned
 * measurements, and only those: 9 measurements, the third from 3 to 6. */
static void test_inject(void)
{
	struct canary_config cfg = canary_run();
	struct canary c;
	char err[256];

	cfg.drift_pct = 900; /* each bent pass lasts 10 x its real time */
	if (!canary_start(&c, &cfg, 9, err, sizeof err)) {
		CHECK(0, "canary_start: %s", err);
		return;
	}
	CHECK(c.drift_from == 3 && c.drift_to == 6, "the middle third: %zu..%zu", c.drift_from,
	      c.drift_to);
	CHECK(canary_sample(&c, 4) && canary_sample(&c, 8), "samples in and after the third");
	CHECK(c.r[CANARY_DRAM].s[1].gbps < 0.3 * c.r[CANARY_DRAM].s[0].gbps &&
	      c.r[CANARY_DRAM].s[1].gbps < 0.3 * c.r[CANARY_DRAM].s[2].gbps,
	      "the DRAM sample within the third is bent: %g against %g and %g GB/s",
	      c.r[CANARY_DRAM].s[1].gbps, c.r[CANARY_DRAM].s[0].gbps, c.r[CANARY_DRAM].s[2].gbps);
	CHECK(c.r[CANARY_L2].s[1].gbps > 0.3 * c.r[CANARY_L2].s[0].gbps,
	      "the L2 canary is not bent: %g against %g GB/s", c.r[CANARY_L2].s[1].gbps,
	      c.r[CANARY_L2].s[0].gbps);
	canary_free(&c);
}

int main(void)
{
	test_bytes();
	test_windows();
	test_inject();
	return test_result("canary: sizes per regime, windows of ticks and samples, the band, "
			   "the injected drift");
}
