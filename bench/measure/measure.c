/*
 * measure.c — one point: per-thread buffers and plans, prefill, batch calibration, repetitions.
 * Plain C.  Rates are bytes of a batch over its makespan; statistics are Google Benchmark's
 * aggregates of those per-repetition values, so the CSV and the JSON tell the same story.
 */
#include "measure.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gbench_shim.h"
#include "stats.h"
#include "quality.h"

/* Timer and barrier cost must stay under 1% of a batch. */
#define OVERHEAD_SHARE 100

/*
 * And a batch aims at five times the quality floor (--batch-ns-min, 100 us): the start skew of
 * threads woken from a spin grows with the work around it (a zero-pass batch underestimates it),
 * and interrupts average out.  Five, not two: where a call takes tens of microseconds (3-24 MiB
 * on the Turin guest) a batch costs some 20 us more than its calls, so two or three calls a
 * batch made one kernel's figure hang on its calibration's draw; memset_twin then read 5 % below
 * memset over 80 paired rounds at 6 MiB (2026-12-06, 3 calls a batch against 2).
 */
#define BATCH_AIM 5

/*
 * A later round's untimed batches before its repetitions (warm_up).  A point after another of
 * its group runs one; the first of a group's turn runs them until one is no more than
 * WARM_STEADY faster than the one before, at most WARM_MAX_NS: after other groups' points, two
 * threads storing 100 MiB each ran their first milliseconds slow, so the second of a turn of two
 * read 20-45 % above the first (the Turin guest, 2026-12-06, memset against memset_twin over 50
 * rounds; 20 ms of batches first took that to 1-3 %, where in-cache points show no such ramp).
 */
#define WARM_STEADY 0.02
#define WARM_MAX_NS 30000000ull

/* Timings behind each calibration median: one stall among them moves no median. */
#define CALIBRATION_SAMPLES 5

/* Checks of the chosen batch size against the floor, each growing it when short. */
#define CALIBRATION_CHECKS 4

/*
 * The 1% rule never asks for batches above this many floors: a zero-pass batch that slow is a
 * stall or a wake-up on a busy CPU, not the barrier (384 threads cross it in tens of us), and
 * trusting it made 2-second batches of a 16 KiB point on a shared CPU.
 */
#define OVERHEAD_AIM_MAX 100

/* The counters of a point, by their gbs_counter id. */
enum counter {
	C_GBPS, C_NS_CALL, C_TICKS_CALL, C_TICKS_LINE, C_CYCLES_CALL, C_CPU_SHARE, C_READ_GBPS,
	C_WRITE_GBPS, C_COUNT
};

_Static_assert(C_GBPS == MEASURE_COUNTER_GBPS, "measure.h names the GB/s counter's id");

/* end() may report every counter at once, and the shim's arrays hold GBS_MAX_COUNTERS. */
_Static_assert(C_COUNT <= GBS_MAX_COUNTERS, "more counters than gbench_shim.h carries");

static const char *const counter_name[C_COUNT] = {
	[C_GBPS] = "GB/s", [C_NS_CALL] = "ns/call", [C_TICKS_CALL] = "ticks/call",
	[C_TICKS_LINE] = "ticks/line", [C_CYCLES_CALL] = "cycles/call", [C_CPU_SHARE] = "cpu_share",
	[C_READ_GBPS] = "read GB/s", [C_WRITE_GBPS] = "write GB/s",
};

struct run_state {
	const struct measure_env *env;
	const struct point *p;
	struct pool_task *task;    /* what the pool runs for p; calibration switches its stall */
	struct point_history *hist; /* the point's repetitions over every round, this one's added */
	int hist_base;             /* hist->nrep before this round: a re-measured attempt restarts */
	uint64_t passes;
	uint64_t calls_per_thread;     /* per batch */
	uint64_t write_bytes, read_bytes; /* per batch, all threads, split readers' not included */
	unsigned writers;              /* threads that store: ticks/line is per line one of them wrote */
	uint64_t until_read, until_batches; /* split readers' bytes over every timed batch */
	/* accumulated over one Google Benchmark run */
	uint64_t iters, ns, ticks, cycles, run_until_read;
	uint64_t *cpu_ns, *wall_ns;    /* per thread */
	double *batch_ns, *skew;       /* each batch's makespan and start skew / makespan */
	size_t nbatch, batch_cap;
	/* each run's median batch and median skew share, in run order; the last ones are the
	 * repetitions (Google Benchmark only searches the batch count before the first) */
	double *run_batch_ns, *run_skew;
	size_t nrun, run_cap;
	bool oom;                      /* a record above could not grow: its medians are unknown */
	/* the point's, over the repetitions of its last attempt */
	double batch_ns_median;        /* median of the repetitions' median batch makespans */
	double skew_median;            /* the same of their median start skew shares */
	uint64_t timed_ns;             /* every timed batch's makespan, calibration's not included */
	bool have_batch;               /* the two above are known */
	/* what the reporter saw */
	int repetitions;           /* as Google Benchmark ran them */
	int seen;                  /* repetitions reported one by one (not with aggregates only) */
	int64_t batches;           /* timed batches per repetition */
	double *rep_gbps, *rep_read; /* each repetition's total and read GB/s, as reported */
	int nrep, rep_cap;
	bool have[C_COUNT];
	struct rep_stat st[C_COUNT];
};

static void begin(void *ctx)
{
	struct run_state *rs = ctx;

	rs->iters = rs->ns = rs->ticks = rs->cycles = rs->run_until_read = 0;
	rs->nbatch = 0;
	memset(rs->cpu_ns, 0, rs->p->threads * sizeof *rs->cpu_ns);
	memset(rs->wall_ns, 0, rs->p->threads * sizeof *rs->wall_ns);
}

/* Make room for one more value in the parallel arrays a (and b, when given) of capacity *cap. */
static bool grow(double **a, double **b, size_t n, size_t *cap)
{
	size_t c = *cap ? 2 * *cap : 256;
	double *x, *y;

	if (n < *cap)
		return true;
	x = realloc(*a, c * sizeof *x);
	if (x)
		*a = x;
	y = x && b ? realloc(*b, c * sizeof *y) : NULL;
	if (y)
		*b = y;
	if (!x || (b && !y))
		return false;
	*cap = c;
	return true;
}

static double batch(void *ctx)
{
	struct run_state *rs = ctx;
	struct batch_time bt = pool_batch(rs->env->pool, rs->task, rs->passes);

	if (grow(&rs->batch_ns, &rs->skew, rs->nbatch, &rs->batch_cap)) {
		rs->batch_ns[rs->nbatch] = (double)bt.ns;
		rs->skew[rs->nbatch++] = bt.ns ? (double)bt.skew_ns / (double)bt.ns : 0;
	} else {
		rs->oom = true;
	}

	rs->iters++;
	rs->ns += bt.ns;
	rs->timed_ns += bt.ns;
	rs->ticks += bt.ticks;
	rs->cycles += bt.cycles;
	rs->run_until_read += bt.read_bytes;
	rs->until_read += bt.read_bytes;
	rs->until_batches++;
	for (unsigned i = 0; i < rs->p->threads; i++) {
		rs->cpu_ns[i] += rs->env->pool->t[i].cpu_ns;
		rs->wall_ns[i] += rs->env->pool->t[i].wall_ns;
	}
	return (double)bt.ns / 1e9;
}

static size_t end(void *ctx, struct gbs_counter *out)
{
	struct run_state *rs = ctx;
	double calls = (double)rs->iters * (double)rs->calls_per_thread, lines = 0, share = 1;
	double written = (double)rs->write_bytes * (double)rs->iters;
	double read = (double)rs->read_bytes * (double)rs->iters + (double)rs->run_until_read;
	size_t n = 0;

	if (!rs->iters || !rs->ns)
		return 0;
	if (grow(&rs->run_batch_ns, &rs->run_skew, rs->nrun, &rs->run_cap)) {
		rs->run_batch_ns[rs->nrun] = rs->nbatch ? stats_median(rs->batch_ns, rs->nbatch) : 0;
		rs->run_skew[rs->nrun++] = rs->nbatch ? stats_median(rs->skew, rs->nbatch) : 0;
	} else {
		rs->oom = true;
	}
	if (rs->writers)
		lines = written / rs->writers / 64.0;
	/* read and write over the same makespan: they add up to the total in every repetition */
	out[n++] = (struct gbs_counter){ C_GBPS, (written + read) / (double)rs->ns };
	if (rs->p->kind == POINT_MIX) {
		out[n++] = (struct gbs_counter){ C_READ_GBPS, read / (double)rs->ns };
		out[n++] = (struct gbs_counter){ C_WRITE_GBPS, written / (double)rs->ns };
	}
	out[n++] = (struct gbs_counter){ C_NS_CALL, (double)rs->ns / calls };
	if (rs->env->tsc_hz > 0) {
		out[n++] = (struct gbs_counter){ C_TICKS_CALL, (double)rs->ticks / calls };
		if (lines > 0) /* a read-only mix writes no line */
			out[n++] = (struct gbs_counter){ C_TICKS_LINE, (double)rs->ticks / lines };
	}
	if (rs->env->cycles)
		out[n++] = (struct gbs_counter){ C_CYCLES_CALL,
						 (double)rs->cycles / rs->p->threads / calls };
	/* the makespan is the slowest thread's: the least CPU any thread got is what matters */
	for (unsigned i = 0; i < rs->p->threads; i++)
		if (rs->wall_ns[i] && (double)rs->cpu_ns[i] / (double)rs->wall_ns[i] < share)
			share = (double)rs->cpu_ns[i] / (double)rs->wall_ns[i];
	out[n++] = (struct gbs_counter){ C_CPU_SHARE, share };
	return n;
}

/*
 * After a later round: every statistic over all the point's repetitions, and the per-repetition
 * total and read rates read_share() takes the median repetition's share from.
 */
static bool stats_from_history(struct run_state *rs)
{
	const struct point_history *h = rs->hist;
	double *tmp = malloc((size_t)h->nrep * sizeof *tmp);
	double *tot = malloc((size_t)h->nrep * sizeof *tot);
	double *rd = malloc((size_t)h->nrep * sizeof *rd);

	if (!tmp || !tot || !rd) {
		free(tmp);
		free(tot);
		free(rd);
		return false;
	}
	for (int k = 0; k < C_COUNT; k++)
		rs->have[k] = point_history_stat(h, k, tmp, &rs->st[k]);
	for (int i = 0; i < h->nrep; i++) {
		tot[i] = point_history_value(h, i, C_GBPS);
		rd[i] = point_history_value(h, i, C_READ_GBPS);
	}
	free(tmp);
	free(rs->rep_gbps);
	free(rs->rep_read);
	rs->rep_gbps = tot;
	rs->rep_read = rd;
	rs->nrep = rs->rep_cap = h->nrep;
	rs->repetitions = h->nrep;
	return true;
}

/*
 * Repetitions arrive first, then Google Benchmark's aggregates (with more than one repetition).
 * A single repetition is its own median, mean, min and max.
 */
static void report(void *ctx, const struct gbs_run *r)
{
	struct run_state *rs = ctx;

	rs->repetitions = (int)r->repetitions;
	if (!*r->aggregate) {
		rs->seen++;
		rs->batches = r->iterations / (int64_t)rs->calls_per_thread;
	}
	if (!*r->aggregate && !rs->rep_gbps && r->repetitions > 0) {
		rs->rep_gbps = calloc((size_t)r->repetitions, sizeof *rs->rep_gbps);
		rs->rep_read = calloc((size_t)r->repetitions, sizeof *rs->rep_read);
		rs->rep_cap = rs->rep_gbps && rs->rep_read ? (int)r->repetitions : 0;
	}
	for (size_t i = 0; i < r->ncounters; i++) {
		unsigned c = r->counters[i].id;
		double v = r->counters[i].value;
		struct rep_stat *s;

		if (!*r->aggregate && rs->nrep < rs->rep_cap && c == C_GBPS)
			rs->rep_gbps[rs->nrep] = v;
		if (!*r->aggregate && rs->nrep < rs->rep_cap && c == C_READ_GBPS)
			rs->rep_read[rs->nrep] = v;
		s = &rs->st[c];
		rs->have[c] = true;
		if (!*r->aggregate && rs->seen == 1)
			s->median = s->mean = s->min = s->max = v;
		else if (!strcmp(r->aggregate, "median"))
			s->median = v;
		else if (!strcmp(r->aggregate, "mean"))
			s->mean = v;
		else if (!strcmp(r->aggregate, "min"))
			s->min = v;
		else if (!strcmp(r->aggregate, "max"))
			s->max = v;
		else if (!strcmp(r->aggregate, "cv")) {
			s->cv = v;
			s->have_cv = true;
		}
	}
	if (!*r->aggregate && rs->nrep < rs->rep_cap)
		rs->nrep++;
	if (!*r->aggregate)
		point_history_add(rs->hist, r->counters, r->ncounters);
}

bool measure_env_init(struct measure_env *env)
{
	env->plans = calloc(env->pool->nthreads, sizeof *env->plans);
	env->work = calloc(env->pool->nthreads, sizeof *env->work);
	env->helper = calloc(1, sizeof *env->helper);
	return env->plans && env->work && env->helper;
}

void measure_env_free(struct measure_env *env)
{
	for (unsigned i = 0; env->plans && i < env->pool->nthreads; i++)
		plan_cache_free(&env->plans[i]);
	free(env->plans);
	free(env->work);
	if (env->helper)
		victim_helper_stop(*env->helper);
	free(env->helper);
	env->plans = NULL;
	env->work = NULL;
	env->helper = NULL;
}

/*
 * Thread i's plan for a read/write point.  interleave: the mix over its own region.  split: a
 * writer stores its whole region in chunk calls, a reader loads its region in chunk calls; while
 * there are writers, readers keep reading until the last writer is done (pool.c), so the bytes
 * they manage next to that store kernel are the measurement.
 */
static int mixed_plan(const struct measure_env *env, const struct point *p, unsigned i)
{
	static const struct rw_ratio all_write = { 1, 1, "100" }, all_read = { 0, 1, "0" };
	struct pool_work *w = &env->work[i];
	const struct rw_ratio *r = &p->mix.rw;
	enum rw_layout layout = p->mix.layout;
	struct rw_split split;
	char err[256];

	if (p->mix.mode == RW_MODE_split) {
		bool writes;

		if (rw_split_init(&split, p->threads, &p->mix.rw, err, sizeof err)) {
			fprintf(stderr, "storebench run: %s\n", err); /* sweep.c rules it out */
			return -1;
		}
		writes = rw_split_role(&split, i) == RW_WRITE;
		r = writes ? &all_write : &all_read;
		layout = RW_LAYOUT_spread;
		w->signals_stop = writes && split.readers;
		w->reads_until_stop = !writes && split.writers;
	}
	w->plan = plan_cache_rw(&env->plans[i], p->mix.region_bytes, p->mix.chunk_bytes, r, layout);
	if (!w->plan) {
		fprintf(stderr, "storebench run: out of memory for the plan of %s\n", p->name);
		return -1;
	}
	return 0;
}

/* Buffers big enough for p on every active thread, and each thread's part of the task. */
static int prepare(const struct measure_env *env, const struct point *p,
		   const struct pool_task *task, bool *grown)
{
	struct pool *pool = env->pool;
	bool grow = false;

	for (unsigned i = 0; i < p->threads; i++)
		grow |= pool->t[i].buf.len < task->alloc_len;
	*grown = grow;
	if (grow) {
		pool_run(pool, JOB_ALLOC, task);
		for (unsigned i = 0; i < p->threads; i++)
			if (!pool->t[i].ok) {
				fprintf(stderr, "storebench run: thread %u (CPU %d): %s\n", i,
					pool->t[i].cpu, pool->t[i].err);
				return -1;
			}
	}
	for (unsigned i = 0; i < p->threads; i++) {
		struct pool_work *w = &env->work[i];

		*w = (struct pool_work){ .offset = p->misalign };
		if (p->kind == POINT_MIX) {
			if (mixed_plan(env, p, i))
				return -1;
			continue;
		}
		w->plan = p->store.sizes ?
			plan_cache_sizes(&env->plans[i], p->store.sizes, p->store.nsizes,
					 p->store.ws_bytes, 0x5eed0000ull + i) :
			plan_cache_store(&env->plans[i], p->store.mode, p->store.call_bytes,
					 p->store.ws_bytes, 0x5eed0000ull + i);
		if (!w->plan) {
			fprintf(stderr, "storebench run: out of memory for the plan of %s\n", p->name);
			return -1;
		}
	}
	return 0;
}

/* The median of runs (odd, at most 16) timed batches of passes, in ns. */
static uint64_t median_ns(struct pool *pool, const struct pool_task *task, uint64_t passes,
			  int runs)
{
	double v[16];

	for (int i = 0; i < runs; i++)
		v[i] = (double)pool_batch(pool, task, passes).ns;
	return (uint64_t)stats_median(v, (size_t)runs);
}

/*
 * Passes per batch so that barrier + timestamps (a zero-pass batch) stay under 1% and a batch
 * lasts BATCH_AIM x floor_ns.  The time of one pass is measured over enough passes to dwarf the
 * fixed cost, else a 64-byte call would look as slow as the barrier.  Each timing is a median of
 * several, and the batch chosen is timed again unless that was the size just timed: a stall while
 * a pass was timed makes it look slow and the batch short, which the second timing sees and
 * corrects (a stall in the zero-pass batches only makes batches longer).
 */
static uint64_t calibrate(struct pool *pool, struct pool_task *task, uint64_t stall_ns,
			  double floor_ns)
{
	uint64_t aim = (uint64_t)(BATCH_AIM * floor_ns), overhead, k = 1, t, pass, passes;

	task->stall_ns = 0; /* --inject-stall hits the batches that time work, not the barrier */
	overhead = median_ns(pool, task, 0, 9);
	if (overhead > OVERHEAD_AIM_MAX * (uint64_t)floor_ns / OVERHEAD_SHARE)
		overhead = OVERHEAD_AIM_MAX * (uint64_t)floor_ns / OVERHEAD_SHARE;
	task->stall_ns = stall_ns;
	for (;;) {
		t = median_ns(pool, task, k, CALIBRATION_SAMPLES);
		if ((t >= 20 * overhead && t >= aim / 20) || k >= (1ull << 40))
			break;
		k *= 4;
	}
	pass = t > overhead ? (t - overhead) / k : t / k;
	if (!pass)
		pass = 1;
	passes = (OVERHEAD_SHARE * overhead + pass - 1) / pass;
	if (passes * pass < aim)
		passes = (aim + pass - 1) / pass;
	for (int i = 0; i < CALIBRATION_CHECKS; i++) {
		if (passes != k)
			t = median_ns(pool, task, passes, CALIBRATION_SAMPLES);
		if ((double)t >= floor_ns)
			break;
		k = passes;
		passes = (uint64_t)((double)passes * (double)aim / (double)(t ? t : 1)) + 1;
	}
	task->stall_ns = 0;
	return passes;
}

static void verify_failed(const struct measure_env *env, const struct point *p)
{
	for (unsigned i = 0; i < p->threads; i++) {
		const struct pool_thread *t = &env->pool->t[i];

		if (t->ok)
			continue;
		fprintf(stderr,
			"storebench run: %s: verification failed on thread %u: byte at region "
			"offset %llu is 0x%02x\n",
			p->name, i, (unsigned long long)t->bad,
			(unsigned char)t->buf.region[env->work[i].offset + t->bad]);
		return;
	}
}

/* Counter k's statistic v, or NAN when the reporter never gave that counter. */
static double stat_of(const struct run_state *rs, int k, double v)
{
	return rs->have[k] ? v : NAN;
}

/*
 * The read share of the bytes in the median repetition (the middle two for an even count): the
 * same in every repetition for store-only and interleave points, a measured share for split.
 */
static double read_share(const struct run_state *rs)
{
	double *tot, *rd, t = 0, r = 0;
	int n = rs->nrep;

	if (rs->p->kind != POINT_MIX)
		return 0;
	if (n == 0) /* aggregates only: their medians */
		return rs->st[C_READ_GBPS].median /
		       (rs->st[C_READ_GBPS].median + rs->st[C_WRITE_GBPS].median);
	tot = malloc((size_t)n * sizeof *tot);
	rd = malloc((size_t)n * sizeof *rd);
	if (!tot || !rd) {
		free(tot);
		free(rd);
		return rs->st[C_READ_GBPS].median / rs->st[C_GBPS].median;
	}
	for (int i = 0; i < n; i++) {
		int j = i;

		for (; j > 0 && tot[j - 1] > rs->rep_gbps[i]; j--) {
			tot[j] = tot[j - 1];
			rd[j] = rd[j - 1];
		}
		tot[j] = rs->rep_gbps[i];
		rd[j] = rs->rep_read[i];
	}
	for (int i = (n - 1) / 2; i <= n / 2; i++) {
		t += tot[i];
		r += rd[i];
	}
	free(tot);
	free(rd);
	return t > 0 ? r / t : 0;
}

/* samples, gbps_ci_low and gbps_ci_high: the interval of the median over the point's samples. */
static void interval_of(const struct point_history *h, struct point_stats *st)
{
	double *x = malloc((size_t)(h->nrep > 0 ? h->nrep : 1) * sizeof *x), median;

	if (!x)
		return;
	st->samples = point_history_samples(h, C_GBPS, x);
	if (!stats_median_ci(x, (size_t)st->samples, MEDIAN_CI_LEVEL, &median, &st->gbps_ci_low,
			     &st->gbps_ci_high))
		st->gbps_ci_low = st->gbps_ci_high = NAN;
	free(x);
}

/* The point's numbers from what the reporter saw; measured: verified, with GB/s reported. */
static void stats_of(const struct run_state *rs, bool measured, struct point_stats *st)
{
	const struct rep_stat *g = &rs->st[C_GBPS];
	double share = read_share(rs);

	*st = (struct point_stats){
		.verified = measured, .repetitions = rs->repetitions,
		.iterations = rs->seen ? rs->batches : -1, .calls_per_batch = rs->calls_per_thread,
		/* split readers read a little more or less each batch: their mean over the batches */
		.read_bytes = rs->read_bytes + (rs->until_batches ? (rs->until_read +
					rs->until_batches / 2) / rs->until_batches : 0),
		.write_bytes = rs->write_bytes, .rounds = rs->hist->rounds,
		.gbps_median = NAN, .gbps_mean = NAN, .gbps_min = NAN, .gbps_max = NAN,
		.gbps_cv = NAN, .samples = -1, .gbps_ci_low = NAN, .gbps_ci_high = NAN,
		.read_gbps = NAN, .write_gbps = NAN, .ns_per_call = NAN, .ticks_per_call = NAN,
		.ticks_per_line = NAN, .cycles_per_call = NAN, .cpu_share_min = NAN,
		.batch_ns = NAN, .start_skew_share = NAN,
		.victim = { .trials = -1, .idle_ns = NAN, .loaded_ns = NAN, .slowdown = NAN,
			    .lo = NAN, .hi = NAN, .write_gbps = NAN },
	};
	if (!measured)
		return;
	st->gbps_median = stat_of(rs, C_GBPS, g->median);
	st->gbps_mean = stat_of(rs, C_GBPS, g->mean);
	st->gbps_min = stat_of(rs, C_GBPS, g->min);
	st->gbps_max = stat_of(rs, C_GBPS, g->max);
	if (g->have_cv)
		st->gbps_cv = g->cv;
	interval_of(rs->hist, st);
	/* read and write share the makespan, so each is the total scaled by its byte share */
	st->read_gbps = stat_of(rs, C_GBPS, g->median * share);
	st->write_gbps = stat_of(rs, C_GBPS, g->median - g->median * share);
	st->ns_per_call = stat_of(rs, C_NS_CALL, rs->st[C_NS_CALL].median);
	st->ticks_per_call = stat_of(rs, C_TICKS_CALL, rs->st[C_TICKS_CALL].median);
	st->ticks_per_line = stat_of(rs, C_TICKS_LINE, rs->st[C_TICKS_LINE].median);
	st->cycles_per_call = stat_of(rs, C_CYCLES_CALL, rs->st[C_CYCLES_CALL].median);
	st->cpu_share_min = stat_of(rs, C_CPU_SHARE, rs->st[C_CPU_SHARE].min);
	if (rs->have_batch) {
		st->batch_ns = rs->batch_ns_median;
		st->start_skew_share = rs->skew_median;
	}
}

/* The point's median batch and skew over the repetitions of this attempt (the last runs). */
static void point_medians(struct run_state *rs)
{
	size_t reps = rs->repetitions > 0 && (size_t)rs->repetitions < rs->nrun ?
			      (size_t)rs->repetitions : rs->nrun;
	size_t first = rs->nrun - reps;

	rs->have_batch = reps && !rs->oom;
	if (!rs->have_batch)
		return;
	rs->batch_ns_median = stats_median(rs->run_batch_ns + first, reps);
	rs->skew_median = stats_median(rs->run_skew + first, reps);
}

/*
 * The reasons this attempt's numbers may be bent, by the rules and limits of quality.h.
 * interval: the statistics are over rounds that give the median an interval; a CPU share is
 * then judged by its median repetition, since the repetitions that lost their CPU are a
 * minority of the round samples, which the interval's order statistics step over.
 */
static unsigned judge(const struct quality_limits *l, const struct run_state *rs, bool interval)
{
	const struct rep_stat *g = &rs->st[C_GBPS];
	const struct rep_stat *share = &rs->st[C_CPU_SHARE];
	unsigned q = 0;

	if (rs->have[C_CPU_SHARE] && (interval ? share->median : share->min) < l->cpu_share_min)
		q |= QUALITY_shared_cpu;
	if (g->have_cv && g->cv > l->cv_max)
		q |= QUALITY_cv;
	if (rs->have_batch && rs->batch_ns_median < l->batch_ns_min)
		q |= QUALITY_short_batch;
	if (rs->have_batch && rs->skew_median > l->skew_max)
		q |= QUALITY_skew;
	if (quality_outlier(rs->rep_gbps, (size_t)rs->nrep, l))
		q |= QUALITY_outlier;
	return q;
}

/*
 * Untimed batches of passes, so the timed ones start from this kernel's own state of the caches,
 * not the one the kernel before it left (a streaming store's empty cache, a temporal one's dirty
 * lines): without one, memset against memset_twin at 24 MiB scattered 0.35-0.40 (sd of the log
 * ratio over 60 rounds), with one 0.06-0.15.  One batch, or at a turn's start until steady
 * (WARM_STEADY).
 */
static void warm_up(struct pool *pool, const struct pool_task *task, uint64_t passes,
		    bool turn_start)
{
	uint64_t last = pool_batch(pool, task, passes).ns, spent = last, t;

	while (turn_start && spent < WARM_MAX_NS) {
		t = pool_batch(pool, task, passes).ns;
		spent += t;
		if ((double)t >= (1 - WARM_STEADY) * (double)last)
			break;
		last = t;
	}
}

/* One attempt: calibrate (or reuse an earlier round's batch), let Google Benchmark run the
 * repetitions, judge what they gave; again: a re-measurement, which calibrates afresh. */
static unsigned attempt(const struct measure_env *env, const struct point *p,
			struct run_state *rs, bool stall, bool again)
{
	struct pool *pool = env->pool;
	struct gbs_point gp = {
		.name = p->name, .counter_names = counter_name, .ncounters = C_COUNT,
		.min_time = env->s->min_time, .repetitions = env->s->repetitions,
		.ctx = rs, .begin = begin, .batch = batch, .end = end,
	};

	rs->hist->nrep = rs->hist_base; /* a re-measured attempt replaces the first one */
	rs->until_read = rs->until_batches = 0;
	rs->repetitions = rs->seen = rs->nrep = 0;
	rs->batches = 0;
	rs->nrun = 0;
	rs->write_bytes = rs->read_bytes = 0;
	rs->writers = 0;
	memset(rs->have, 0, sizeof rs->have);
	memset(rs->st, 0, sizeof rs->st);
	/* a later round reuses the first one's batch and count: the grain of one repetition is
	 * what alternates kernels, and calibrating again would cost more than it measures; a
	 * re-measured attempt calibrates afresh */
	if (rs->hist->passes && !again) {
		rs->passes = rs->hist->passes;
		gp.iterations = rs->hist->iterations;
		warm_up(pool, rs->task, rs->passes, env->turn_start);
	} else {
		rs->passes = calibrate(pool, rs->task, stall ? (uint64_t)(env->s->stall_ms * 1e6) : 0,
				       env->s->quality.batch_ns_min);
	}
	rs->calls_per_thread = rs->passes * env->work[0].plan->calls;
	for (unsigned i = 0; i < p->threads; i++) {
		const struct pool_work *w = &env->work[i];

		rs->write_bytes += rs->passes * w->plan->write_bytes;
		rs->writers += w->plan->write_bytes > 0;
		if (!w->reads_until_stop)
			rs->read_bytes += rs->passes * w->plan->read_bytes;
	}
	gp.batch_iterations = (int64_t)rs->calls_per_thread;
	gbs_run_point(&gp, report, rs);
	point_medians(rs);
	if (rs->seen) {
		rs->hist->passes = rs->passes;
		rs->hist->iterations = rs->batches * (int64_t)rs->calls_per_thread;
	}
	return judge(&env->s->quality, rs, false);
}

/* One round of p's victim or chase probe, its writers' stores being task's (victim.h). */
static int probe(const struct measure_env *env, const struct point *p, const struct pool_task *task,
		 struct point_history *hist, struct victim_result *out)
{
	struct victim_run run = {
		.pool = env->pool, .task = task, .v = &p->victim, .load = env->s->load->fn,
		.llc_bytes = env->s->llc_bytes, .seed = 0xc4a5e5eedull,
	};

	return victim_probe(env->helper, &run, hist, out);
}

/* Whether --inject-slowdown bends k's points: every kernel's, or those it names. */
static bool slowed(const struct measure_settings *s, const struct kernel *k)
{
	for (size_t i = 0; s->slowed && i < s->nslowed; i++)
		if (s->slowed[i] == k)
			return true;
	return !s->slowed;
}

int measure_point(const struct measure_env *env, const struct point *p,
		  struct point_history **hist, struct point_result *res)
{
	struct pool *pool = env->pool;
	struct pool_task task = {
		.active = p->threads, .alloc_len = point_region_bytes(p), .pages = env->s->pages,
		.bind = env->s->bind, .store = kernel_store_at(p->k, point_call_bytes(p)),
		.load = env->s->load->fn,
		.fill = (int)env->s->fill, .prefill = (int)env->s->prefill,
		.slowdown = slowed(env->s, p->k) ? env->s->slowdown : 0,
		.late_ns = (uint64_t)(env->s->skew_us * 1e3), .work = env->work,
	};
	struct run_state rs;
	struct victim_result victim;
	unsigned q;
	bool ok = true, oom = false, checked, grown;

	memset(res, 0, sizeof *res);
	memset(&rs, 0, sizeof rs);
	rs.env = env;
	rs.p = p;
	rs.task = &task;
	if (!*hist)
		*hist = point_history_new(C_COUNT);
	rs.hist = *hist;
	rs.cpu_ns = calloc(p->threads, sizeof *rs.cpu_ns);
	rs.wall_ns = calloc(p->threads, sizeof *rs.wall_ns);
	if (!rs.hist || !rs.cpu_ns || !rs.wall_ns) {
		fprintf(stderr, "storebench run: out of memory\n");
		free(rs.cpu_ns);
		free(rs.wall_ns);
		return -1;
	}
	rs.hist_base = rs.hist->nrep;
	/* a point verified in an earlier round runs the same plan on the same buffer layout: its
	 * later rounds are neither prefilled (unless a buffer was just mapped: the prefill is its
	 * pre-fault) nor verified again, two passes over the working set saved per round */
	checked = rs.hist->rounds > 0;
	if (prepare(env, p, &task, &grown)) {
		free(rs.cpu_ns);
		free(rs.wall_ns);
		return -1;
	}
	if (!checked || grown)
		pool_run(pool, JOB_PREFILL, &task);
	/* short batches or an outlier: what calibration got wrong or a passing stall, so once more */
	q = attempt(env, p, &rs, env->stall, false);
	if (q & (QUALITY_short_batch | QUALITY_outlier)) {
		gbs_emit(false);
		res->remeasured = true;
		q = attempt(env, p, &rs, env->stall, true);
	}
	gbs_emit(true);
	if (!checked) {
		pool_run(pool, JOB_VERIFY, &task);
		for (unsigned i = 0; i < p->threads; i++)
			ok &= pool->t[i].ok;
	}
	if (!ok)
		verify_failed(env, p);
	/* the round's sample, from the repetitions this round kept */
	if (ok && !point_history_end_round(rs.hist, C_GBPS, rs.hist_base, env->round,
					   rs.have_batch ? rs.skew_median : NAN)) {
		fprintf(stderr, "storebench run: out of memory for the samples of %s\n", p->name);
		ok = false;
		oom = true;
	}
	/* a later round: the row's numbers are over every round, and so is their judgement */
	if (++rs.hist->rounds > 1 && !oom) {
		if (rs.hist->failed || !stats_from_history(&rs)) {
			fprintf(stderr, "storebench run: out of memory for the statistics of %s\n",
				p->name);
			ok = false;
			oom = true;
		} else {
			/* once the rounds give an interval, the spread over them is its to carry: cv
			 * and outlier would only say again that the samples differ, which
			 * gbps_ci_low/high already say, with how much; a CPU lost for one short
			 * repetition, or a thread woken late in one round, bends one sample of
			 * many (judge; skew then by the median round, before by the worst) */
			unsigned spread = QUALITY_cv | QUALITY_outlier;
			bool interval = rs.hist->nsample >= MEDIAN_CI_MIN_SAMPLES;
			double skew = point_history_skew(rs.hist, interval);

			if (!isnan(skew))
				rs.skew_median = skew;
			q = (q & ~(spread | QUALITY_shared_cpu | QUALITY_skew)) |
			    (judge(&env->s->quality, &rs, interval) & ~(interval ? spread : 0u));
		}
	}
	if (ok && !oom && p->victim.mode != VICTIM_NONE) {
		int v = probe(env, p, &task, rs.hist, &victim);

		oom = v < 0;
		ok = v == 0;
	}
	stats_of(&rs, ok && rs.have[C_GBPS], &res->stats);
	if (ok && p->victim.mode != VICTIM_NONE) {
		res->stats.victim = victim;
		if (victim.idle_ns > QUALITY_VICTIM_COLD * victim.warm_ns)
			q |= QUALITY_victim_cold;
	}
	res->quality = q;
	res->timed_s = (double)rs.timed_ns / 1e9;
	free(rs.cpu_ns);
	free(rs.wall_ns);
	free(rs.rep_gbps);
	free(rs.rep_read);
	free(rs.batch_ns);
	free(rs.skew);
	free(rs.run_batch_ns);
	free(rs.run_skew);
	return oom ? -1 : ok ? 0 : 1;
}
