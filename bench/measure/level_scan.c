/*
 * level_scan.c — the threads of a level scan (level_scan.h).  Plain C, pthreads.  Each thread
 * maps its buffer once, in transparent huge pages where the kernel gives them (a 4 KiB page per
 * load would add page walks, a step of their own, to the curve), and lays a new cycle at each
 * size so the cycle covers exactly that working set; barriers keep all threads on one size.
 */
#define _GNU_SOURCE
#include "level_scan.h"

#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buffer.h"
#include "chase.h"
#include "tsc.h"

#define STR_(x) #x
#define STR(x) STR_(x)

const char level_scan_method[] =
	"a pointer chase on each thread count's CPUs at once, each thread in its own buffer "
	"(transparent huge pages), " STR(CHASE_LINES_PER_VISIT) " random lines of a page a visit, "
	"pages in random order, " STR(LEVEL_SCAN_STEPS) " sizes a doubling up past the reported "
	"last level, " STR(LEVEL_SCAN_LOADS) " timed loads a size, then the scan's temporal store "
	"kernel over the whole working set (one pass, then passes of " STR(LEVEL_SCAN_STORE_MIB)
	" MiB together timed), the median of " STR(LEVEL_SCAN_PASSES) " passes";

struct scan_shared {
	const struct level_scan *s;
	pthread_barrier_t barrier;
	unsigned nsizes;
	uint64_t bytes[EFFECTIVE_POINTS_MAX];
	double ns[LEVEL_SCAN_PASSES][EFFECTIVE_POINTS_MAX]; /* summed over threads */
	double store_ns[LEVEL_SCAN_PASSES][EFFECTIVE_POINTS_MAX]; /* the same for stores */
	pthread_mutex_t lock;
	pthread_cond_t opened;
	int gate;		  /* 0: wait, 1: every thread started, go; -1: one did not, leave */
	bool failed;
	char err[200];
};

struct scan_thread {
	struct scan_shared *sh;
	unsigned index;
	pthread_t tid;
};

/* Keeps the walk's last node, so no compiler can drop the loads. */
static void *volatile sink;

static void fail(struct scan_shared *sh, const char *what)
{
	pthread_mutex_lock(&sh->lock);
	if (!sh->failed)
		snprintf(sh->err, sizeof sh->err, "%s", what);
	sh->failed = true;
	pthread_mutex_unlock(&sh->lock);
}

/* Every thread's verdict after a barrier: the same for all, so all leave the loop together. */
static bool go_on(struct scan_shared *sh)
{
	bool on;

	pthread_barrier_wait(&sh->barrier);
	pthread_mutex_lock(&sh->lock);
	on = !sh->failed && !(sh->s->stopped && sh->s->stopped());
	pthread_mutex_unlock(&sh->lock);
	pthread_barrier_wait(&sh->barrier);
	return on;
}

/* Stores over the whole working set: one pass to make it the cache's, then timed passes of at
 * least LEVEL_SCAN_STORE_BYTES together, added to the size's ns per line. */
static void time_stores(struct scan_shared *sh, store_fn store, char *region, unsigned pass,
			unsigned i)
{
	uint64_t bytes = sh->bytes[i], reps = LEVEL_SCAN_STORE_BYTES / bytes, t0;

	reps = reps ? reps : 1;
	store(region, LEVEL_SCAN_FILL, bytes);
	pthread_barrier_wait(&sh->barrier);
	t0 = mono_ns();
	for (uint64_t r = 0; r < reps; r++)
		store(region, LEVEL_SCAN_FILL, bytes);
	t0 = mono_ns() - t0;
	pthread_mutex_lock(&sh->lock);
	sh->store_ns[pass][i] += (double)t0 * CHASE_NODE_BYTES / (double)(reps * bytes);
	pthread_mutex_unlock(&sh->lock);
}

static void *scan_thread(void *arg)
{
	struct scan_thread *t = arg;
	struct scan_shared *sh = t->sh;
	const struct level_scan *s = sh->s;
	struct buffer buf = { 0 };
	char err[200];
	cpu_set_t set;
	int gate;

	/* no barrier before every thread exists: one that could not start would be waited for */
	pthread_mutex_lock(&sh->lock);
	while (!(gate = sh->gate))
		pthread_cond_wait(&sh->opened, &sh->lock);
	pthread_mutex_unlock(&sh->lock);
	if (gate < 0)
		return NULL;
	CPU_ZERO(&set);
	CPU_SET(s->cpu[t->index], &set);
	if (sched_setaffinity(0, sizeof set, &set)) {
		snprintf(err, sizeof err, "cannot pin a thread to CPU %d", s->cpu[t->index]);
		fail(sh, err);
	} else if (!buffer_alloc(&buf, s->top_bytes, PAGES_THP, (struct membind){ MEMBIND_LOCAL },
				 s->node[t->index], err, sizeof err)) {
		fail(sh, err);
	}
	for (unsigned pass = 0; pass < LEVEL_SCAN_PASSES; pass++)
		for (unsigned k = 0; k < sh->nsizes; k++) {
			/* odd passes go down, so a slow drift weighs on the small and large sizes alike */
			unsigned i = pass % 2 ? sh->nsizes - 1 - k : k;
			void *at = buf.region;
			uint64_t t0, nodes = sh->bytes[i] / CHASE_NODE_BYTES;

			if (!go_on(sh))
				goto out;
			chase_build(buf.region, sh->bytes[i], 0x5ca1ab1e + t->index * 7919 + pass);
			/* laying wrote every line: a short walk settles the TLB and branch predictors */
			at = chase_walk(at, nodes < LEVEL_SCAN_LOADS ? nodes : LEVEL_SCAN_LOADS);
			pthread_barrier_wait(&sh->barrier);
			t0 = mono_ns();
			at = chase_walk(at, LEVEL_SCAN_LOADS);
			t0 = mono_ns() - t0;
			sink = at;
			pthread_mutex_lock(&sh->lock);
			sh->ns[pass][i] += (double)t0 / LEVEL_SCAN_LOADS;
			pthread_mutex_unlock(&sh->lock);
			if (s->store)
				time_stores(sh, s->store, buf.region, pass, i);
		}
	go_on(sh);
out:
	buffer_free(&buf);
	return NULL;
}

static int by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* The median over the passes of size i's mean over the threads. */
static double median_pass(double v[LEVEL_SCAN_PASSES][EFFECTIVE_POINTS_MAX], unsigned i,
			  unsigned threads)
{
	double m[LEVEL_SCAN_PASSES];

	for (unsigned p = 0; p < LEVEL_SCAN_PASSES; p++)
		m[p] = v[p][i] / threads;
	qsort(m, LEVEL_SCAN_PASSES, sizeof *m, by_value);
	return m[LEVEL_SCAN_PASSES / 2];
}

bool level_scan_run(const struct level_scan *s, struct latency_curve *out, char *err,
		    size_t errlen)
{
	struct scan_shared *sh = calloc(1, sizeof *sh);
	struct scan_thread *t = calloc(s->threads, sizeof *t);
	unsigned started = 0;
	bool ok;

	if (!sh || !t || !s->threads) {
		snprintf(err, errlen, "out of memory");
		free(sh);
		free(t);
		return false;
	}
	sh->s = s;
	/* LEVEL_SCAN_STEPS sizes a doubling from first_bytes, each a whole number of lines */
	for (unsigned i = 0; sh->nsizes < EFFECTIVE_POINTS_MAX; i++) {
		double x = (double)s->first_bytes * __builtin_exp2((double)i / LEVEL_SCAN_STEPS);
		uint64_t b = (uint64_t)x / CHASE_NODE_BYTES * CHASE_NODE_BYTES;

		if (b > s->top_bytes)
			break;
		sh->bytes[sh->nsizes++] = b;
	}
	pthread_mutex_init(&sh->lock, NULL);
	pthread_cond_init(&sh->opened, NULL);
	pthread_barrier_init(&sh->barrier, NULL, s->threads);
	for (; started < s->threads; started++) {
		t[started] = (struct scan_thread){ .sh = sh, .index = started };
		if (pthread_create(&t[started].tid, NULL, scan_thread, &t[started]))
			break;
	}
	pthread_mutex_lock(&sh->lock);
	sh->gate = started == s->threads ? 1 : -1;
	pthread_cond_broadcast(&sh->opened);
	pthread_mutex_unlock(&sh->lock);
	for (unsigned i = 0; i < started; i++)
		pthread_join(t[i].tid, NULL);
	ok = sh->gate > 0 && !sh->failed && !(s->stopped && s->stopped());
	if (!ok)
		snprintf(err, errlen, "%s", sh->gate < 0 ? "cannot start the scan's threads" :
			 sh->failed ? sh->err : "stopped by a signal");
	out->n = sh->nsizes;
	for (unsigned i = 0; ok && i < sh->nsizes; i++) {
		out->bytes[i] = sh->bytes[i];
		out->ns[i] = median_pass(sh->ns, i, s->threads);
		out->store_ns[i] = median_pass(sh->store_ns, i, s->threads);
	}
	pthread_barrier_destroy(&sh->barrier);
	pthread_cond_destroy(&sh->opened);
	pthread_mutex_destroy(&sh->lock);
	free(sh);
	free(t);
	return ok;
}
