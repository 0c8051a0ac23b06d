/*
 * canary.c — the drift canaries' buffers, samples and series.  Plain C, no ISA flags.
 * They run on the caller's thread, the pool's thread 0, between points: the pool's workers are
 * idle, so each canary sees its regime as the points do, without their work on top.
 */
#include "canary.h"

#include <stdlib.h>
#include <string.h>

#include "kernels.h"
#include "stats.h"
#include "tsc.h"

static const char *const regime_key[CANARY_REGIMES] = {
	[CANARY_L2] = "canary_l2", [CANARY_LLC] = "canary_llc", [CANARY_DRAM] = "canary",
};

size_t canary_bytes(const struct canary_config *cfg, enum canary_regime regime)
{
	unsigned long long b = regime == CANARY_L2 ? cfg->l2_bytes / 2 :
			       regime == CANARY_LLC ? (cfg->llc_bytes / 2 > cfg->l2_bytes ?
						       cfg->llc_bytes / 2 : 0) :
			       cfg->cold_bytes < CANARY_MAX_BYTES ? cfg->cold_bytes :
								    CANARY_MAX_BYTES;

	return (size_t)(b / 64 * 64);
}

/* Touch s's buffer now, so no sample pays for page faults; in chunks, so a signal ends the
 * run within one chunk's faults instead of after the whole buffer's.  False when stopped. */
static bool first_touch(struct canary_series *s, const struct canary_config *cfg, char *err,
			size_t len)
{
	for (size_t at = 0; at < s->bytes; at += CANARY_TOUCH_CHUNK) {
		if (cfg->stopped && cfg->stopped()) {
			snprintf(err, len, "stopped while its buffers were first touched");
			return false;
		}
		memset(s->buf.region + at, (int)cfg->fill,
		       s->bytes - at < CANARY_TOUCH_CHUNK ? s->bytes - at : CANARY_TOUCH_CHUNK);
	}
	return true;
}

bool canary_start(struct canary *c, const struct canary_config *cfg, size_t measurements,
		  char *err, size_t len)
{
	memset(c, 0, sizeof *c);
	c->k = kernel_find(CANARY_KERNEL);
	c->cfg = *cfg;
	c->period_ns = (uint64_t)(cfg->period_s * 1e9);
	c->tick_ns = (uint64_t)CANARY_TICK_MS * 1000000;
	c->drift_from = measurements / 3;
	c->drift_to = measurements - measurements / 3;
	for (int r = 0; r < CANARY_REGIMES; r++) {
		struct canary_series *s = &c->r[r];

		s->key = regime_key[r];
		s->bytes = canary_bytes(cfg, (enum canary_regime)r);
		if (!s->bytes)
			continue;
		/* DRAM: one call a pass, as ever; a cache canary's call lasts microseconds */
		s->calls = r == CANARY_DRAM || s->bytes >= CANARY_PASS_BYTES ?
				   1 : (unsigned)((CANARY_PASS_BYTES + s->bytes - 1) / s->bytes);
		s->warm = r != CANARY_DRAM;
		if (!buffer_alloc(&s->buf, s->bytes, cfg->pages, cfg->bind, cfg->node, err, len) ||
		    !first_touch(s, cfg, err, len))
			return false;
	}
	c->t0_ns = mono_ns();
	return canary_sample(c, 0);
}

bool canary_due(const struct canary *c)
{
	return mono_ns() - c->last_ns >= c->period_ns;
}

/* One timed pass of s in GB/s; bent: --inject-drift's. */
static double pass_gbps(const struct canary *c, const struct canary_series *s, bool bent)
{
	uint64_t t0, t;

	if (s->warm)
		c->k->fn(s->buf.region, (int)c->cfg.fill, s->bytes);
	t0 = mono_ns();
	for (unsigned k = 0; k < s->calls; k++)
		c->k->fn(s->buf.region, (int)c->cfg.fill, s->bytes);
	t = mono_ns() - t0;
	/* a known slowdown of the canary alone: real time spent, inside its timed pass */
	for (uint64_t until = t + (uint64_t)((double)t * c->cfg.drift_pct / 100); bent && t < until;)
		t = mono_ns() - t0;
	return (double)s->bytes * s->calls / (double)(t ? t : 1);
}

/* One more pass of s into its window; false when out of memory for it. */
static bool window_pass(const struct canary *c, struct canary_series *s, bool bent)
{
	if (s->npass == s->pass_cap) {
		size_t cap = s->pass_cap ? 2 * s->pass_cap : 64;
		double *n = realloc(s->pass, cap * sizeof *n);

		if (!n)
			return false;
		s->pass = n;
		s->pass_cap = cap;
	}
	s->pass[s->npass++] = pass_gbps(c, s, bent);
	return true;
}

/* Whether measurement at lies in --inject-drift's bent third. */
static bool bent_at(const struct canary *c, size_t at)
{
	return c->cfg.drift_pct > 0 && at > c->drift_from && at < c->drift_to;
}

bool canary_tick_due(const struct canary *c)
{
	return mono_ns() - c->last_tick_ns >= c->tick_ns;
}

/* One pass of every regime, from DRAM down: each cache canary then follows the same traffic
 * every time (the DRAM canary's stream), not whatever point ran last. */
static bool passes_all(struct canary *c, size_t at)
{
	for (int r = CANARY_REGIMES - 1; r >= 0; r--)
		if (c->r[r].bytes && !window_pass(c, &c->r[r], bent_at(c, at) && r == CANARY_DRAM))
			return false;
	return true;
}

bool canary_tick(struct canary *c, size_t at)
{
	uint64_t t0 = mono_ns();

	if (!passes_all(c, at))
		return false;
	c->last_tick_ns = mono_ns();
	c->tick_ns = (uint64_t)CANARY_TICK_MS * 1000000;
	if (c->tick_ns < CANARY_TICK_SHARE * (c->last_tick_ns - t0))
		c->tick_ns = CANARY_TICK_SHARE * (c->last_tick_ns - t0);
	if (c->tick_ns > c->tick_max_ns)
		c->tick_max_ns = c->tick_ns;
	return true;
}

/* Close s's window: its next sample is the median of the window's passes, which starts
 * afresh, and the ref moves to the median of the series. */
static bool close_window(const struct canary *c, struct canary_series *s, size_t at)
{
	double *g = malloc((s->n + 1) * sizeof *g);

	if (!g)
		return false;
	if (s->n == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 64;
		struct canary_sample *n = realloc(s->s, cap * sizeof *n);

		if (!n) {
			free(g);
			return false;
		}
		s->s = n;
		s->cap = cap;
	}
	s->s[s->n++] = (struct canary_sample){
		.t_s = (double)(mono_ns() - c->t0_ns) / 1e9,
		.passes = (unsigned)s->npass,
		.gbps = stats_median(s->pass, s->npass),
		.at = at,
	};
	s->npass = 0;
	for (size_t i = 0; i < s->n; i++)
		g[i] = s->s[i].gbps;
	s->ref = stats_median(g, s->n);
	free(g);
	return true;
}

/* A sample takes CANARY_PASSES ticks' worth of passes, each regime's in the order a tick takes
 * them (a cache canary's passes back to back would follow its own, warmer), then closes every
 * window. */
bool canary_sample(struct canary *c, size_t at)
{
	for (int i = 0; i < CANARY_PASSES; i++)
		if (!passes_all(c, at))
			return false;
	for (int r = 0; r < CANARY_REGIMES; r++)
		if (c->r[r].bytes && !close_window(c, &c->r[r], at))
			return false;
	c->last_ns = c->last_tick_ns = mono_ns();
	return true;
}

bool canary_out(const struct canary *c, enum canary_regime regime, size_t i)
{
	double r = c->r[regime].s[i].gbps / c->r[regime].ref;

	return r < 1 - c->cfg.band || r > 1 + c->cfg.band;
}

void canary_settings(FILE *out, const char *prefix, const struct canary *c)
{
	const struct canary_series *d = &c->r[CANARY_DRAM];

	fprintf(out, "%scanary=on\n", prefix);
	fprintf(out, "%scanary_kernel=%s\n", prefix, c->k->name);
	fprintf(out, "%scanary_call_bytes=%zu\n", prefix, d->bytes);
	fprintf(out, "%scanary_ws_bytes=%zu\n", prefix, d->bytes);
	fprintf(out, "%scanary_threads=1\n", prefix);
	fprintf(out, "%scanary_cpu=%d\n", prefix, c->cfg.cpu);
	fprintf(out, "%scanary_period_s=%g\n", prefix, (double)c->period_ns / 1e9);
	fprintf(out, "%scanary_tick_s=%g\n", prefix, CANARY_TICK_MS / 1e3);
	fprintf(out, "%scanary_band=%g\n", prefix, c->cfg.band);
	fprintf(out, "%scanary_start_gbps=%.4g\n", prefix, d->n ? d->s[0].gbps : 0.0);
	for (int r = 0; r < CANARY_DRAM; r++) {
		const struct canary_series *s = &c->r[r];

		if (!s->bytes)
			continue;
		fprintf(out, "%s%s_call_bytes=%zu\n", prefix, s->key, s->bytes);
		fprintf(out, "%s%s_calls=%u\n", prefix, s->key, s->calls);
		fprintf(out, "%s%s_start_gbps=%.4g\n", prefix, s->key, s->n ? s->s[0].gbps : 0.0);
	}
}

/* One sample as t_s:gbps, the same text in canary_sample and canary_series. */
static void put_sample(FILE *out, const struct canary_sample *s)
{
	fprintf(out, "%.1f:%.4g", s->t_s, s->gbps);
}

void canary_sample_line(FILE *out, const char *prefix, const struct canary *c, size_t i)
{
	fprintf(out, "%scanary_sample=", prefix);
	put_sample(out, &c->r[CANARY_DRAM].s[i]);
	fputc('\n', out);
}

void canary_summary(FILE *out, const char *prefix, const struct canary *c)
{
	fprintf(out, "%scanary_tick_max_s=%.3g\n", prefix,
		(double)(c->tick_max_ns ? c->tick_max_ns : c->tick_ns) / 1e9);
	for (int r = 0; r < CANARY_REGIMES; r++) {
		const struct canary_series *s = &c->r[r];
		size_t out_samples = 0;

		if (!s->bytes)
			continue;
		fprintf(out, "%s%s_series=", prefix, s->key);
		for (size_t i = 0; i < s->n; i++) {
			if (i)
				fputc(',', out);
			put_sample(out, &s->s[i]);
			out_samples += canary_out(c, (enum canary_regime)r, i);
		}
		fprintf(out, "\n%s%s_passes=", prefix, s->key);
		for (size_t i = 0; i < s->n; i++)
			fprintf(out, "%s%u", i ? "," : "", s->s[i].passes);
		fprintf(out, "\n%s%s_ref_gbps=%.4g\n", prefix, s->key, s->ref);
		fprintf(out, "%s%s_out_samples=%zu\n", prefix, s->key, out_samples);
	}
}

void canary_free(struct canary *c)
{
	for (int r = 0; r < CANARY_REGIMES; r++) {
		buffer_free(&c->r[r].buf);
		free(c->r[r].s);
		free(c->r[r].pass);
		c->r[r].s = NULL;
		c->r[r].pass = NULL;
		c->r[r].n = c->r[r].cap = c->r[r].npass = c->r[r].pass_cap = 0;
	}
}
