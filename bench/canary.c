/*
 * canary.c — the drift canary's buffer, samples and series.  Plain C, no ISA flags.
 * It runs on the caller's thread, the pool's thread 0, between points: the pool's workers are
 * idle, so the canary sees the memory system as the points do, without their work on top.
 */
#include "canary.h"

#include <stdlib.h>
#include <string.h>

#include "kernels.h"
#include "median_ci.h"
#include "tsc.h"

size_t canary_bytes(const struct run_opts *o)
{
	unsigned long long b = o->cold_bytes < CANARY_MAX_BYTES ? o->cold_bytes : CANARY_MAX_BYTES;

	return (size_t)(b / 64 * 64);
}

bool canary_start(struct canary *c, const struct run_opts *o, size_t measurements, char *err,
		  size_t len)
{
	memset(c, 0, sizeof *c);
	c->k = kernel_find(CANARY_KERNEL);
	c->bytes = canary_bytes(o);
	c->cpu = o->placement.cpu[0];
	c->fill = o->fill;
	c->band = o->quality.drift_band;
	c->period_ns = (uint64_t)(o->canary_period_s * 1e9);
	c->drift_pct = o->drift_pct;
	c->drift_from = measurements / 3;
	c->drift_to = measurements - measurements / 3;
	if (!buffer_alloc(&c->buf, c->bytes, o->pages, o->bind, o->placement.node[0], err, len))
		return false;
	/* first touch now, so no sample pays for page faults */
	memset(c->buf.region, (int)c->fill, c->bytes);
	c->t0_ns = mono_ns();
	return canary_sample(c, 0);
}

bool canary_due(const struct canary *c)
{
	return mono_ns() - c->last_ns >= c->period_ns;
}

bool canary_sample(struct canary *c, size_t at)
{
	uint64_t t[CANARY_PASSES];
	bool bent = c->drift_pct > 0 && at > c->drift_from && at < c->drift_to;
	double *g = malloc((c->n + 1) * sizeof *g);

	if (!g)
		return false;
	if (c->n == c->cap) {
		size_t cap = c->cap ? 2 * c->cap : 64;
		struct canary_sample *s = realloc(c->s, cap * sizeof *s);

		if (!s) {
			free(g);
			return false;
		}
		c->s = s;
		c->cap = cap;
	}
	for (int i = 0; i < CANARY_PASSES; i++) {
		uint64_t t0 = mono_ns();
		int j = i;

		c->k->fn(c->buf.region, (int)c->fill, c->bytes);
		t[i] = mono_ns() - t0;
		/* a known slowdown of the canary alone: real time spent, inside its timed call */
		for (uint64_t until = t[i] + (uint64_t)((double)t[i] * c->drift_pct / 100);
		     bent && t[i] < until;)
			t[i] = mono_ns() - t0;
		for (; j > 0 && t[j - 1] > t[j]; j--) { /* insertion: t stays sorted */
			uint64_t x = t[j];

			t[j] = t[j - 1];
			t[j - 1] = x;
		}
	}
	c->last_ns = mono_ns();
	c->s[c->n++] = (struct canary_sample){
		.t_s = (double)(c->last_ns - c->t0_ns) / 1e9,
		.gbps = (double)c->bytes / (double)(t[CANARY_PASSES / 2] ? t[CANARY_PASSES / 2] : 1),
		.at = at,
	};
	for (size_t i = 0; i < c->n; i++)
		g[i] = c->s[i].gbps;
	c->ref = median_sorted_in_place(g, c->n);
	free(g);
	return true;
}

bool canary_out(const struct canary *c, size_t i)
{
	double r = c->s[i].gbps / c->ref;

	return r < 1 - c->band || r > 1 + c->band;
}

void canary_settings(FILE *out, const char *prefix, const struct canary *c)
{
	fprintf(out, "%scanary=on\n", prefix);
	fprintf(out, "%scanary_kernel=%s\n", prefix, c->k->name);
	fprintf(out, "%scanary_call_bytes=%zu\n", prefix, c->bytes);
	fprintf(out, "%scanary_ws_bytes=%zu\n", prefix, c->bytes);
	fprintf(out, "%scanary_threads=1\n", prefix);
	fprintf(out, "%scanary_cpu=%d\n", prefix, c->cpu);
	fprintf(out, "%scanary_period_s=%g\n", prefix, (double)c->period_ns / 1e9);
	fprintf(out, "%scanary_band=%g\n", prefix, c->band);
	fprintf(out, "%scanary_start_gbps=%.4g\n", prefix, c->n ? c->s[0].gbps : 0.0);
}

/* One sample as t_s:gbps, the same text in canary_sample and canary_series. */
static void put_sample(FILE *out, const struct canary_sample *s)
{
	fprintf(out, "%.1f:%.4g", s->t_s, s->gbps);
}

void canary_sample_line(FILE *out, const char *prefix, const struct canary *c, size_t i)
{
	fprintf(out, "%scanary_sample=", prefix);
	put_sample(out, &c->s[i]);
	fputc('\n', out);
}

void canary_summary(FILE *out, const char *prefix, const struct canary *c)
{
	size_t out_samples = 0;

	fprintf(out, "%scanary_series=", prefix);
	for (size_t i = 0; i < c->n; i++) {
		if (i)
			fputc(',', out);
		put_sample(out, &c->s[i]);
		out_samples += canary_out(c, i);
	}
	fprintf(out, "\n%scanary_ref_gbps=%.4g\n", prefix, c->ref);
	fprintf(out, "%scanary_out_samples=%zu\n", prefix, out_samples);
}

void canary_free(struct canary *c)
{
	buffer_free(&c->buf);
	free(c->s);
	c->s = NULL;
	c->n = c->cap = 0;
}
