/*
 * victim.c — the victim and chase probes of a point: a helper thread, paired trials, medians.
 * Plain C, pthreads.  A trial's timed part runs on one CPU (the helper's, or the first writer's for
 * own), so no clock is compared across CPUs; each pair is an idle and a loaded trial back to back,
 * in alternating order and of one length, so host drift and what mere time does to a resident
 * working set move both halves of a pair alike.
 */
#define _GNU_SOURCE
#include "victim.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buffer.h"
#include "chase.h"
#include "stats.h"
#include "tsc.h"

const char *const victim_mode_name[VICTIM_MODES] = {
	[VICTIM_NONE] = "none", [VICTIM_OWN] = "own", [VICTIM_SHARED] = "shared",
	[VICTIM_REMOTE] = "remote", [VICTIM_SOCKET] = "socket", [VICTIM_CHASE] = "chase",
};

/* The helper's jobs. */
enum job { JOB_NONE, JOB_LAY, JOB_WARM, JOB_READ, JOB_CHASE, JOB_CHECK, JOB_QUIT };

/* What the buffer holds, so a point that needs the same is not laid out again. */
enum laid { LAID_NOTHING, LAID_VICTIM, LAID_CYCLE };

struct victim_helper {
	pthread_t tid;
	bool thread;            /* false for own: the jobs run on the caller, the first writer */
	int cpu, node;          /* where it runs and first touches its buffer */
	pthread_mutex_t mu;     /* with cv: the helper sleeps here between probes */
	pthread_cond_t cv;
	_Atomic int job;        /* enum job asked for, JOB_NONE once done */
	atomic_bool probing;    /* a probe runs: the helper spins between its jobs */
	/* the job's parameters, set before it is asked for */
	uint64_t bytes;         /* LAY, WARM, READ, CHECK: the span of the buffer */
	enum laid want;         /* LAY: victim bytes or a chase cycle */
	enum page_policy pages; /* LAY: a grown buffer's page size */
	struct membind bind;    /* LAY: and NUMA binding */
	uint64_t seed;          /* LAY: the cycle */
	load_fn load;           /* WARM, READ */
	/* the buffer and what it holds */
	struct buffer buf;
	enum laid laid;
	uint64_t laid_bytes;
	void *at;               /* CHASE: where the chase stands; kept from trial to trial */
	/* a chase runs until told to stop, and says when it has begun */
	_Alignas(64) atomic_bool running;
	_Alignas(64) atomic_bool stop;
	/* results */
	uint64_t ns;            /* READ, CHASE: the timed span */
	uint64_t warm_ns;       /* WARM: its second pass, the victim resident */
	uint64_t loads;         /* CHASE: dependent loads in it */
	bool ok;                /* LAY: the buffer could be had; CHECK: every byte intact */
	char err[200];          /* LAY: why not */
};

/* Keeps the load kernel's result, so no compiler can drop the loads. */
static volatile uint64_t sink;

static void lay(struct victim_helper *h)
{
	h->ok = true;
	if (h->buf.len < h->bytes) {
		buffer_free(&h->buf);
		h->laid = LAID_NOTHING;
		h->ok = buffer_alloc(&h->buf, h->bytes, h->pages, h->bind, h->node, h->err,
				     sizeof h->err);
		if (!h->ok)
			return;
	}
	if (h->laid == h->want && h->laid_bytes == h->bytes)
		return;
	/* first touched here, on the helper's own CPU: its node's memory for "local" */
	if (h->want == LAID_VICTIM)
		memset(h->buf.region, VICTIM_BYTE, h->bytes);
	else
		chase_build(h->buf.region, h->bytes, h->seed);
	h->laid = h->want;
	h->laid_bytes = h->bytes;
	h->at = h->buf.region;
}

static void chase(struct victim_helper *h)
{
	uint64_t t0, loads = 0;
	void *at = h->at;

	atomic_store_explicit(&h->running, true, memory_order_release);
	t0 = mono_ns();
	/* 64 links between looks at the flag: the look costs nothing next to 64 dependent loads */
	while (!atomic_load_explicit(&h->stop, memory_order_acquire)) {
		at = chase_walk(at, 64);
		loads += 64;
	}
	h->ns = mono_ns() - t0;
	h->loads = loads;
	h->at = at;
}

static void check(struct victim_helper *h)
{
	const unsigned char *p = (const unsigned char *)h->buf.region;

	h->ok = true;
	for (uint64_t i = 0; i < h->bytes && h->ok; i++)
		h->ok = p[i] == VICTIM_BYTE;
}

static void run_job(struct victim_helper *h, enum job job)
{
	uint64_t t0;

	switch (job) {
	case JOB_LAY:
		lay(h);
		break;
	case JOB_WARM:
		/* twice: the second pass finds what the first one's own misses evicted, and is the
		 * resident reference a trial's re-read is judged by */
		sink = h->load(h->buf.region, h->bytes);
		t0 = mono_ns();
		sink = h->load(h->buf.region, h->bytes);
		h->warm_ns = mono_ns() - t0;
		break;
	case JOB_READ:
		t0 = mono_ns();
		sink = h->load(h->buf.region, h->bytes);
		h->ns = mono_ns() - t0;
		break;
	case JOB_CHASE:
		chase(h);
		break;
	case JOB_CHECK:
		check(h);
		break;
	default:
		break;
	}
}

/*
 * The helper's next job.  During a probe it spins (pause, no memory traffic) as a running thread
 * of the victim's program would, rather than sleep: a sleeping core may go idle or, in a guest,
 * to another guest between the warming and the re-read.  Between probes it sleeps, so no later
 * point's writer shares its CPU with a spinning helper.
 */
static enum job next_job(struct victim_helper *h)
{
	int job;

	while ((job = atomic_load_explicit(&h->job, memory_order_acquire)) == JOB_NONE) {
		if (atomic_load_explicit(&h->probing, memory_order_relaxed)) {
			_mm_pause();
			continue;
		}
		pthread_mutex_lock(&h->mu);
		while (atomic_load(&h->job) == JOB_NONE && !atomic_load(&h->probing))
			pthread_cond_wait(&h->cv, &h->mu);
		pthread_mutex_unlock(&h->mu);
	}
	return (enum job)job;
}

static void *helper_main(void *arg)
{
	struct victim_helper *h = arg;
	enum job job;

	while ((job = next_job(h)) != JOB_QUIT) {
		run_job(h, job);
		atomic_store_explicit(&h->job, JOB_NONE, memory_order_release);
	}
	return NULL;
}

/* Wake a sleeping helper: something it waits for (a job, a probe) has changed. */
static void wake(struct victim_helper *h)
{
	pthread_mutex_lock(&h->mu);
	pthread_cond_broadcast(&h->cv);
	pthread_mutex_unlock(&h->mu);
}

/* A probe begins (the helper spins between jobs) or ends (it sleeps). */
static void probing(struct victim_helper *h, bool on)
{
	atomic_store(&h->probing, on);
	if (h->thread)
		wake(h);
}

/* Hand job to the helper (or run it here, for own) and, unless it is a chase, wait for it. */
static void ask(struct victim_helper *h, enum job job)
{
	if (!h->thread) {
		run_job(h, job);
		return;
	}
	if (job == JOB_CHASE) {
		atomic_store(&h->stop, false);
		atomic_store(&h->running, false);
	}
	atomic_store_explicit(&h->job, job, memory_order_release);
	if (!atomic_load(&h->probing))
		wake(h);
	/* the window starts once the chase does */
	while (job == JOB_CHASE ? !atomic_load_explicit(&h->running, memory_order_acquire)
				: atomic_load_explicit(&h->job, memory_order_acquire) != JOB_NONE)
		_mm_pause();
}

/* End a running chase and wait until its times are in. */
static void end_chase(struct victim_helper *h)
{
	atomic_store_explicit(&h->stop, true, memory_order_release);
	while (atomic_load_explicit(&h->job, memory_order_acquire) != JOB_NONE)
		_mm_pause();
}

void victim_helper_stop(struct victim_helper *h)
{
	if (!h)
		return;
	if (h->thread) {
		atomic_store(&h->job, JOB_QUIT);
		wake(h);
		pthread_join(h->tid, NULL);
	}
	pthread_mutex_destroy(&h->mu);
	pthread_cond_destroy(&h->cv);
	buffer_free(&h->buf);
	free(h);
}

/* A helper for v: the one there is when it runs where v asks, else a new one pinned there. */
static struct victim_helper *helper_for(struct victim_helper **hp, const struct victim_spec *v)
{
	bool thread = v->mode != VICTIM_OWN;
	struct victim_helper *h = *hp;
	pthread_attr_t attr;
	cpu_set_t *set;
	size_t size;
	int rc;

	if (h && h->thread == thread && h->cpu == v->cpu)
		return h;
	victim_helper_stop(h);
	*hp = h = calloc(1, sizeof *h);
	if (!h) {
		fprintf(stderr, "storebench run: out of memory for the victim\n");
		return NULL;
	}
	h->thread = thread;
	h->cpu = v->cpu;
	h->node = v->node;
	pthread_mutex_init(&h->mu, NULL);
	pthread_cond_init(&h->cv, NULL);
	if (!thread)
		return h;
	set = CPU_ALLOC((size_t)v->cpu + 1);
	size = CPU_ALLOC_SIZE((size_t)v->cpu + 1);
	pthread_attr_init(&attr);
	rc = ENOMEM;
	if (set) {
		CPU_ZERO_S(size, set);
		CPU_SET_S((size_t)v->cpu, size, set);
		rc = pthread_attr_setaffinity_np(&attr, size, set);
	}
	if (!rc)
		rc = pthread_create(&h->tid, &attr, helper_main, h);
	pthread_attr_destroy(&attr);
	CPU_FREE(set);
	if (rc) {
		fprintf(stderr, "storebench run: cannot start the %s thread on CPU %d: %s\n",
			victim_mode_name[v->mode], v->cpu, strerror(rc));
		h->thread = false;
		victim_helper_stop(h);
		*hp = NULL;
		return NULL;
	}
	return h;
}

/* Bytes the writers store in one pass of their plans. */
static uint64_t pass_bytes(const struct pool_task *task)
{
	uint64_t b = 0;

	for (unsigned i = 0; i < task->active; i++)
		b += task->work[i].plan->write_bytes;
	return b;
}

/* Busy-wait ns nanoseconds on the caller's CPU (no memory traffic but the clock's). */
static void spin_for(uint64_t ns)
{
	uint64_t until = mono_ns() + ns;

	while (mono_ns() < until)
		_mm_pause();
}

/*
 * One victim trial: warm the victim, then the writers' pass (loaded: *window_ns becomes its
 * length) or as long a wait (idle), then the timed re-read, in ns per line.  The idle trial
 * waits so that what time alone does to a resident working set (the host's interrupts and
 * other guests on a VM, the OS's ticks) is in both trials of a pair and cancels in its ratio.
 */
static double victim_trial(struct victim_helper *h, const struct victim_run *r, bool loaded,
			   uint64_t *window_ns, double *warm)
{
	double lines = (double)r->v->bytes / CHASE_NODE_BYTES;

	ask(h, JOB_WARM);
	*warm = (double)h->warm_ns / lines;
	if (loaded)
		*window_ns = pool_batch(r->pool, r->task, 1).ns;
	else
		spin_for(*window_ns);
	ask(h, JOB_READ);
	return (double)h->ns / lines;
}

/*
 * The writers' passes that fill CHASE_WINDOW_NS, from batches of growing pass counts timed until
 * one lasts an eighth of it (a single pass of a small call is mostly the barrier's time); its
 * length into *window_ns.
 */
static uint64_t window_passes(const struct victim_run *r, uint64_t *window_ns)
{
	uint64_t k = 1, ns;

	for (;;) {
		ns = pool_batch(r->pool, r->task, k).ns;
		if (ns >= CHASE_WINDOW_NS / 8 || k >= (1ull << 40))
			break;
		k *= 4;
	}
	/* passes that already fill the window (one pass of a large call): as many as were timed */
	if (ns >= CHASE_WINDOW_NS) {
		*window_ns = ns;
		return k;
	}
	*window_ns = CHASE_WINDOW_NS;
	return ns ? k * CHASE_WINDOW_NS / ns : k;
}

/*
 * One chase trial: the chase runs while the writers run passes passes (loaded: *window_ns
 * becomes that batch's length), or alone for *window_ns (idle), so the two trials of a pair
 * time windows of one length; ns per dependent load, and the writers' GB/s into *gbps.
 */
static double chase_trial(struct victim_helper *h, const struct victim_run *r, bool loaded,
			  uint64_t passes, uint64_t *window_ns, double *gbps)
{
	if (r->v->bytes <= r->llc_bytes)
		ask(h, JOB_WARM);
	ask(h, JOB_CHASE);
	if (loaded) {
		struct batch_time bt = pool_batch(r->pool, r->task, passes);

		*gbps = bt.ns ? (double)(pass_bytes(r->task) * passes) / (double)bt.ns : NAN;
		*window_ns = bt.ns ? bt.ns : *window_ns;
	} else {
		spin_for(*window_ns);
	}
	end_chase(h);
	return h->loads ? (double)h->ns / (double)h->loads : NAN;
}

/* *out from every trial of h. */
static void summarize(const struct point_history *h, bool chase, struct victim_result *out)
{
	size_t n = (size_t)h->ntrial;
	double *x = malloc((n ? n : 1) * 5 * sizeof *x), *idle, *loaded, *ratio, *gbps, *warm;

	*out = (struct victim_result){ .trials = h->ntrial, .chase = chase, .warm_ns = NAN,
				       .idle_ns = NAN, .loaded_ns = NAN, .slowdown = NAN, .lo = NAN,
				       .hi = NAN, .write_gbps = NAN };
	if (!x || !n) {
		free(x);
		return;
	}
	idle = x;
	loaded = x + n;
	ratio = x + 2 * n;
	gbps = x + 3 * n;
	warm = x + 4 * n;
	for (size_t i = 0; i < n; i++) {
		const double *t = h->trial + i * TRIAL_WIDTH;

		idle[i] = t[0];
		loaded[i] = t[1];
		ratio[i] = t[1] / t[0];
		gbps[i] = t[2];
		warm[i] = t[3];
	}
	out->idle_ns = stats_median(idle, n);
	out->loaded_ns = stats_median(loaded, n);
	if (!stats_median_ci(ratio, n, MEDIAN_CI_LEVEL, &out->slowdown, &out->lo, &out->hi))
		out->lo = out->hi = NAN;
	if (chase)
		out->write_gbps = stats_median(gbps, n);
	else
		out->warm_ns = stats_median(warm, n);
	free(x);
}

/* VICTIM_PAIRS pairs of trials of r on h into hist; 0, or -1 when out of memory. */
static int pairs(struct victim_helper *h, const struct victim_run *r0, struct point_history *hist)
{
	bool chase = r0->v->mode == VICTIM_CHASE;
	uint64_t passes = 1, window_ns = 0;
	/* a chase's writers wait after each pass as --victim-delay says (victims: never) */
	struct pool_task task = *r0->task;
	struct victim_run run = *r0;
	const struct victim_run *r = &run;

	task.pass_delay_ns = chase ? r0->v->delay_ns : 0;
	run.task = &task;

	/* the first idle trial waits as long as one pass timed here (it also warms the writers) */
	if (chase)
		passes = window_passes(r, &window_ns);
	else
		window_ns = pool_batch(r->pool, r->task, 1).ns;
	for (int i = 0; i < VICTIM_PAIRS; i++) {
		double t[2], gbps = NAN, warm = NAN;

		/* idle first in even pairs, loaded first in odd ones */
		for (int k = 0; k < 2; k++) {
			bool loaded = (k == 0) == (i % 2 == 1);
			double g = NAN, w = NAN;

			t[loaded] = chase ? chase_trial(h, r, loaded, passes, &window_ns, &g)
					  : victim_trial(h, r, loaded, &window_ns, &w);
			if (loaded)
				gbps = g;
			else
				warm = w; /* the idle trial's: the reference of its re-read */
		}
		if (!point_history_add_trial(hist, t[0], t[1], gbps, warm)) {
			fprintf(stderr, "storebench run: out of memory for the victim's trials\n");
			return -1;
		}
	}
	return 0;
}

int victim_probe(struct victim_helper **helper, const struct victim_run *r,
		 struct point_history *hist, struct victim_result *out)
{
	const struct victim_spec *v = r->v;
	bool chase = v->mode == VICTIM_CHASE;
	struct victim_helper *h = helper_for(helper, v);
	int rc;

	*out = (struct victim_result){ .chase = chase, .warm_ns = NAN, .idle_ns = NAN,
				       .loaded_ns = NAN, .slowdown = NAN, .lo = NAN, .hi = NAN,
				       .write_gbps = NAN };
	if (!h)
		return -1;
	h->bytes = v->bytes;
	h->want = chase ? LAID_CYCLE : LAID_VICTIM;
	h->pages = r->task->pages;
	h->bind = r->task->bind;
	h->seed = r->seed;
	h->load = r->load;
	ask(h, JOB_LAY);
	if (!h->ok) {
		fprintf(stderr, "storebench run: the %s buffer on CPU %d: %s\n",
			victim_mode_name[v->mode], v->cpu, h->err);
		return -1;
	}
	probing(h, true);
	rc = pairs(h, r, hist);
	probing(h, false);
	if (rc)
		return rc;
	if (!chase) {
		ask(h, JOB_CHECK);
		if (!h->ok) {
			fprintf(stderr, "storebench run: the %s victim's bytes changed: a store reached "
					"them\n", victim_mode_name[v->mode]);
			return 1;
		}
	}
	summarize(hist, chase, out);
	return 0;
}
