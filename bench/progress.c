/*
 * progress.c — progress and ETA lines on stderr.
 * Plain C.  Lines, not carriage returns: Google Benchmark's table shares the terminal on stdout,
 * and logs of CI runs stay readable.
 */
#include "progress.h"

#include <stdio.h>

#include "tsc.h"

static uint64_t t_start;
static double total, done;
static size_t count;
static int nrounds;

void progress_start(double total_weight, size_t npoints, int rounds)
{
	t_start = mono_ns();
	total = total_weight * rounds;
	done = 0;
	count = npoints;
	nrounds = rounds;
}

double progress_elapsed(void)
{
	return (double)(mono_ns() - t_start) / 1e9;
}

static void clock_fmt(double s, char *buf, size_t len)
{
	unsigned long t = (unsigned long)(s + 0.5);

	snprintf(buf, len, "%lu:%02lu:%02lu", t / 3600, t / 60 % 60, t % 60);
}

void progress_point(int round, size_t i, const char *name, double w)
{
	double el = progress_elapsed();
	char e[32], eta[32] = "?", r[32] = "";

	clock_fmt(el, e, sizeof e);
	if (done > 0)
		clock_fmt(el / done * (total - done), eta, sizeof eta);
	if (nrounds > 1)
		snprintf(r, sizeof r, "round %d/%d ", round + 1, nrounds);
	fprintf(stderr, "storebench: %spoint %zu/%zu  elapsed %s  ETA %s  %s\n", r, i + 1, count, e,
		eta, name);
	done += w;
}
