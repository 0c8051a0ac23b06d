/*
 * compare.h — the answer's one rule: paired ratios over rounds, their intervals and verdicts.
 * Plain C.  Kernels of a comparison group (groups.h) ran back to back in every round, so the
 * ratio of their samples round by round cancels the host's drift; a pair is decided when the
 * ratio's interval clears 1 +- the tie band, a tie when it lies inside, undecided otherwise.
 * The CSV's vs_* columns, the winners table and the scripts all read these results.
 */
#ifndef STOREBENCH_COMPARE_H
#define STOREBENCH_COMPARE_H

#include <stdbool.h>
#include <stddef.h>

#include "groups.h"
#include "point_history.h"

enum verdict {
	VERDICT_NONE,      /* no pair: nothing to compare with, or unpaired (one round) */
	VERDICT_DECIDED,   /* the interval lies outside 1 +- band: one kernel is faster */
	VERDICT_TIE,       /* the interval lies inside 1 +- band: as fast, within the band */
	VERDICT_UNDECIDED, /* neither (or too few rounds for an interval): more rounds could tell */
};

/* The CSV's and the tables' words, by enum verdict ("" for VERDICT_NONE). */
extern const char *const verdict_name[];

/* One kernel against another of its group, over the rounds both were measured in. */
struct pair {
	size_t other;         /* the other point, an index into the sweep */
	int n;                /* rounds paired */
	double ratio;         /* median over those rounds of this point's GB/s / the other's */
	double lo, hi;        /* its interval (stats.h); NAN when n is too small for one */
	enum verdict verdict; /* by the rule above */
};

/* What the comparisons say about one point. */
struct compare_point {
	unsigned rank;     /* 1 = its group's leader, 2 the runner-up...; 0 = unranked.  By median
			    * GB/s, then adjacent pairs whose paired ratio says otherwise swapped */
	double median;     /* the median GB/s of its samples */
	struct pair next;  /* against the point ranked just below it (VERDICT_NONE for the last) */
	struct pair memset;/* against its group's memset (VERDICT_NONE for memset or without one) */
};

/* The kernel every other is also paired with: what a program gets without choosing. */
#define COMPARE_BASELINE "memset"

struct compare {
	const struct point *pts;  /* the sweep */
	const struct groups *g;   /* its groups */
	double band;              /* --tie-band: a ratio within 1 +- band is a tie */
	bool paired;              /* two rounds or more: comparisons exist (else ranks only) */
	struct compare_point *pt; /* one per point */
	size_t *leader;           /* per group: its rank-1 point, or (size_t)-1 when none */
	enum verdict *answer;     /* per group: leader vs runner-up and vs memset, as one verdict */
	size_t count[4];          /* groups by answer, indexed by enum verdict */
};

/* Room for g's points and groups; false when out of memory. */
bool compare_init(struct compare *c, const struct point *pts, const struct groups *g,
		  double band);

void compare_free(struct compare *c);

/*
 * Rank every group from hist[i], point i's history (NULL when unmeasured or failed: unranked),
 * and pair its points.  A group's answer is undecided while
 * its leader against the runner-up or against memset is, a tie when the leader ties with the
 * runner-up, decided otherwise; VERDICT_NONE with fewer than two ranked points.  paired says
 * whether the rounds allow pairs at all.  false when out of memory.
 */
bool compare_update(struct compare *c, const struct point_history *const *hist, bool paired);

/* The verdict of a ratio interval [lo, hi] against 1 +- band (undecided without an interval). */
enum verdict compare_verdict(double lo, double hi, double band);

#endif
