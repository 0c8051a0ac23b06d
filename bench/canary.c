/*
 * canary.c — the drift canaries' buffers, samples and series.  Plain C, no ISA flags.
 * They run on the caller's thread, the pool's thread 0, between points: the pool's workers are
 * idle, so each canary sees its regime as the points do, without their work on top.
 */
#include "canary.h"

#include <stdlib.h>
#include <string.h>

#include "kernels.h"
#include "median_ci.h"
#include "tsc.h"

static const char *const regime_key[CANARY_REGIMES] = {
	[CANARY_L2] = "canary_l2", [CANARY_LLC] = "canary_llc", [CANARY_DRAM] = "canary",
};

enum canary_regime canary_regime_of(enum regime r)
{
	return r == R_DRAM ? CANARY_DRAM : r == R_L3 ? CANARY_LLC : CANARY_L2;
}

size_t canary_bytes(const struct run_opts *o, enum canary_regime regime)
{
	unsigned long long b = regime == CANARY_L2 ? o->l2_bytes / 2 :
			       regime == CANARY_LLC ? (o->llc_bytes / 2 > o->l2_bytes ?
						       o->llc_bytes / 2 : 0) :
			       o->cold_bytes < CANARY_MAX_BYTES ? o->cold_bytes : CANARY_MAX_BYTES;

	return (size_t)(b / 64 * 64);
}

bool canary_start(struct canary *c, const struct run_opts *o, size_t measurements, char *err,
		  size_t len)
{
	memset(c, 0, sizeof *c);
	c->k = kernel_find(CANARY_KERNEL);
	c->cpu = o->placement.cpu[0];
	c->fill = o->fill;
	c->band = o->quality.drift_band;
	c->period_ns = (uint64_t)(o->canary_period_s * 1e9);
	c->drift_pct = o->drift_pct;
	c->drift_from = measurements / 3;
	c->drift_to = measurements - measurements / 3;
	for (int r = 0; r < CANARY_REGIMES; r++) {
		struct canary_series *s = &c->r[r];

		s->key = regime_key[r];
		s->bytes = canary_bytes(o, (enum canary_regime)r);
		if (!s->bytes)
			continue;
		/* DRAM: one call a pass, as ever; a cache canary's call lasts microseconds */
		s->calls = r == CANARY_DRAM || s->bytes >= CANARY_PASS_BYTES ?
				   1 : (unsigned)((CANARY_PASS_BYTES + s->bytes - 1) / s->bytes);
		if (!buffer_alloc(&s->buf, s->bytes, o->pages, o->bind, o->placement.node[0], err, len))
			return false;
		/* first touch now, so no sample pays for page faults */
		memset(s->buf.region, (int)c->fill, s->bytes);
	}
	c->t0_ns = mono_ns();
	return canary_sample(c, 0);
}

bool canary_due(const struct canary *c)
{
	return mono_ns() - c->last_ns >= c->period_ns;
}

/* One sample of s: the median of CANARY_PASSES timed passes; bent: --inject-drift's. */
static bool sample_one(const struct canary *c, struct canary_series *s, size_t at, bool bent)
{
	uint64_t t[CANARY_PASSES];
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
	for (int i = 0; i < CANARY_PASSES; i++) {
		uint64_t t0 = mono_ns();
		int j = i;

		for (unsigned k = 0; k < s->calls; k++)
			c->k->fn(s->buf.region, (int)c->fill, s->bytes);
		t[i] = mono_ns() - t0;
		/* a known slowdown of the canary alone: real time spent, inside its timed pass */
		for (uint64_t until = t[i] + (uint64_t)((double)t[i] * c->drift_pct / 100);
		     bent && t[i] < until;)
			t[i] = mono_ns() - t0;
		for (; j > 0 && t[j - 1] > t[j]; j--) { /* insertion: t stays sorted */
			uint64_t x = t[j];

			t[j] = t[j - 1];
			t[j - 1] = x;
		}
	}
	s->s[s->n++] = (struct canary_sample){
		.t_s = (double)(mono_ns() - c->t0_ns) / 1e9,
		.gbps = (double)s->bytes * s->calls /
			(double)(t[CANARY_PASSES / 2] ? t[CANARY_PASSES / 2] : 1),
		.at = at,
	};
	for (size_t i = 0; i < s->n; i++)
		g[i] = s->s[i].gbps;
	s->ref = median_sorted_in_place(g, s->n);
	free(g);
	return true;
}

bool canary_sample(struct canary *c, size_t at)
{
	bool bent = c->drift_pct > 0 && at > c->drift_from && at < c->drift_to;

	for (int r = 0; r < CANARY_REGIMES; r++)
		if (c->r[r].bytes && !sample_one(c, &c->r[r], at, bent && r == CANARY_DRAM))
			return false;
	c->last_ns = mono_ns();
	return true;
}

bool canary_out(const struct canary *c, enum canary_regime regime, size_t i)
{
	double r = c->r[regime].s[i].gbps / c->r[regime].ref;

	return r < 1 - c->band || r > 1 + c->band;
}

void canary_settings(FILE *out, const char *prefix, const struct canary *c)
{
	const struct canary_series *d = &c->r[CANARY_DRAM];

	fprintf(out, "%scanary=on\n", prefix);
	fprintf(out, "%scanary_kernel=%s\n", prefix, c->k->name);
	fprintf(out, "%scanary_call_bytes=%zu\n", prefix, d->bytes);
	fprintf(out, "%scanary_ws_bytes=%zu\n", prefix, d->bytes);
	fprintf(out, "%scanary_threads=1\n", prefix);
	fprintf(out, "%scanary_cpu=%d\n", prefix, c->cpu);
	fprintf(out, "%scanary_period_s=%g\n", prefix, (double)c->period_ns / 1e9);
	fprintf(out, "%scanary_band=%g\n", prefix, c->band);
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
		fprintf(out, "\n%s%s_ref_gbps=%.4g\n", prefix, s->key, s->ref);
		fprintf(out, "%s%s_out_samples=%zu\n", prefix, s->key, out_samples);
	}
}

void canary_free(struct canary *c)
{
	for (int r = 0; r < CANARY_REGIMES; r++) {
		buffer_free(&c->r[r].buf);
		free(c->r[r].s);
		c->r[r].s = NULL;
		c->r[r].n = c->r[r].cap = 0;
	}
}
