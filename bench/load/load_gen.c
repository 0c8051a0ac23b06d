/*
 * load_gen.c — the workers of `storebench load`: pinned threads walking their own regions in chunks,
 * each chunk stored or read as the ratio says, each byte counted when its call returns.
 * Plain C, pthreads.  Why counters and not timed calls: a load runs for minutes or hours and
 * its rate is what it did per interval, so the sampling thread reads cumulative counts (one
 * writer each, relaxed atomics, a line per thread) and no worker ever stops to report.
 */
#define _GNU_SOURCE
#include "load_gen.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tsc.h"

/* Below this much time ahead of its rate a limited writer spins; above, it sleeps. */
#define LOAD_SPIN_NS 50000

struct load_worker {
	_Alignas(64) _Atomic uint64_t read, written; /* this thread's bytes: the only rate source */
	_Alignas(64) struct load_gen *g;
	unsigned index;          /* which thread: cpu[index], node[index] */
	struct buffer buf;       /* its region */
	uint64_t touched_ns;     /* when its first touch ended */
	char err[160];           /* why it could not start, "" when it did */
	pthread_t tid;
	bool started;            /* tid is a thread to join */
};

struct load_gen {
	struct load_config c;
	struct load_worker *w;
	_Atomic unsigned ready;  /* workers done with their first touch (or failed) */
	_Atomic bool go, stop;   /* start the steady load; end it */
	uint64_t t0_ns;          /* the first touch's start */
};

static bool pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return pthread_setaffinity_np(pthread_self(), sizeof set, &set) == 0;
}

/* Wait until a thread limited to rate bytes per second since since_ns may write `next` bytes. */
static void hold_rate(const struct load_gen *g, double rate, uint64_t since_ns, uint64_t next)
{
	for (;;) {
		uint64_t due = since_ns + (uint64_t)((double)next / rate * 1e9), now = mono_ns();

		if (now >= due || atomic_load_explicit(&g->stop, memory_order_relaxed))
			return;
		if (due - now < LOAD_SPIN_NS)
			continue;
		struct timespec ts = { 0, (long)(due - now - LOAD_SPIN_NS / 2) };
		nanosleep(&ts, NULL);
	}
}

static void steady(struct load_worker *w)
{
	const struct load_config *c = &w->g->c;
	char *base = w->buf.region;
	uint64_t chunks = c->mem_bytes / c->chunk_bytes, read = 0, written = 0;
	double rate = c->write_rate > 0 ? c->write_rate / c->threads : 0;
	uint64_t since = mono_ns();
	unsigned acc = 0;

	while (!atomic_load_explicit(&w->g->stop, memory_order_relaxed)) {
		for (uint64_t i = 0; i < chunks; i++) {
			char *p = base + i * c->chunk_bytes;

			/* write_parts of every total_parts chunks, spread evenly (rw 50: R W R W) */
			acc += c->write_parts;
			if (acc >= c->total_parts) {
				acc -= c->total_parts;
				if (rate > 0)
					hold_rate(w->g, rate, since, written + c->chunk_bytes);
				c->store(p, c->fill, c->chunk_bytes);
				written += c->chunk_bytes;
				atomic_store_explicit(&w->written, written, memory_order_relaxed);
			} else {
				(void)c->read(p, c->chunk_bytes);
				read += c->chunk_bytes;
				atomic_store_explicit(&w->read, read, memory_order_relaxed);
			}
			if (atomic_load_explicit(&w->g->stop, memory_order_relaxed))
				return;
		}
	}
}

static void *worker(void *arg)
{
	struct load_worker *w = arg;
	struct load_gen *g = w->g;
	const struct load_config *c = &g->c;
	struct membind local = { .kind = MEMBIND_LOCAL };

	/* pinned first, so the region is mapped and first touched on the thread's own node */
	if (!pin(c->cpu[w->index]))
		snprintf(w->err, sizeof w->err, "thread %u: cannot pin to CPU %d", w->index,
			 c->cpu[w->index]);
	else if (buffer_alloc(&w->buf, c->mem_bytes, c->pages, local, c->node[w->index], w->err,
			      sizeof w->err))
		/* the first touch, every page dirty; in chunks, so a stop waits for one at most */
		for (uint64_t at = 0; at < c->mem_bytes && !atomic_load(&g->stop);
		     at += LOAD_TOUCH_CHUNK)
			c->k->fn(w->buf.region + at, c->fill, c->mem_bytes - at < LOAD_TOUCH_CHUNK ?
				 c->mem_bytes - at : LOAD_TOUCH_CHUNK);
	w->touched_ns = mono_ns();
	atomic_fetch_add(&g->ready, 1);
	if (w->err[0] || c->once)
		return NULL;
	while (!atomic_load(&g->go) && !atomic_load(&g->stop)) {
		struct timespec ts = { 0, 1000000 };

		nanosleep(&ts, NULL);
	}
	steady(w);
	return NULL;
}

struct load_gen *load_start(const struct load_config *c, char *err, size_t errlen)
{
	struct load_gen *g = calloc(1, sizeof *g);

	if (!g || !(g->w = aligned_alloc(64, c->threads * sizeof *g->w))) {
		snprintf(err, errlen, "out of memory");
		free(g);
		return NULL;
	}
	memset(g->w, 0, c->threads * sizeof *g->w);
	g->c = *c;
	g->t0_ns = mono_ns();
	for (unsigned i = 0; i < c->threads; i++) {
		g->w[i].g = g;
		g->w[i].index = i;
		if (pthread_create(&g->w[i].tid, NULL, worker, &g->w[i])) {
			snprintf(err, errlen, "cannot start thread %u: %s", i, strerror(errno));
			atomic_store(&g->stop, true);
			load_stop(g);
			load_free(g);
			return NULL;
		}
		g->w[i].started = true;
	}
	while (atomic_load(&g->ready) < c->threads) {
		struct timespec ts = { 0, 1000000 };

		if (c->stopped && c->stopped())
			atomic_store(&g->stop, true);
		nanosleep(&ts, NULL);
	}
	for (unsigned i = 0; i < c->threads; i++)
		if (g->w[i].err[0] || atomic_load(&g->stop)) {
			snprintf(err, errlen, "%s", g->w[i].err[0] ? g->w[i].err : "stopped by a signal");
			atomic_store(&g->stop, true);
			load_stop(g);
			load_free(g);
			return NULL;
		}
	atomic_store(&g->go, true);
	return g;
}

double load_first_touch_s(const struct load_gen *g)
{
	uint64_t last = g->t0_ns;

	for (unsigned i = 0; i < g->c.threads; i++)
		if (g->w[i].touched_ns > last)
			last = g->w[i].touched_ns;
	return (double)(last - g->t0_ns) / 1e9;
}

void load_sample(const struct load_gen *g, struct load_count *out)
{
	for (unsigned i = 0; i < g->c.threads; i++)
		out[i] = (struct load_count){
			atomic_load_explicit(&g->w[i].read, memory_order_relaxed),
			atomic_load_explicit(&g->w[i].written, memory_order_relaxed),
		};
}

void load_stop(struct load_gen *g)
{
	atomic_store(&g->stop, true);
	for (unsigned i = 0; i < g->c.threads; i++)
		if (g->w[i].started) {
			pthread_join(g->w[i].tid, NULL);
			g->w[i].started = false;
		}
}

void load_free(struct load_gen *g)
{
	if (!g)
		return;
	for (unsigned i = 0; i < g->c.threads; i++)
		if (g->w[i].buf.map)
			buffer_free(&g->w[i].buf);
	free(g->w);
	free(g);
}
