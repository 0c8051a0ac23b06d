/*
 * point_history.c — every repetition one point got over the rounds, and their statistics.
 * Plain C.
 */
#include "point_history.h"

#include <math.h>
#include <stdlib.h>

#include "stats.h"

struct point_history *point_history_new(int width)
{
	struct point_history *h = calloc(1, sizeof *h);

	if (h)
		h->width = width;
	return h;
}

void point_history_free(struct point_history *h)
{
	if (h) {
		free(h->v);
		free(h->sample);
		free(h->sample_round);
		free(h->sample_skew);
		free(h->trial);
	}
	free(h);
}

bool point_history_add(struct point_history *h, const struct gbs_counter *c, size_t n)
{
	double *row;

	if (h->nrep == h->cap) {
		int cap = h->cap ? 2 * h->cap : 16;
		double *v = realloc(h->v, (size_t)cap * (size_t)h->width * sizeof *v);

		if (!v) {
			h->failed = true;
			return false;
		}
		h->v = v;
		h->cap = cap;
	}
	row = h->v + (size_t)h->nrep++ * (size_t)h->width;
	for (int k = 0; k < h->width; k++)
		row[k] = NAN;
	for (size_t i = 0; i < n; i++)
		if (c[i].id < (unsigned)h->width)
			row[c[i].id] = c[i].value;
	return true;
}

bool point_history_add_trial(struct point_history *h, double idle, double loaded, double gbps,
			     double warm)
{
	double *row;

	if (h->ntrial == h->trial_cap) {
		int cap = h->trial_cap ? 2 * h->trial_cap : 16;
		double *t = realloc(h->trial, (size_t)cap * TRIAL_WIDTH * sizeof *t);

		if (!t) {
			h->failed = true;
			return false;
		}
		h->trial = t;
		h->trial_cap = cap;
	}
	row = h->trial + (size_t)h->ntrial++ * TRIAL_WIDTH;
	row[0] = idle;
	row[1] = loaded;
	row[2] = gbps;
	row[3] = warm;
	return true;
}

double point_history_value(const struct point_history *h, int i, int k)
{
	return h->v[(size_t)i * (size_t)h->width + (size_t)k];
}

bool point_history_end_round(struct point_history *h, int k, int first, int round, double skew)
{
	double *tmp;
	int n = 0;

	if (h->nsample == h->sample_cap) {
		int cap = h->sample_cap ? 2 * h->sample_cap : 8;
		double *s = realloc(h->sample, (size_t)cap * sizeof *s);
		int *r = s ? realloc(h->sample_round, (size_t)cap * sizeof *r) : NULL;
		double *sk = r ? realloc(h->sample_skew, (size_t)cap * sizeof *sk) : NULL;

		if (s)
			h->sample = s;
		if (r)
			h->sample_round = r;
		if (sk)
			h->sample_skew = sk;
		if (!s || !r || !sk) {
			h->failed = true;
			return false;
		}
		h->sample_cap = cap;
	}
	tmp = malloc((size_t)(h->nrep > first ? h->nrep - first : 1) * sizeof *tmp);
	if (!tmp) {
		h->failed = true;
		return false;
	}
	for (int i = first; i < h->nrep; i++)
		if (!isnan(point_history_value(h, i, k)))
			tmp[n++] = point_history_value(h, i, k);
	if (n) {
		h->sample[h->nsample] = stats_median(tmp, (size_t)n);
		h->sample_skew[h->nsample] = skew;
		h->sample_round[h->nsample++] = round;
	}
	free(tmp);
	return n > 0;
}

double point_history_skew(const struct point_history *h, bool median)
{
	double *tmp = malloc((size_t)(h->nsample ? h->nsample : 1) * sizeof *tmp);
	double m = NAN;
	size_t n = 0;

	if (!tmp)
		return NAN;
	for (int i = 0; i < h->nsample; i++)
		if (!isnan(h->sample_skew[i]))
			tmp[n++] = h->sample_skew[i];
	if (n)
		m = median ? stats_median(tmp, n) : tmp[0];
	for (size_t i = 1; !median && i < n; i++)
		m = tmp[i] > m ? tmp[i] : m;
	free(tmp);
	return m;
}

int point_history_samples(const struct point_history *h, int k, double *out)
{
	int n = 0;

	if (h->nsample > 1) {
		for (int i = 0; i < h->nsample; i++)
			out[i] = h->sample[i];
		return h->nsample;
	}
	for (int i = 0; i < h->nrep; i++)
		if (!isnan(point_history_value(h, i, k)))
			out[n++] = point_history_value(h, i, k);
	return n;
}

bool point_history_stat(const struct point_history *h, int k, double *tmp, struct rep_stat *s)
{
	double sum = 0, sq = 0;
	int n = 0;

	for (int i = 0; i < h->nrep; i++)
		if (!isnan(point_history_value(h, i, k)))
			tmp[n++] = point_history_value(h, i, k);
	if (!n)
		return false;
	s->median = stats_median(tmp, (size_t)n);
	for (int i = 0; i < n; i++)
		sum += tmp[i];
	s->mean = sum / n;
	for (int i = 0; i < n; i++)
		sq += (tmp[i] - s->mean) * (tmp[i] - s->mean);
	s->min = tmp[0];
	s->max = tmp[n - 1];
	s->have_cv = n > 1 && s->mean != 0;
	s->cv = s->have_cv ? sqrt(sq / (n - 1)) / s->mean : 0;
	return true;
}
