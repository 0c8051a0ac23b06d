/*
 * compare.h — the answer's one rule: paired ratios over rounds, their intervals, verdicts and
 * each group's winner set.
 * Plain C.  Kernels of a comparison group (groups.h) ran back to back in every round, so the
 * ratio of their samples round by round cancels the host's drift.  A ratio is the
 * Hodges–Lehmann estimate over the rounds' log ratios with the signed-rank interval
 * (signed_rank.h): decided when its 95 % interval clears 1 +- the tie band, a tie when its 90 %
 * interval lies inside (two one-sided tests), undecided otherwise.
 * The answer asks which kernels are as fast as the group's best, not which single one leads:
 * kernels 1 % apart trade places from run to run, a set of them does not.  Each kernel is
 * tested against the best at the band's lower edge: proven above it, the kernel is in the
 * winner set; proven below, out; proven slower than the best by less than twice the band, on
 * the edge; none of these, open.  Holm's step-down over the group's kernels at COMPARE_ALPHA keeps the
 * chance of any wrong claim in a group below it.
 * The CSV's vs_* and winner_set columns, the winners table and the scripts all read these.
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

/* Where a kernel stands against its group's best. */
enum winner_set {
	SET_NONE, /* unranked, or no rounds to pair */
	SET_IN,   /* proven within the tie band of the best (the best itself is in) */
	SET_OUT,  /* proven slower than the best by more than the band */
	SET_EDGE, /* proven near the band's edge, within COMPARE_EDGE of the band from it (slower
		   * than the best by less than twice the band): neither in nor out is worth the
		   * rounds it would take, and it moves from run to run */
	SET_OPEN, /* none of these yet: more rounds could tell */
};

/* The CSV's words, by enum winner_set ("" for SET_NONE). */
extern const char *const winner_set_name[];

/*
 * The error level of one group's claims: the chance that any kernel of a group is put in or
 * out wrongly.  A quick run has ~35 groups: at 1 % it makes a wrong claim in one run of three
 * at the very most, and far fewer where kernels are not on the band's edge
 * (../shared/research/stats-anchors.md, 5.5).
 */
#define COMPARE_ALPHA 0.01

/*
 * Rounds in time order whose log ratios follow each other (a host state longer than a round)
 * are worth fewer independent ones than their count: while the lag-1 autocorrelation is above
 * COMPARE_LAG1_MAX (and above twice its standard error, compare.c: correlated) and the means of
 * consecutive pairs would still be COMPARE_BATCH_MIN or more,
 * the pairs are averaged (batch means) before a test or an interval
 * (../shared/research/stats-anchors.md, 4.4).  Never fewer: 2^-n bounds a signed-rank p, and
 * batched below a dozen values nothing could be claimed however far apart two kernels are.
 */
#define COMPARE_LAG1_MAX 0.3
#define COMPARE_BATCH_MIN 12

/*
 * Planned looks (stats-anchors.md, 4.5).  The answer is judged after every round, and a kernel
 * proven in or out stops being measured, so a test read at every round would be read until it
 * errs.  A claim is read only over the first COMPARE_LOOK_FIRST pairs of an analysis, or the
 * first 2, 4 ... times as many, COMPARE_LOOKS looks in all, each at COMPARE_ALPHA /
 * COMPARE_LOOKS (Bonferroni over the looks holds under any dependence between them).  Pairs past
 * a look wait for the next; a series still correlated at a look (after batching, which keeps
 * at least COMPARE_LOOK_FIRST means) claims nothing there.  At 16 pairs Holm's first step can
 * pass in groups of up to ~55 kernels; 512 pairs, the last look, is more than a duel of the
 * smallest points gets in a quick run's budget.
 */
#define COMPARE_LOOK_FIRST 16
#define COMPARE_LOOKS 6
#define COMPARE_LOOK_LAST (COMPARE_LOOK_FIRST << (COMPARE_LOOKS - 1))

/*
 * The edge claim's half-width as a share of the band: with a band of 3 %, "edge" is 0 % to 6 %
 * behind the best.  A kernel's claim needs the one with the widest margin from its true ratio
 * r proven: in (r - 0.97), out (0.97 - r) or edge (r - 0.94 or 1 - r, the nearer), so at the
 * whole band no kernel is nearer than 1.5 % to every claim (at r = 0.955 and 0.985), where at
 * half the band one at 0.9775 was 0.75 % from each and needed four times the pairs.  A wider
 * edge would claim a kernel faster than the best to be near the edge below it.
 */
#define COMPARE_EDGE 1.0

/* The share of the band by which a kernel must lead the group's best in their paired rounds
 * (median log ratio) to take its place (compare.c, keep_best). */
#define COMPARE_KEEP_BEST (1.0 / 3)

/* Levels of a pair's intervals: decided by the two-sided 95 %, tie by the 90 % (TOST). */
#define COMPARE_DECIDED_LEVEL 0.95
#define COMPARE_TIE_LEVEL 0.90

/* One kernel against another of its group, over the rounds both were measured in. */
struct pair {
	size_t other;         /* the other point, an index into the sweep */
	int n;                /* rounds paired */
	double ratio;         /* Hodges–Lehmann estimate of this point's GB/s / the other's */
	double lo, hi;        /* its 95 % interval (signed_rank.h); NAN when n is too small */
	enum verdict verdict; /* by the rule above */
};

/* What the comparisons say about one point. */
struct compare_point {
	unsigned rank;     /* 1 = its group's leader, 2 the runner-up...; 0 = unranked.  By median
			    * GB/s, then adjacent pairs whose paired ratio says otherwise swapped;
			    * the last leader stays first unless COMPARE_KEEP_BEST behind */
	double median;     /* the median GB/s of its samples */
	struct pair next;  /* against the point ranked just below it (VERDICT_NONE for the last) */
	struct pair memset;/* against its group's memset (VERDICT_NONE for memset or without one) */
	struct pair best;  /* against its group's best (VERDICT_NONE for the best itself) */
	enum winner_set set; /* in, out or open against the best */
	int more;          /* open: the duels its claim is projected to need still (compare.c,
			    * pairs_needed), INT_MAX when none is in sight by the last look;
			    * 0 otherwise */
};

/* The kernel every other is also paired with: what a program gets without choosing. */
#define COMPARE_BASELINE "memset"

/* The same function measured as a second kernel: a group that puts it out against memset, or
 * memset out against it, made a wrong claim, so every run shows its own false-claim rate. */
#define COMPARE_TWIN "memset_twin"

struct compare_memo; /* compare.c's */

struct compare {
	const struct point *pts;  /* the sweep */
	const struct groups *g;   /* its groups */
	double band;              /* --tie-band: a ratio within 1 +- band is a tie */
	bool paired;              /* two rounds or more: comparisons exist (else ranks only) */
	struct compare_point *pt; /* one per point */
	size_t *leader;           /* per group: its rank-1 point (the best), or (size_t)-1; kept
				   * from one update to the next (keep_best) */
	enum verdict *answer;     /* per group: decided when no kernel is open, else undecided */
	size_t *open;             /* per group: its open kernels */
	size_t count[4];          /* groups by answer, indexed by enum verdict */
	struct compare_memo *memo; /* one per point: the last update's results with their inputs,
				    * reused while those are the same (compare.c) */
};

/* Room for g's points and groups; false when out of memory. */
bool compare_init(struct compare *c, const struct point *pts, const struct groups *g,
		  double band);

void compare_free(struct compare *c);

/*
 * Rank every group from hist[i], point i's history (NULL when unmeasured or failed: unranked),
 * pair its points and sort them into the winner set.  A group's answer is decided when none of
 * its kernels is open, undecided otherwise (and without rounds to pair); VERDICT_NONE with
 * fewer than two ranked points.  paired says whether the rounds allow pairs at all.  false
 * when out of memory.
 */
bool compare_update(struct compare *c, const struct point_history *const *hist, bool paired);

/*
 * compare_update for the groups touched[g] only (every group when touched is NULL), the others
 * kept as the last update left them: a contest round may measure one group of dozens, and
 * judging all of them again after every duel cost a quick run 9.6 of its 75 s (the Turin
 * guest, 2026-12-06).  The counts are over every group.
 */
bool compare_update_touched(struct compare *c, const struct point_history *const *hist,
			    bool paired, const bool *touched);

/* The pairs of the whole group's rounds a group of k kernels needs before Holm's first step
 * can put anything in or out: the first look at which twice 2^-n (the smallest p of n pairs,
 * doubled over the two analyses) is within COMPARE_ALPHA / COMPARE_LOOKS / (k - 1). */
int compare_screening_pairs(size_t k);

/* The rounds a and b were both measured in (each sample above 0): the pairs their ratio and
 * the claims rest on; 0 when either is NULL. */
int compare_pairs(const struct point_history *a, const struct point_history *b);

/* The verdict of a ratio's 95 % interval [lo, hi] and 90 % interval [lo90, hi90] against
 * 1 +- band (undecided without an interval). */
enum verdict compare_verdict(double lo, double hi, double lo90, double hi90, double band);

#endif
