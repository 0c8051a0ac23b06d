/*
 * progress.c — progress and ETA on stderr.
 * Plain C.  On a terminal one line rewritten in place (the cursor left at its start, so a
 * warning printed meanwhile overwrites it and keeps its own line); anywhere else (a log, a pipe,
 * CI) one plain line per point, so logs stay readable.
 */
#include "progress.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "tsc.h"

static uint64_t t_start;
static double total, done;
static size_t count;
static int nrounds;
static size_t undecided_groups; /* in an adaptive round: why it runs */
static bool tty; /* stderr is a terminal: rewrite one line */

void progress_start(double total_weight, size_t npoints, int rounds)
{
	t_start = mono_ns();
	total = total_weight * rounds;
	done = 0;
	count = npoints;
	nrounds = rounds;
	undecided_groups = 0;
	tty = isatty(STDERR_FILENO);
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

/* Columns of the terminal on stderr; a longer line wraps and can no longer be rewritten. */
static size_t columns(void)
{
	struct winsize ws;

	return !ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) && ws.ws_col > 1 ? ws.ws_col : 80;
}

void progress_point(int round, size_t i, const char *name, double w)
{
	double el = progress_elapsed();
	char e[32], eta[32] = "?", r[48] = "", line[512];

	clock_fmt(el, e, sizeof e);
	if (done > 0)
		clock_fmt(el / done * (total - done), eta, sizeof eta);
	if (round >= nrounds)
		snprintf(r, sizeof r, "round %d (%zu undecided) ", round + 1, undecided_groups);
	else if (nrounds > 1)
		snprintf(r, sizeof r, "round %d/%d ", round + 1, nrounds);
	snprintf(line, sizeof line, "storebench: %spoint %zu/%zu  elapsed %s  ETA %s  %s", r, i + 1,
		 count, e, eta, name);
	if (tty) {
		size_t cols = columns();

		if (strlen(line) >= cols)
			line[cols - 1] = '\0';
		fprintf(stderr, "\033[K%s\r", line);
	} else {
		fprintf(stderr, "%s\n", line);
	}
	done += w;
}

void progress_adaptive(size_t npoints, double w, size_t undecided)
{
	count = npoints;
	total = done + w;
	undecided_groups = undecided;
}

void progress_end(void)
{
	if (tty)
		fputs("\033[K", stderr);
}
