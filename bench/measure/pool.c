/*
 * pool.c — pinned worker threads, generation-counter dispatch, start barrier, timed batches.
 * Plain C, pthreads + Linux futex.  Timestamps are taken after the barrier by every thread
 * itself; the makespan (earliest start to latest end) is the only time that leaves this file.
 */
#define _GNU_SOURCE
#include "pool.h"

#include <errno.h>
#include <limits.h>
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "cycles.h"
#include "tsc.h"

/* How long an idle worker spins before sleeping: long enough to span Google Benchmark's
 * bookkeeping between two batches, short enough that idle CPUs are really idle. */
#define SPIN_NS 2000000ull

/* Bytes checked on each side of the written range for stray stores. */
#define VERIFY_GUARD 64

/* The caller's affinity, restored by pool_stop; sized at run time (machines beyond 1024 CPUs). */
static cpu_set_t *saved_affinity;
static size_t saved_affinity_size;

static void futex_wait(_Atomic unsigned *addr, unsigned val)
{
	syscall(SYS_futex, addr, FUTEX_WAIT_PRIVATE, val, NULL, NULL, 0);
}

static void futex_wake(_Atomic unsigned *addr)
{
	syscall(SYS_futex, addr, FUTEX_WAKE_PRIVATE, INT_MAX, NULL, NULL, 0);
}

static void barrier(struct pool *p)
{
	unsigned round = atomic_load(&p->released);

	if (atomic_fetch_add(&p->arrived, 1) + 1 == p->active) {
		atomic_store(&p->arrived, 0);
		atomic_fetch_add(&p->released, 1);
		return;
	}
	while (atomic_load_explicit(&p->released, memory_order_acquire) == round)
		_mm_pause();
}

static uint64_t thread_cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void batch(struct pool_thread *t, const struct pool_work *w)
{
	struct pool *p = t->pool;
	const struct pool_task *task = p->task;
	char *base = t->buf.region + w->offset;
	uint64_t cy0 = 0, wall0 = mono_ns(), cpu0 = thread_cpu_ns(); /* a syscall: before the barrier */

	barrier(p);
	if (task->late_ns && p->active > 1 && t == &p->t[p->active - 1]) {
		/* diagnostic: this thread starts late, as one woken late on a busy CPU does */
		uint64_t until = mono_ns() + task->late_ns;

		while (mono_ns() < until)
			_mm_pause();
	}
	if (t->cycles_fd >= 0)
		cy0 = cycles_read(t->cycles_fd);
	t->t0_ns = mono_ns();
	t->c0 = tsc_read();
	if (w->reads_until_stop) {
		t->read_bytes = plan_read_until(w->plan, base, task->load, &p->stop);
	} else if (task->pass_delay_ns) {
		/* a lower rate on purpose: the wait is part of the window, as MLC's delay is */
		for (uint64_t r = 0; r < p->passes; r++) {
			uint64_t until;

			plan_run(w->plan, base, task->store, task->load, task->fill, 1);
			until = mono_ns() + task->pass_delay_ns;
			while (mono_ns() < until)
				_mm_pause();
		}
	} else {
		plan_run(w->plan, base, task->store, task->load, task->fill, p->passes);
	}
	if (task->slowdown > 0 && !w->reads_until_stop) {
		/* diagnostic: a real, proportional loss of throughput inside the timed window */
		uint64_t work = mono_ns() - t->t0_ns;
		uint64_t until = t->t0_ns + work + (uint64_t)((double)work * task->slowdown);

		while (mono_ns() < until)
			_mm_pause();
	}
	if (task->stall_ns && t == p->t) {
		/* diagnostic: off the CPU inside the timed window, as a descheduled thread is */
		struct timespec ts = { (time_t)(task->stall_ns / 1000000000u),
				       (long)(task->stall_ns % 1000000000u) };

		while (nanosleep(&ts, &ts) && errno == EINTR)
			;
	}
	/* the split window is the writers' work: the last one to finish ends the readers' */
	if (w->signals_stop &&
	    atomic_fetch_add_explicit(&p->writers_done, 1, memory_order_acq_rel) + 1 == p->writers)
		atomic_store_explicit(&p->stop, true, memory_order_release);
	t->c1 = tsc_read();
	t->t1_ns = mono_ns();
	t->cyc = t->cycles_fd >= 0 ? cycles_read(t->cycles_fd) - cy0 : 0;
	t->cpu_ns = thread_cpu_ns() - cpu0;
	t->wall_ns = mono_ns() - wall0;
}

/* Bytes from the region start that prefill and verify cover: misalignment + plan + guard. */
static size_t span(const struct pool_work *w)
{
	return w->offset + w->plan->region_bytes + VERIFY_GUARD;
}

static void do_job(struct pool_thread *t)
{
	struct pool *p = t->pool;
	const struct pool_task *task = p->task;
	const struct pool_work *w = task && task->work ? &task->work[t - p->t] : NULL;
	const char *bad;

	switch (p->job) {
	case JOB_ALLOC:
		buffer_free(&t->buf);
		t->ok = buffer_alloc(&t->buf, task->alloc_len, task->pages, task->bind, t->node,
				     t->err, sizeof t->err);
		break;
	case JOB_PREFILL:
		/* also the pre-fault: every page of the span is touched by its own thread */
		memset(t->buf.region - VERIFY_GUARD, task->prefill, span(w) + VERIFY_GUARD);
		break;
	case JOB_BATCH:
		batch(t, w);
		break;
	case JOB_VERIFY:
		t->ok = plan_verify(w->plan, t->buf.region + w->offset, (unsigned char)task->fill,
				    (unsigned char)task->prefill, VERIFY_GUARD, &bad);
		t->bad = t->ok ? 0 : (uint64_t)(bad - (t->buf.region + w->offset));
		break;
	default:
		break;
	}
}

static void *worker(void *arg)
{
	struct pool_thread *t = arg;
	struct pool *p = t->pool;
	unsigned seen = 0;
	char why[160];

	if (t->open_cycles)
		t->cycles_fd = cycles_open(why, sizeof why);
	for (;;) {
		uint64_t since = mono_ns();
		unsigned g, spins = 0;

		while ((g = atomic_load_explicit(&t->go, memory_order_acquire)) == seen) {
			if (++spins % 4096 || mono_ns() - since < SPIN_NS) {
				_mm_pause();
				continue;
			}
			atomic_store(&t->sleeping, 1);
			if (atomic_load(&t->go) == seen)
				futex_wait(&t->go, seen);
			atomic_store(&t->sleeping, 0);
			since = mono_ns();
		}
		seen = g;
		if (p->job == JOB_EXIT)
			return NULL;
		do_job(t);
		atomic_fetch_add_explicit(&p->done, 1, memory_order_release);
	}
}

/* Hand job to threads [0, active) and, unless they are to exit, wait for all of them. */
static void dispatch(struct pool *p, enum pool_job job, const struct pool_task *task,
		     unsigned active)
{
	p->job = job;
	p->task = task;
	p->active = active;
	atomic_store(&p->done, 0);
	p->gen++;
	for (unsigned i = 1; i < active; i++) {
		atomic_store(&p->t[i].go, p->gen);
		if (atomic_load(&p->t[i].sleeping))
			futex_wake(&p->t[i].go);
	}
	if (job != JOB_EXIT)
		do_job(&p->t[0]);
	while (job != JOB_EXIT && atomic_load_explicit(&p->done, memory_order_acquire) + 1 < active)
		_mm_pause();
}

void pool_run(struct pool *p, enum pool_job job, const struct pool_task *task)
{
	dispatch(p, job, task, task->active);
}

struct batch_time pool_batch(struct pool *p, const struct pool_task *task, uint64_t passes)
{
	struct batch_time bt = { 0, 0, 0, 0, 0 };
	uint64_t t0 = UINT64_MAX, t1 = 0, c0 = UINT64_MAX, c1 = 0, last0 = 0;
	unsigned active = task->active;

	p->passes = passes;
	p->writers = 0;
	for (unsigned i = 0; i < active; i++)
		p->writers += task->work[i].signals_stop;
	atomic_store(&p->writers_done, 0);
	atomic_store(&p->stop, p->writers == 0);
	pool_run(p, JOB_BATCH, task);
	for (unsigned i = 0; i < active; i++) {
		const struct pool_thread *t = &p->t[i];

		t0 = t->t0_ns < t0 ? t->t0_ns : t0;
		last0 = t->t0_ns > last0 ? t->t0_ns : last0;
		t1 = t->t1_ns > t1 ? t->t1_ns : t1;
		c0 = t->c0 < c0 ? t->c0 : c0;
		c1 = t->c1 > c1 ? t->c1 : c1;
		bt.cycles += t->cyc;
		bt.read_bytes += task->work[i].reads_until_stop ? t->read_bytes : 0;
	}
	bt.ns = t1 - t0;
	bt.skew_ns = last0 - t0;
	bt.ticks = c1 - c0;
	return bt;
}

/* A CPU set holding only cpu, as large as cpu needs (CPU_ALLOC: no 1024-CPU cpu_set_t limit). */
static cpu_set_t *one_cpu(int cpu, size_t *size)
{
	cpu_set_t *set = CPU_ALLOC((size_t)cpu + 1);

	*size = CPU_ALLOC_SIZE((size_t)cpu + 1);
	if (set) {
		CPU_ZERO_S(*size, set);
		CPU_SET_S((size_t)cpu, *size, set);
	}
	return set;
}

/* The calling thread's affinity, growing the set until the kernel's CPU count fits (EINVAL). */
static void save_affinity(void)
{
	for (size_t ncpus = 1024; ncpus <= (1u << 20); ncpus *= 2) {
		CPU_FREE(saved_affinity);
		saved_affinity = CPU_ALLOC(ncpus);
		saved_affinity_size = CPU_ALLOC_SIZE(ncpus);
		if (!saved_affinity || !sched_getaffinity(0, saved_affinity_size, saved_affinity) ||
		    errno != EINVAL)
			return;
	}
}

bool pool_start(struct pool *p, unsigned n, const int *cpus, const int *nodes, bool count_cycles,
		char *err, size_t errlen)
{
	cpu_set_t *set;
	size_t size;
	char why[160];
	int rc;

	memset(p, 0, sizeof *p);
	p->t = aligned_alloc(64, n * sizeof *p->t);
	if (!p->t) {
		snprintf(err, errlen, "out of memory");
		return false;
	}
	memset(p->t, 0, n * sizeof *p->t);
	p->nthreads = n;
	save_affinity();
	for (unsigned i = 0; i < n; i++) {
		struct pool_thread *t = &p->t[i];

		t->cpu = cpus[i];
		t->node = nodes[i];
		t->pool = p;
		t->cycles_fd = -1;
	}
	set = one_cpu(cpus[0], &size);
	rc = set ? pthread_setaffinity_np(pthread_self(), size, set) : ENOMEM;
	CPU_FREE(set);
	if (rc) {
		snprintf(err, errlen, "cannot pin to CPU %d", cpus[0]);
		return false;
	}
	if (count_cycles)
		p->t[0].cycles_fd = cycles_open(why, sizeof why);
	for (unsigned i = 1; i < n; i++) {
		pthread_attr_t attr;

		/* counters are per thread: each worker opens its own, on its own CPU */
		p->t[i].open_cycles = p->t[0].cycles_fd >= 0;
		set = one_cpu(cpus[i], &size);
		pthread_attr_init(&attr);
		rc = set ? pthread_attr_setaffinity_np(&attr, size, set) : ENOMEM;
		if (!rc)
			rc = pthread_create(&p->t[i].tid, &attr, worker, &p->t[i]);
		pthread_attr_destroy(&attr);
		CPU_FREE(set);
		if (rc) {
			snprintf(err, errlen, "cannot start thread on CPU %d: %s", cpus[i], strerror(rc));
			p->nthreads = i;
			pool_stop(p);
			return false;
		}
	}
	return true;
}

void pool_stop(struct pool *p)
{
	if (!p->t)
		return;
	dispatch(p, JOB_EXIT, NULL, p->nthreads);
	for (unsigned i = 1; i < p->nthreads; i++)
		pthread_join(p->t[i].tid, NULL);
	for (unsigned i = 0; i < p->nthreads; i++) {
		buffer_free(&p->t[i].buf);
		if (p->t[i].cycles_fd >= 0)
			close(p->t[i].cycles_fd);
	}
	free(p->t);
	p->t = NULL;
	if (saved_affinity)
		sched_setaffinity(0, saved_affinity_size, saved_affinity);
}
