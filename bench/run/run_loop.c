/*
 * run_loop.c — the rounds, the contests and the budget of a run, and the keys only its end
 * knows.
 * Plain C.
 */
#include "run_loop.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "options.h"
#include "progress.h"
#include "rounds.h"
#include "run_metadata.h"
#include "signals.h"
#include "winners.h"

/*
 * The CSV's rows are written again after every planned round, but after a contest round only
 * once this many seconds passed since the last time: a contest round may be one duel of a few
 * milliseconds, and a rewrite (every row formatted, the CSV and the JSON fsync'ed) cost more
 * than the duel.  A run killed outright then loses at most the contests of the last second.
 */
#define REWRITE_CONTEST_S 1.0

/*
 * Keys known only when the sweep ends (the canary's series, the winners), written by keys(out,
 * ctx) as key=value lines, into the JSON context, which waits for them.
 */
static void late_context(void (*keys)(FILE *out, const void *ctx), const void *ctx)
{
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);

	if (!m)
		return;
	keys(m, ctx);
	fclose(m);
	if (text)
		write_preamble(NULL, text, true);
	free(text);
}

/* The canary's settings and summary, for late_context. */
static void canary_keys(FILE *out, const void *ctx)
{
	canary_settings(out, "", ctx);
	canary_summary(out, "", ctx);
}

/* The run's timed seconds and share, for late_context (ctx: the seconds). */
static void timing_keys(FILE *out, const void *ctx)
{
	rows_timing_keys(out, "", *(const double *)ctx);
}

/* The winners and crossovers, for late_context. */
static void winner_keys(FILE *out, const void *ctx)
{
	winners_keys(out, "", ctx);
}

/* The round samples point i has so far. */
static int samples_of(const struct run_mem *mem, size_t i)
{
	return mem->slots[i].hist ? mem->slots[i].hist->nsample : 0;
}

/*
 * Mark group g's points of the next contest round in active; how many.  Until the best has the
 * rounds Holm's first step needs (compare_screening_pairs), every open kernel and the best;
 * then a duel: the best and the open kernel with the fewest pairs with it, so over the
 * following rounds each open kernel is measured right beside the best in turn (a pair a few
 * milliseconds apart shares the host's speed state, one ten kernels apart does not:
 * ../shared/research/pairing-measured.md).  A kernel with pairs for the last look
 * (COMPARE_LOOK_LAST duels) is not measured again: more could not change its claim.  Pairs,
 * not samples: a kernel's duels beside a best that lost its place pair with nothing now.  0
 * when no kernel is left to measure beside the best.
 */
static size_t contest_of(const struct run_mem *mem, size_t g, bool *active)
{
	const struct groups *gr = &mem->groups;
	size_t best = mem->cmp.leader[g], pick = (size_t)-1, n = 1;
	int screening = compare_screening_pairs(gr->start[g + 1] - gr->start[g]);
	bool duel = samples_of(mem, best) >= screening;
	int fewest = INT_MAX;

	active[best] = true;
	for (size_t m = gr->start[g]; m < gr->start[g + 1]; m++) {
		size_t i = gr->member[m];
		int pairs;

		if (mem->cmp.pt[i].set != SET_OPEN || i == best)
			continue;
		pairs = compare_pairs(mem->slots[i].hist, mem->slots[best].hist);
		if (pairs >= screening + COMPARE_LOOK_LAST)
			continue;
		if (!duel) {
			active[i] = true;
			n++;
		} else if (pairs < fewest) {
			pick = i;
			fewest = pairs;
		}
	}
	if (pick != (size_t)-1) {
		active[pick] = true;
		n++;
	}
	if (n > 1)
		return n;
	active[best] = false; /* nothing left to measure beside it */
	return 0;
}

/*
 * The seconds group g's open kernels are projected to need still: each one's duels still to
 * run (compare.h, more) at the cost of its last measurement and the best's, the group's own
 * figure; HUGE_VAL when one's claim is not in sight.  0 while the group is still screened
 * (no projection yet: it is measured whatever).
 */
static double group_need_s(const struct run_mem *mem, size_t g)
{
	const struct groups *gr = &mem->groups;
	size_t best = mem->cmp.leader[g];
	double need = 0;

	if (samples_of(mem, best) < compare_screening_pairs(gr->start[g + 1] - gr->start[g]))
		return 0;
	for (size_t m = gr->start[g]; m < gr->start[g + 1]; m++) {
		size_t i = gr->member[m];
		int more = mem->cmp.pt[i].more;

		if (mem->cmp.pt[i].set != SET_OPEN || i == best)
			continue;
		if (more == INT_MAX)
			return HUGE_VAL;
		need += more * (mem->slots[i].visit_s + mem->slots[best].visit_s);
	}
	return need;
}

/* Orders groups by the seconds they need (need[]), for qsort. */
static const double *need_order;

static int by_need(const void *a, const void *b)
{
	double x = need_order[*(const size_t *)a], y = need_order[*(const size_t *)b];

	return (x > y) - (x < y);
}

/*
 * Which undecided groups take part in the next contest round, into take[]: those whose open
 * kernels are projected to be settled within the budget left, fewest seconds first, as many
 * as fit together (a run's answer is decided group by group, and duels spent on a group that
 * cannot be settled in time settle nothing); every undecided group when none fits, so the
 * budget still buys pairs.  Projections are taken afresh each round, so a group left out comes
 * back once the others are settled or its own figures improve.  false when out of memory.
 */
static bool groups_taken(const struct run_mem *mem, const struct run_config *o, bool *take)
{
	const struct groups *gr = &mem->groups;
	double *need = malloc((gr->ngroups ? gr->ngroups : 1) * sizeof *need);
	size_t *order = malloc((gr->ngroups ? gr->ngroups : 1) * sizeof *order), n = 0;
	double left = o->budget_s - progress_elapsed(), sum = 0;

	if (!need || !order) {
		free(need);
		free(order);
		return false;
	}
	for (size_t g = 0; g < gr->ngroups; g++) {
		take[g] = false;
		if (mem->cmp.answer[g] != VERDICT_UNDECIDED || mem->cmp.leader[g] == (size_t)-1)
			continue;
		need[g] = group_need_s(mem, g);
		order[n++] = g;
	}
	need_order = need;
	qsort(order, n, sizeof *order, by_need);
	for (size_t k = 0; k < n && sum + need[order[k]] <= left; k++) {
		sum += need[order[k]];
		take[order[k]] = true;
	}
	if (n && !take[order[0]])
		for (size_t k = 0; k < n; k++)
			take[order[k]] = true;
	free(need);
	free(order);
	return true;
}

/*
 * After the planned rounds, a contest round of every group with open kernels (contest_of),
 * each group's points back to back, appended to mem->order, unless no kernel is open,
 * CONTEST_ROUNDS_MAX is reached or the round would end past --budget (its time estimated from the
 * rounds so far, per point measured).  Kernels proven in or out are not measured again.
 * Returns the end of the round's entries in mem->order, or 0 when no round follows.
 */
static size_t adaptive_round(struct run_mem *mem, const struct run_config *o, int round)
{
	size_t undecided = mem->cmp.count[VERDICT_UNDECIDED], n = 0, *grown;
	bool *active, *take;
	double weight = 0, per_point = progress_elapsed() / (double)mem->norder;

	if (o->rounds < 2 || o->budget_s <= 0 || !undecided || round >= CONTEST_ROUNDS_MAX)
		return 0;
	active = calloc(mem->npts ? mem->npts : 1, sizeof *active);
	take = calloc(mem->groups.ngroups ? mem->groups.ngroups : 1, sizeof *take);
	grown = realloc(mem->order, (mem->norder + mem->npts) * sizeof *grown);
	if (grown)
		mem->order = grown;
	if (!active || !take || !grown || !groups_taken(mem, o, take)) {
		free(active);
		free(take);
		return 0; /* out of memory for one more round: the rounds so far stand */
	}
	for (size_t g = 0; g < mem->groups.ngroups; g++)
		if (take[g])
			n += contest_of(mem, g, active);
	free(take);
	if (progress_elapsed() + per_point * (double)n > o->budget_s) {
		free(active);
		return 0;
	}
	n = rounds_shuffle(&mem->groups, active, &mem->rng, mem->order + mem->norder);
	free(active);
	for (size_t k = 0; k < n; k++)
		weight += point_weight(&mem->pts[mem->order[mem->norder + k]]);
	progress_adaptive(n, weight, undecided);
	mem->norder += n;
	return mem->norder;
}

/*
 * Rank and pair the groups from the slots' histories (a failed point is left out): those of
 * the points mem->order[from, to) measured, or every group when from == to.
 */
static bool compare_slots(struct run_mem *mem, bool paired, size_t from, size_t to)
{
	const struct point_history **hist = malloc((mem->npts ? mem->npts : 1) * sizeof *hist);
	bool *touched = from < to ? calloc(mem->groups.ngroups ? mem->groups.ngroups : 1,
					   sizeof *touched) : NULL;
	bool ok;

	if (!hist || (from < to && !touched)) {
		fprintf(stderr, "storebench run: out of memory for the comparisons\n");
		free(hist);
		free(touched);
		return false;
	}
	for (size_t i = 0; i < mem->npts; i++)
		hist[i] = mem->slots[i].failed ? NULL : mem->slots[i].hist;
	for (size_t k = from; k < to; k++)
		touched[mem->groups.group[mem->order[k]]] = true;
	ok = compare_update_touched(&mem->cmp, hist, paired, touched);
	if (!ok)
		fprintf(stderr, "storebench run: out of memory for the comparisons\n");
	free(hist);
	free(touched);
	return ok;
}

/* Whether measurement k begins a group's turn: it is warmed until steady (measure.h), and the
 * canaries' ticks go there, so a group's kernels stay back to back. */
static bool group_starts(const struct run_mem *mem, size_t k)
{
	return !k || mem->groups.group[mem->order[k]] != mem->groups.group[mem->order[k - 1]];
}

/* Measure mem->order[k] (in round r, the i-th of it); 0, 1 on a failed check, -1 to stop. */
static int measure_one(struct measure_env *env, struct run_mem *mem, struct rows_out *w,
		       const struct run_config *o, size_t k, int r, size_t i_round)
{
	size_t i = mem->order[k];
	const struct point *p = &mem->pts[i];
	struct point_slot *slot = &mem->slots[i];
	struct point_result res;
	int rc;

	if (slot->failed)
		return 0; /* a failed check is the point's result: no round replaces it */
	if (env->cycles)
		for (unsigned t = 0; t < p->threads; t++)
			env->cycles &= env->pool->t[t].cycles_fd >= 0;
	progress_point(r, i_round, p->name, point_weight(p));
	env->stall = k == 0 && o->stall_ms > 0;
	env->round = r;
	env->turn_start = group_starts(mem, k);
	slot->visit_s = progress_elapsed();
	rc = measure_point(env, p, &slot->hist, &res);
	slot->visit_s = progress_elapsed() - slot->visit_s;
	if (rc < 0)
		return -1;
	slot->stats = res.stats;
	slot->measured = true;
	mem->timed_s += res.timed_s;
	w->timed_s = mem->timed_s;
	/* over rounds, cv, outlier, shared_cpu, skew and victim_cold are judged again over all of
	 * them each round (measure.h) */
	if (o->rounds > 1)
		slot->quality &= ~(unsigned)(QUALITY_cv | QUALITY_outlier | QUALITY_shared_cpu |
					     QUALITY_skew | QUALITY_victim_cold);
	slot->quality |= res.quality;
	slot->remeasured |= res.remeasured;
	slot->failed = rc != 0;
	/* one round without the canary: the sweep's order, so this row and every one before it
	 * are final */
	if (o->rounds == 1 && !o->canary)
		rows_write(w, i + 1); /* a failure sets w->failed, which stops the sweep */
	return rc;
}

int run_loop(struct measure_env *env, struct run_mem *mem, struct rows_out *w,
	     const struct run_config *o)
{
	size_t k = 0, end = 0, first;
	int status = 0, rc = 0;
	double rewritten_s = 0;

	for (int r = 0; rc >= 0 && !w->failed && !signals_pending(); r++) {
		first = k;
		end = r < o->rounds ? (size_t)(r + 1) * mem->npts : adaptive_round(mem, o, r);
		if (end <= k)
			break;
		for (; k < end && !signals_pending(); k++) {
			if (o->canary && canary_due(&mem->canary)) {
				if (!slots_canary_step(&mem->canary, mem->slots, mem->npts,
						       mem->order, mem->regime, k,
						       o->rounds > 1)) {
					status = 1;
					rc = -1;
					break;
				}
				/* at one round, slots [0, k) are the points measured so far: final */
				if (!rows_canary(w, &mem->canary, o->rounds == 1 ? k : 0, false))
					break;
			} else if (o->canary && group_starts(mem, k) &&
				   canary_tick_due(&mem->canary) && !canary_tick(&mem->canary, k)) {
				fprintf(stderr, "storebench run: out of memory for the canary's passes\n");
				status = 1;
				rc = -1;
				break;
			}
			rc = measure_one(env, mem, w, o, k, r, k - first);
			if (rc >= 0)
				signals_pipe_arm(); /* a point is whole: a closed pipe may stop now */
			status |= rc != 0;
			if (rc < 0 || w->failed)
				break;
		}
		if (k < end || o->rounds == 1)
			break;
		/* a whole round just ended: every row holds one more, and the groups are judged */
		/* the planned rounds judge every group; a contest round those it measured */
		if (!compare_slots(mem, true, r < o->rounds ? 0 : first, r < o->rounds ? 0 : k)) {
			status = 1;
			break;
		}
		if (r + 1 >= o->rounds && progress_elapsed() - rewritten_s < REWRITE_CONTEST_S)
			continue;
		if (!rows_rewrite(w, o->canary ? &mem->canary : NULL, false))
			break;
		rewritten_s = progress_elapsed();
	}
	/* the closing sample judges the last points; the rest of the rows, in the sweep's order,
	 * each with the rounds it got (all of them unless stopped) */
	if (o->canary && !slots_canary_step(&mem->canary, mem->slots, mem->npts, mem->order,
					    mem->regime, k, o->rounds > 1))
		status = 1;
	if (!compare_slots(mem, o->rounds > 1, 0, 0))
		status = 1;
	if (!w->failed && o->rounds > 1)
		rows_rewrite(w, o->canary ? &mem->canary : NULL, true);
	else if (!w->failed && o->canary)
		rows_canary(w, &mem->canary, mem->npts, true);
	else if (!w->failed)
		rows_write(w, mem->npts);
	if (o->canary)
		late_context(canary_keys, &mem->canary);
	late_context(winner_keys, &mem->cmp);
	late_context(timing_keys, &mem->timed_s);
	return status;
}

void run_mem_free(struct run_mem *mem)
{
	slots_free(mem->slots, mem->npts);
	compare_free(&mem->cmp);
	groups_free(&mem->groups);
	canary_free(&mem->canary);
	free(mem->meta);
	free(mem->order);
	free(mem->regime);
	free(mem->pts);
}
