/*
 * compare.c — ranks, paired ratios, verdicts and winner sets of every comparison group.
 * Plain C.  Samples are paired by the round they were taken in, not by position: a point that
 * failed verification stops being measured, and its partners' later rounds have no pair.
 */
#include "compare.h"

#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "measure.h"
#include "signed_rank.h"
#include "stats.h"

/*
 * What the last update computed for a point, kept with what it was computed from.  Samples are
 * only ever appended, so two points' rounds in common only grow: the same partner and the same
 * count of common rounds (or of planned looks) mean the same values, and the update after a
 * round that did not measure the point (most of them, once duels begin) reuses the result
 * instead of sorting every Walsh mean again.
 */
struct pair_memo {
	size_t other; /* the partner, (size_t)-1 before the first */
	int raw;      /* rounds in common with it */
	struct pair pair;
};

struct compare_memo {
	struct pair_memo next, memset, best; /* pair_of's results */
	size_t claim_best;  /* the best the claim was tested against, (size_t)-1 before the first */
	int claim_look[2];  /* the planned looks of the duels and of the group's rounds */
	double claim_p;     /* its p, doubled over the analyses (2: no claim) */
	enum winner_set claim_side;
	double sharp_p;     /* the in or out claim's p alike (edge left out), and its side */
	enum winner_set sharp_side;
	struct pair claim_duel; /* the duels' pair where they gave the claim (.lo NAN if not) */
};

const char *const verdict_name[] = {
	[VERDICT_NONE] = "", [VERDICT_DECIDED] = "decided", [VERDICT_TIE] = "tie",
	[VERDICT_UNDECIDED] = "undecided",
};

const char *const winner_set_name[] = {
	[SET_NONE] = "", [SET_IN] = "in", [SET_OUT] = "out", [SET_EDGE] = "edge",
	[SET_OPEN] = "open",
};

bool compare_init(struct compare *c, const struct point *pts, const struct groups *g,
		  double band)
{
	*c = (struct compare){ .pts = pts, .g = g, .band = band };
	c->pt = calloc(g->npoints ? g->npoints : 1, sizeof *c->pt);
	c->leader = calloc(g->ngroups ? g->ngroups : 1, sizeof *c->leader);
	c->answer = calloc(g->ngroups ? g->ngroups : 1, sizeof *c->answer);
	c->open = calloc(g->ngroups ? g->ngroups : 1, sizeof *c->open);
	c->memo = calloc(g->npoints ? g->npoints : 1, sizeof *c->memo);
	if (!c->pt || !c->leader || !c->answer || !c->open || !c->memo) {
		compare_free(c);
		return false;
	}
	for (size_t k = 0; k < g->ngroups; k++)
		c->leader[k] = (size_t)-1;
	for (size_t i = 0; i < g->npoints; i++)
		c->memo[i].next.other = c->memo[i].memset.other = c->memo[i].best.other =
			c->memo[i].claim_best = (size_t)-1;
	return true;
}

void compare_free(struct compare *c)
{
	free(c->pt);
	free(c->leader);
	free(c->answer);
	free(c->open);
	free(c->memo);
	c->memo = NULL;
	c->pt = NULL;
	c->leader = NULL;
	c->answer = NULL;
	c->open = NULL;
}

enum verdict compare_verdict(double lo, double hi, double lo90, double hi90, double band)
{
	if (!isnan(lo) && (lo > 1 + band || hi < 1 - band))
		return VERDICT_DECIDED;
	if (!isnan(lo90) && lo90 >= 1 - band && hi90 <= 1 + band)
		return VERDICT_TIE;
	return VERDICT_UNDECIDED;
}

/*
 * The log ratios of a's samples to b's over the rounds both have, into tmp (NULL: counted
 * only); how many.  With kind (a group's, by round: enum round_kind), only the rounds of that
 * kind.
 */
static int log_ratios(const struct point_history *a, const struct point_history *b,
		      const unsigned char *kind, int want, double *tmp)
{
	int i = 0, j = 0, n = 0;

	while (i < a->nsample && j < b->nsample) {
		if (a->sample_round[i] < b->sample_round[j]) {
			i++;
		} else if (a->sample_round[i] > b->sample_round[j]) {
			j++;
		} else {
			if (a->sample[i] > 0 && b->sample[j] > 0 &&
			    (!kind || kind[a->sample_round[i]] == want)) {
				if (tmp)
					tmp[n] = log(a->sample[i] / b->sample[j]);
				n++;
			}
			i++;
			j++;
		}
	}
	return n;
}

/*
 * Whether the n values of x, in time order, follow each other: a lag-1 autocorrelation over
 * COMPARE_LAG1_MAX and over twice its standard error if they did not (1 / sqrt(n)).  Below
 * ~45 values the estimate's own noise passes 0.3 often (one in eight at 16 independent values):
 * a series is batched for the dependence it shows, not for that noise (stats-anchors.md, 4.4:
 * only r1 >~ 0.4 is detectable at n = 20).
 */
static bool correlated(const double *x, int n)
{
	double r = stats_lag1(x, (size_t)n);

	return r > COMPARE_LAG1_MAX && r > 2 / sqrt((double)n);
}

/* The n values of tmp batched in pairs while they follow each other (correlated) and at
 * least least values would remain; how many remain. */
static int batched(double *tmp, int n, int least)
{
	while (n / 2 >= least && correlated(tmp, n))
		n = (int)stats_batch_pairs(tmp, (size_t)n);
	return n;
}

/* The last planned look within n pairs (COMPARE_LOOK_FIRST doubled); 0 before the first. */
static int planned_look(int n)
{
	int look = 0;

	for (int j = 0, at = COMPARE_LOOK_FIRST; j < COMPARE_LOOKS && at <= n; j++, at *= 2)
		look = at;
	return look;
}

/*
 * The values of tmp's first n a claim may be read over: the last planned look within n
 * (COMPARE_LOOK_FIRST doubled), batched while they follow each other; 0 before the first look,
 * or when they still follow each other at the fewest means allowed.
 */
static int look_of(double *tmp, int n)
{
	int look = planned_look(n);

	if (!look)
		return 0;
	look = batched(tmp, look, COMPARE_LOOK_FIRST);
	return correlated(tmp, look) ? 0 : look;
}

int compare_pairs(const struct point_history *a, const struct point_history *b)
{
	return a && b ? log_ratios(a, b, NULL, 0, NULL) : 0;
}

int compare_screening_pairs(size_t k)
{
	double level = COMPARE_ALPHA / COMPARE_LOOKS / (double)(k > 2 ? k - 1 : 1);
	int at = COMPARE_LOOK_FIRST;

	for (int j = 1; j < COMPARE_LOOKS && 2 * ldexp(1, -at) > level; j++)
		at *= 2;
	return at;
}

/* a against b over the rounds both have; tmp holds the shorter history's samples; memo the
 * last result of this pair.  false when out of memory. */
static bool pair_of(const struct point_history *a, const struct point_history *b, size_t other,
		    double band, double *tmp, struct pair_memo *memo, struct pair *p)
{
	double est, lo, hi, lo90, hi90;
	int raw = log_ratios(a, b, NULL, 0, tmp);

	if (memo->other == other && memo->raw == raw) {
		*p = memo->pair;
		return true;
	}
	*p = (struct pair){ .other = other, .ratio = NAN, .lo = NAN, .hi = NAN,
			    .verdict = VERDICT_UNDECIDED };
	p->n = batched(tmp, raw, COMPARE_BATCH_MIN);
	if (p->n) {
		if (!signed_rank_hl(tmp, (size_t)p->n, COMPARE_DECIDED_LEVEL, &est, &lo, &hi) ||
		    !signed_rank_hl(tmp, (size_t)p->n, COMPARE_TIE_LEVEL, &est, &lo90, &hi90))
			return false;
		p->ratio = exp(est);
		p->lo = exp(lo); /* exp(NAN) is NAN: no interval stays none */
		p->hi = exp(hi);
		p->verdict = compare_verdict(p->lo, p->hi, exp(lo90), exp(hi90), band);
	}
	*memo = (struct pair_memo){ .other = other, .raw = raw, .pair = *p };
	return true;
}

static const struct compare *sort_c; /* qsort has no context argument in C11 */

/* Faster first; equal medians in the sweep's order, so a rank never depends on qsort. */
static int by_median(const void *a, const void *b)
{
	size_t i = *(const size_t *)a, j = *(const size_t *)b;
	double x = sort_c->pt[i].median, y = sort_c->pt[j].median;

	if (x != y)
		return x < y ? 1 : -1;
	return (i > j) - (i < j);
}

/*
 * Medians are taken at different moments, paired ratios round by round: where they disagree the
 * pair decides, so no kernel is ranked above one it is slower than in the rounds they shared
 * (every vs_next ratio is at least 1).  Adjacent swaps, at most n passes: the order settles even
 * where three kernels' ratios go round in a circle.
 */
static void settle_order(size_t *rank, size_t n, const struct point_history *const *hist,
			 double *tmp)
{
	bool swapped = true;

	for (size_t pass = 0; swapped && pass < n; pass++) {
		swapped = false;
		for (size_t r = 0; r + 1 < n; r++) {
			int m = log_ratios(hist[rank[r]], hist[rank[r + 1]], NULL, 0, tmp);

			if (m && stats_median_select(tmp, (size_t)m) < 0) {
				size_t t = rank[r];

				rank[r] = rank[r + 1];
				rank[r + 1] = t;
				swapped = true;
			}
		}
	}
}

/*
 * The best of the last update keeps the first place while the kernel ranked above it now is
 * less than COMPARE_KEEP_BEST of the band faster in their paired rounds: kernels within a
 * fraction of a percent trade the median's first place from round to round, and every claim
 * and duel is against the best, so a best that changed with each round would leave each duel
 * without a partner.  rank[] holds the n ranked points; prev the last best or (size_t)-1.
 */
static void keep_best(size_t *rank, size_t n, size_t prev, const struct point_history *const *hist,
		      double band, double *tmp)
{
	size_t at = 0;
	int m;

	while (at < n && rank[at] != prev)
		at++;
	if (at == 0 || at == n)
		return;
	m = log_ratios(hist[rank[0]], hist[prev], NULL, 0, tmp);
	if (!m || stats_median_select(tmp, (size_t)m) >= log(1 + COMPARE_KEEP_BEST * band))
		return;
	memmove(rank + 1, rank, at * sizeof *rank);
	rank[0] = prev;
}

/* The median of a point's samples: what it is ranked by. */
static double median_of(const struct point_history *h, double *tmp)
{
	int n = point_history_samples(h, MEASURE_COUNTER_GBPS, tmp);

	return n ? stats_median_select(tmp, (size_t)n) : NAN;
}

/* One kernel's test against the best: the smaller one-sided p and the claim it would make. */
struct claim {
	size_t point;          /* the kernel's point */
	double p;              /* the chance of a wrong claim (claim_of), doubled over the two
				* analyses */
	enum winner_set side;  /* SET_IN, SET_OUT or SET_EDGE: the claim p is of */
	double sharp_p;        /* the in or out claim's p (sharp_side): made instead of an edge
				* claim where it passes the same step of Holm's */
	enum winner_set sharp_side;
};

static int by_p(const void *a, const void *b)
{
	const struct claim *x = a, *y = b;

	if (x->p != y->p)
		return x->p < y->p ? -1 : 1;
	return (x->point > y->point) - (x->point < y->point);
}

/*
 * What a round was for one group: how many of its kernels it measured.  A round of the whole
 * group (screening, or a contest of several open kernels) sets each pair ten kernels apart on
 * average; a duel measured only the best and one open kernel, back to back.  The two are
 * judged apart: the duels' pairs share the host's state, the others' do not, and mixed in one
 * test the far-apart rounds' noise would hide the duels' precision.
 */
enum round_kind { ROUND_NONE, ROUND_DUEL, ROUND_GROUP };

/* Each round's kind for the n points rank[] of a group, into kind (room for rounds). */
static void round_kinds(const size_t *rank, size_t n, const struct point_history *const *hist,
			unsigned char *kind, int rounds)
{
	memset(kind, 0, (size_t)rounds);
	for (size_t r = 0; r < n; r++)
		for (int s = 0; s < hist[rank[r]]->nsample; s++) {
			int at = hist[rank[r]]->sample_round[s];

			if (at >= 0 && at < rounds && kind[at] < 255)
				kind[at]++;
		}
	for (int at = 0; at < rounds; at++)
		kind[at] = kind[at] < 2 ? ROUND_NONE : kind[at] == 2 ? ROUND_DUEL : ROUND_GROUP;
}

/*
 * The claim the log ratios d[0..k) to the best make against the band's lower edge e =
 * log(1 - band), and its p, into *side and *p: "in" (above e), "out" (below e) or "edge"
 * (within COMPARE_EDGE of the band of it: above e_lo and below e_hi, both tested, the larger p);
 * the in or out claim alone into *sharp and *sharp_p.  Whatever the true ratio, each claim
 * that would be wrong there needs the one-sided test of that wrong side to pass (a false "in"
 * or "edge" below e_lo both need d proven above e_lo, the false "out" or "edge" above e_hi both
 * need d proven below e_hi), so the smallest p of the three is the chance of a wrong claim,
 * with no further correction; and an in or out claim made instead of an edge claim where its
 * own p passes the same step risks no more (wrong, its wrong side's test passed at that step).
 * An in or out claim says more than an edge one: a kernel 2 % behind with a tight interval is
 * in, though the edge (0-6 % behind) is farther from its estimate.  false when out of memory.
 */
static bool claim_of(const double *d, size_t k, double band, enum winner_set *side, double *p,
		     enum winner_set *sharp, double *sharp_p)
{
	double above, below, above_lo, below_lo, above_hi, below_hi, edge_p;

	if (!signed_rank_p(d, k, log(1 - band), &above, &below) ||
	    !signed_rank_p(d, k, log(1 - (1 + COMPARE_EDGE) * band), &above_lo, &below_lo) ||
	    !signed_rank_p(d, k, log(1 - (1 - COMPARE_EDGE) * band), &above_hi, &below_hi))
		return false;
	edge_p = above_lo > below_hi ? above_lo : below_hi;
	*sharp = *side = above < below ? SET_IN : SET_OUT;
	*sharp_p = *p = above < below ? above : below;
	if (edge_p < *p) {
		*side = SET_EDGE;
		*p = edge_p;
	}
	return true;
}

/*
 * Kernel a's claim against the best b (point best): over the duels and over the group's
 * rounds, each at its last planned look, the smaller p doubled, into memo (claim_p 2 when
 * neither analysis reached a look).  false when out of memory.
 */
static bool claim_over(const struct compare *c, const struct point_history *a,
		       const struct point_history *b, size_t best, const unsigned char *kind,
		       double *tmp, struct compare_memo *memo)
{
	memo->claim_p = memo->sharp_p = 2;
	memo->claim_duel = (struct pair){ .lo = NAN };
	for (int want = ROUND_DUEL; want <= ROUND_GROUP; want++) {
		int k = look_of(tmp, log_ratios(a, b, kind, want, tmp));
		enum winner_set side, sharp;
		double p, sharp_p, est, lo, hi;

		if (!k)
			continue;
		if (!claim_of(tmp, (size_t)k, c->band, &side, &p, &sharp, &sharp_p))
			return false;
		p *= 2;
		if (2 * sharp_p < memo->sharp_p) {
			memo->sharp_p = 2 * sharp_p;
			memo->sharp_side = sharp;
		}
		if (p >= memo->claim_p)
			continue;
		memo->claim_p = p;
		memo->claim_side = side;
		memo->claim_duel.lo = NAN;
		if (want != ROUND_DUEL)
			continue;
		if (!signed_rank_hl(tmp, (size_t)k, COMPARE_DECIDED_LEVEL, &est, &lo, &hi))
			return false;
		memo->claim_duel = (struct pair){ .other = best, .n = k, .ratio = exp(est),
						  .lo = exp(lo), .hi = exp(hi),
						  .verdict = VERDICT_NONE };
	}
	return true;
}

/*
 * The pairs the claim of the log ratios d[0..n) to the best is projected to need, in all, at
 * one-sided level p: the median and the MAD's standard deviation (robust to the odd stalled
 * pair) taken as the truth, the claim with the widest margin from that median (in, out or edge:
 * claim_of's), sqrt(n) x margin / sd reaching the level's normal quantile, 1.1 times that for
 * the signed-rank test's efficiency and its small-sample steps, then the planned look that
 * reads it.  INT_MAX past the last look, or when the median sits where no claim has a margin.
 * d is reordered.  What run_loop.c gives the duels to: the groups whose open kernels can be
 * settled within the budget first.
 */
static int pairs_needed(double *d, size_t n, double band, double p)
{
	double med, sd, margin, need, e = log(1 - band);
	double e_lo = log(1 - (1 + COMPARE_EDGE) * band), e_hi = log(1 - (1 - COMPARE_EDGE) * band);

	if (n < 4)
		return INT_MAX;
	med = stats_median_select(d, n);
	for (size_t i = 0; i < n; i++)
		d[i] = fabs(d[i] - med);
	sd = 1.4826 * stats_median_select(d, n);
	if (sd < 1e-3)
		sd = 1e-3;
	margin = fabs(med - e);
	if (med > e_lo && med < e_hi && fmin(med - e_lo, e_hi - med) > margin)
		margin = fmin(med - e_lo, e_hi - med);
	need = 1.1 * pow(signed_rank_normal_quantile(1 - p) * sd / margin, 2);
	if (margin < 1e-4 || need > COMPARE_LOOK_LAST)
		return INT_MAX;
	for (int at = COMPARE_LOOK_FIRST;; at *= 2)
		if (at >= need)
			return at;
}

/*
 * The winner set of the n ranked points rank[] (rank[0] the best): each other kernel's log
 * ratios to the best make one claim (claim_of) by the signed-rank test, once over the rounds
 * of the whole group and once over the duels, each at its last planned look (look_of), the
 * smaller p doubled (Bonferroni over the two), and Holm's step-down over the group at
 * COMPARE_ALPHA / COMPARE_LOOKS.  pt.best is the pair of the analysis that gave the claim's p
 * (over every round when that was the duels, too few for an interval).  Returns how many are
 * open; SIZE_MAX when out of memory.
 */
static size_t winner_set(struct compare *c, const size_t *rank, size_t n,
			 const struct point_history *const *hist, const unsigned char *kind,
			 double *tmp, struct claim *cl)
{
	size_t m = 0, open = 0;

	c->pt[rank[0]].set = SET_IN;
	for (size_t r = 1; r < n; r++) {
		size_t i = rank[r];
		struct compare_memo *memo = &c->memo[i];
		int look[2];

		c->pt[i].set = SET_OPEN;
		for (int want = ROUND_DUEL; want <= ROUND_GROUP; want++)
			look[want - ROUND_DUEL] = planned_look(
				log_ratios(hist[i], hist[rank[0]], kind, want, tmp));
		if (memo->claim_best != rank[0] || memo->claim_look[0] != look[0] ||
		    memo->claim_look[1] != look[1]) {
			memo->claim_best = rank[0];
			memo->claim_look[0] = look[0];
			memo->claim_look[1] = look[1];
			if (!claim_over(c, hist[i], hist[rank[0]], rank[0], kind, tmp, memo))
				return SIZE_MAX;
		}
		if (memo->claim_p > 1)
			continue; /* no look reached: nothing to claim */
		cl[m++] = (struct claim){ i, memo->claim_p, memo->claim_side, memo->sharp_p,
					  memo->sharp_side };
		/* the duels' interval where they gave the claim and have one; else the pair over
		 * every round */
		if (!isnan(memo->claim_duel.lo)) {
			enum verdict v = c->pt[i].best.verdict;

			c->pt[i].best = memo->claim_duel;
			c->pt[i].best.verdict = v;
		}
	}
	qsort(cl, m, sizeof *cl, by_p);
	for (size_t j = 0; j < m; j++) {
		double step = COMPARE_ALPHA / COMPARE_LOOKS / (double)(m - j);

		if (cl[j].p > step)
			break;
		c->pt[cl[j].point].set = cl[j].sharp_p <= step ? cl[j].sharp_side : cl[j].side;
	}
	for (size_t r = 1; r < n; r++)
		open += c->pt[rank[r]].set == SET_OPEN;
	/* what each open kernel's claim is projected to need, over the duels where there are
	 * some, at the level of Holm's first step among the open ones */
	for (size_t r = 1; r < n; r++) {
		struct compare_point *p = &c->pt[rank[r]];
		int duels = log_ratios(hist[rank[r]], hist[rank[0]], kind, ROUND_DUEL, tmp), k = duels;

		if (p->set != SET_OPEN)
			continue;
		if (k < COMPARE_LOOK_FIRST / 2)
			k = log_ratios(hist[rank[r]], hist[rank[0]], kind, ROUND_GROUP, tmp);
		p->more = pairs_needed(tmp, (size_t)k, c->band,
				       COMPARE_ALPHA / COMPARE_LOOKS / 2 / (double)open);
		/* reached and still open: the projection was short, so at least the next look */
		while (p->more != INT_MAX && p->more <= duels)
			p->more = p->more < COMPARE_LOOK_LAST ? 2 * p->more : INT_MAX;
		if (p->more != INT_MAX)
			p->more -= duels;
	}
	return open;
}

bool compare_update(struct compare *c, const struct point_history *const *hist, bool paired)
{
	return compare_update_touched(c, hist, paired, NULL);
}

bool compare_update_touched(struct compare *c, const struct point_history *const *hist,
			    bool paired, const bool *touched)
{
	const struct groups *g = c->g;
	size_t *rank = malloc((g->npoints ? g->npoints : 1) * sizeof *rank);
	struct claim *cl = malloc((g->npoints ? g->npoints : 1) * sizeof *cl);
	size_t cap = 1;
	int rounds = 1;
	double *tmp;
	unsigned char *kind;
	bool ok = true;

	for (size_t i = 0; i < g->npoints; i++) {
		if (hist[i] && hist[i]->nrep > (int)cap)
			cap = (size_t)hist[i]->nrep;
		/* samples are kept in round order: the last is the latest */
		if (hist[i] && hist[i]->nsample &&
		    hist[i]->sample_round[hist[i]->nsample - 1] + 1 > rounds)
			rounds = hist[i]->sample_round[hist[i]->nsample - 1] + 1;
	}
	tmp = malloc(cap * sizeof *tmp);
	kind = malloc((size_t)rounds);
	if (!rank || !tmp || !cl || !kind) {
		free(rank);
		free(tmp);
		free(cl);
		free(kind);
		return false;
	}
	c->paired = paired;
	memset(c->count, 0, sizeof c->count);
	for (size_t k = 0; ok && k < g->ngroups; k++) {
		size_t n = 0, base = (size_t)-1;

		if (touched && !touched[k]) {
			c->count[c->answer[k]]++;
			continue;
		}

		for (size_t m = g->start[k]; m < g->start[k + 1]; m++) {
			size_t i = g->member[m];

			c->pt[i] = (struct compare_point){ .median = NAN };
			if (hist[i] && hist[i]->nrep)
				c->pt[i].median = median_of(hist[i], tmp);
			if (!isnan(c->pt[i].median))
				rank[n++] = i;
		}
		sort_c = c;
		qsort(rank, n, sizeof *rank, by_median);
		if (paired) {
			settle_order(rank, n, hist, tmp);
			keep_best(rank, n, c->leader[k], hist, c->band, tmp);
		}
		for (size_t r = 0; r < n; r++) {
			c->pt[rank[r]].rank = (unsigned)r + 1;
			if (!strcmp(c->pts[rank[r]].k->name, COMPARE_BASELINE))
				base = rank[r];
		}
		for (size_t r = 0; paired && ok && r < n; r++) {
			struct compare_point *p = &c->pt[rank[r]];
			struct compare_memo *memo = &c->memo[rank[r]];
			const struct point_history *h = hist[rank[r]];

			if (r + 1 < n)
				ok &= pair_of(h, hist[rank[r + 1]], rank[r + 1], c->band, tmp,
					      &memo->next, &p->next);
			if (base != (size_t)-1 && base != rank[r])
				ok &= pair_of(h, hist[base], base, c->band, tmp, &memo->memset,
					      &p->memset);
			if (r > 0)
				ok &= pair_of(h, hist[rank[0]], rank[0], c->band, tmp, &memo->best,
					      &p->best);
		}
		c->leader[k] = n ? rank[0] : (size_t)-1;
		c->open[k] = 0;
		if (n < 2) {
			c->answer[k] = VERDICT_NONE;
		} else if (!paired) {
			c->answer[k] = VERDICT_UNDECIDED;
		} else {
			round_kinds(rank, n, hist, kind, rounds);
			c->open[k] = winner_set(c, rank, n, hist, kind, tmp, cl);
			ok &= c->open[k] != SIZE_MAX;
			c->answer[k] = c->open[k] ? VERDICT_UNDECIDED : VERDICT_DECIDED;
		}
		c->count[c->answer[k]]++;
	}
	free(rank);
	free(tmp);
	free(cl);
	free(kind);
	return ok;
}
