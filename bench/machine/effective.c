/*
 * effective.c — levels read off a scan's curves (effective.h).  Plain C, no ISA.  The cut into
 * runs is the least-squares piecewise-constant fit of the log (Bellman's segmentation), so a
 * slope inside a level or one noisy size moves a cut by a step at most; the level's end is then
 * read between its run and the next, not at the cut.
 */
#include "effective.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define STR_(x) #x
#define STR(x) STR_(x)

const char effective_rule[] =
	"the load latency curve cut into as many runs of sizes as levels + DRAM (least squares in "
	"log time), the last level's end read the same way off the store times past twice the "
	"level below; a level ends " STR(EFFECTIVE_CROSSING) " of the way (in log time) from its "
	"run's median to the next one's; used where it differs from the reported share by more "
	"than " STR(EFFECTIVE_FACTOR) "x";

/* Fewest sizes in one run: a level seen at one size alone is a transition, not a level. */
#define RUN_MIN 2

/* Sum and sum of squares of log latency over [0, i), for the spread of any run in O(1). */
struct prefix {
	double s[EFFECTIVE_POINTS_MAX + 1], q[EFFECTIVE_POINTS_MAX + 1];
};

static double spread(const struct prefix *p, unsigned i, unsigned j)
{
	double n = j - i, s = p->s[j] - p->s[i];

	return p->q[j] - p->q[i] - s * s / n;
}

static int by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median_of(const double *v, unsigned n)
{
	double t[EFFECTIVE_POINTS_MAX];

	memcpy(t, v, n * sizeof *t);
	qsort(t, n, sizeof *t, by_value);
	return n % 2 ? t[n / 2] : (t[n / 2 - 1] + t[n / 2]) / 2;
}

/* Cut l[0, n) into k runs of least total spread; start[r] is run r's first index, start[k] = n. */
static void cut(const double *l, unsigned n, unsigned k, unsigned start[LEVEL_COUNT + 1])
{
	double cost[LEVEL_COUNT + 1][EFFECTIVE_POINTS_MAX + 1];
	unsigned from[LEVEL_COUNT + 1][EFFECTIVE_POINTS_MAX + 1];
	struct prefix p = { { 0 }, { 0 } };

	for (unsigned i = 0; i < n; i++) {
		p.s[i + 1] = p.s[i] + l[i];
		p.q[i + 1] = p.q[i] + l[i] * l[i];
	}
	/* cost[r][j]: the least spread of l[0, j) in r runs; from[r][j]: where its last run starts */
	for (unsigned j = 0; j <= n; j++)
		cost[1][j] = j >= RUN_MIN ? spread(&p, 0, j) : HUGE_VAL;
	for (unsigned r = 2; r <= k; r++)
		for (unsigned j = 0; j <= n; j++) {
			cost[r][j] = HUGE_VAL;
			for (unsigned i = RUN_MIN * (r - 1); i + RUN_MIN <= j; i++) {
				double c = cost[r - 1][i] + spread(&p, i, j);

				if (c < cost[r][j]) {
					cost[r][j] = c;
					from[r][j] = i;
				}
			}
		}
	start[k] = n;
	for (unsigned r = k; r > 1; r--)
		start[r - 1] = from[r][start[r]];
	start[0] = 0;
}

/* Where l first stays above the level between runs r and r + 1 (two sizes in a row),
 * interpolated in log size; 0 when it is above already at the first size. */
static uint64_t crossing(const uint64_t *bytes, unsigned n, const double *l, unsigned from,
			 unsigned to, double above)
{
	for (unsigned i = from; i < to; i++)
		if (l[i] > above && (i + 1 >= n || l[i + 1] > above)) {
			double x0, x1, f;

			if (i == 0)
				return 0;
			x0 = log((double)bytes[i - 1]);
			x1 = log((double)bytes[i]);
			f = l[i] > l[i - 1] ? (above - l[i - 1]) / (l[i] - l[i - 1]) : 1;
			f = f < 0 ? 0 : f > 1 ? 1 : f;
			return (uint64_t)exp(x0 + f * (x1 - x0)) / 1024 * 1024;
		}
	return bytes[to - 1];
}

/*
 * The ends of k levels in v (ns per load or per line stored) over n sizes: end[r] and the
 * levels' medians m[0..k] (DRAM's last).  false with why (levels named by index) when too few
 * sizes, a value missing, or two runs not apart.
 */
static bool split(const uint64_t *bytes, const double *v, unsigned n, unsigned k,
		  const unsigned *index, const char *what, uint64_t *end, double *m, char *why,
		  size_t whylen)
{
	double l[EFFECTIVE_POINTS_MAX];
	unsigned start[LEVEL_COUNT + 1];

	if (n > EFFECTIVE_POINTS_MAX || n < RUN_MIN * (k + 1)) {
		snprintf(why, whylen, "%u sizes of %s measured, %u wanted for %u levels and DRAM",
			 n, what, RUN_MIN * (k + 1), k);
		return false;
	}
	for (unsigned i = 0; i < n; i++) {
		if (!(v[i] > 0)) {
			snprintf(why, whylen, "no %s at %llu bytes", what,
				 (unsigned long long)bytes[i]);
			return false;
		}
		l[i] = log(v[i]);
	}
	cut(l, n, k + 1, start);
	for (unsigned r = 0; r <= k; r++)
		m[r] = median_of(l + start[r], start[r + 1] - start[r]);
	for (unsigned r = 0; r < k; r++) {
		if (m[r + 1] - m[r] < log(EFFECTIVE_APART)) {
			snprintf(why, whylen, "no %s apart from the level above by %s: %.3g ns up to "
				 "%llu bytes, then %.3g ns (less than %.2gx)", level_name[index[r]],
				 what, exp(m[r]), (unsigned long long)bytes[start[r + 1] - 1],
				 exp(m[r + 1]), EFFECTIVE_APART);
			return false;
		}
		end[r] = crossing(bytes, n, l, start[r], start[r + 2],
				  m[r] + EFFECTIVE_CROSSING * (m[r + 1] - m[r]));
		if (!end[r]) {
			snprintf(why, whylen, "%s ends below the smallest size measured (%llu bytes)",
				 level_name[index[r]], (unsigned long long)bytes[0]);
			return false;
		}
	}
	for (unsigned r = 0; r <= k; r++)
		m[r] = exp(m[r]);
	return true;
}

bool effective_find(const struct latency_curve *c, const struct level_shares *reported,
		    struct effective_shares *out)
{
	double m[LEVEL_COUNT + 1], ms[2];
	uint64_t end[LEVEL_COUNT], last;
	unsigned index[LEVEL_DRAM], k = 0, from = 0;
	bool stores = c->n && c->store_ns[0] > 0;

	memset(out, 0, sizeof *out);
	for (int v = LEVEL_L1D; v < LEVEL_DRAM; v++)
		if (reported->bytes[v])
			index[k++] = (unsigned)v;
	if (!k) {
		snprintf(out->why, sizeof out->why, "no cache level reported");
		return false;
	}
	if (!split(c->bytes, c->ns, c->n, k, index, "load latency", end, m, out->why,
		   sizeof out->why))
		return false;
	/* the last level from the stores, past twice the end of the level below it */
	while (stores && k > 1 && from < c->n && c->bytes[from] < 2 * end[k - 2])
		from++;
	if (stores && !split(c->bytes + from, c->store_ns + from, c->n - from, 1, index + k - 1,
			     "store time", &last, ms, out->why, sizeof out->why))
		return false;
	if (stores)
		end[k - 1] = last;
	for (unsigned r = 0; r < k; r++) {
		out->bytes[index[r]] = end[r];
		out->ns[index[r]] = m[r];
	}
	out->ns[LEVEL_DRAM] = m[k];
	return true;
}

void effective_shares_text(const uint64_t bytes[LEVEL_DRAM], char *buf, size_t len)
{
	size_t at = 0;

	buf[0] = 0;
	for (int l = LEVEL_L1D; l < LEVEL_DRAM && at < len; l++)
		if (bytes[l])
			at += (size_t)snprintf(buf + at, len - at, "%s%s:%llu", at ? "," : "",
					       level_name[l], (unsigned long long)bytes[l]);
}

struct level_shares effective_use(const struct level_shares *reported,
				  const struct effective_shares *e, unsigned *replaced)
{
	struct level_shares s = *reported;

	if (replaced)
		*replaced = 0;
	for (int v = LEVEL_L1D; e && v < LEVEL_DRAM; v++) {
		uint64_t r = reported->bytes[v], f = e->bytes[v];

		if (r && f && (f > EFFECTIVE_FACTOR * r || r > EFFECTIVE_FACTOR * f)) {
			s.bytes[v] = f;
			if (replaced)
				*replaced |= 1u << v;
		}
	}
	return s;
}
