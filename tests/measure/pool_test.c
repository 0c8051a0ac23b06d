/*
 * pool_test.c — the pool of pinned threads (bench/measure/pool.c) on its own: each thread
 * allocates and prefills its own buffer, a timed batch runs every active thread's plan and only
 * theirs, verification names the first wrong byte of the thread that holds it, and a batch's
 * times are consistent (skew within the makespan, ticks with nanoseconds).  Behaviour, never
 * speed.  Plain C.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pool.h"
#include "test_util.h"

enum { THREADS = 3, CALL = 4096, WS = 64 << 10, FILL = 0xa5, PREFILL = 0x5a };

/* Whether every byte of [p, p + n) is c. */
static bool all(const char *p, size_t n, int c)
{
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)p[i] != (unsigned char)c)
			return false;
	return true;
}

static void alloc_and_prefill(struct pool *pool, struct pool_task *task)
{
	pool_run(pool, JOB_ALLOC, task);
	for (unsigned i = 0; i < THREADS; i++)
		CHECK(pool->t[i].ok && pool->t[i].buf.region && pool->t[i].buf.len >= WS,
		      "thread %u: buffer of %zu bytes (%s)", i, pool->t[i].buf.len, pool->t[i].err);
	pool_run(pool, JOB_PREFILL, task);
	for (unsigned i = 0; i < THREADS; i++)
		CHECK(all(pool->t[i].buf.region, WS, PREFILL), "thread %u: prefilled", i);
	/* each thread has a buffer of its own */
	CHECK(pool->t[0].buf.region != pool->t[1].buf.region &&
	      pool->t[1].buf.region != pool->t[2].buf.region, "three buffers");
}

/* A batch on the first two threads writes their working sets and leaves the third's alone. */
static void batch_on_active(struct pool *pool, struct pool_task *task, const struct plan *plan)
{
	struct batch_time bt;

	task->active = 2;
	bt = pool_batch(pool, task, 3);
	CHECK(bt.ns > 0 && bt.skew_ns <= bt.ns && bt.ticks > 0 && bt.read_bytes == 0,
	      "batch: %llu ns, skew %llu ns, %llu ticks, %llu read", (unsigned long long)bt.ns,
	      (unsigned long long)bt.skew_ns, (unsigned long long)bt.ticks,
	      (unsigned long long)bt.read_bytes);
	CHECK(pool->passes == 3, "3 passes, got %llu", (unsigned long long)pool->passes);
	for (unsigned i = 0; i < 2; i++)
		CHECK(all(pool->t[i].buf.region, plan->region_bytes, FILL) &&
		      pool->t[i].t1_ns >= pool->t[i].t0_ns, "thread %u: its working set stored", i);
	CHECK(all(pool->t[2].buf.region, WS, PREFILL), "thread 2 took no part: untouched");

	pool_run(pool, JOB_VERIFY, task);
	CHECK(pool->t[0].ok && pool->t[1].ok, "both verified");
}

/* A wrong byte in thread 1's region fails thread 1 alone, at that byte's offset. */
static void verify_names_the_byte(struct pool *pool, struct pool_task *task)
{
	pool->t[1].buf.region[1234] = 0;
	pool_run(pool, JOB_VERIFY, task);
	CHECK(pool->t[0].ok, "thread 0 still verified");
	CHECK(!pool->t[1].ok && pool->t[1].bad == 1234, "thread 1 failed at %llu, want 1234",
	      (unsigned long long)pool->t[1].bad);
	/* a byte stored past the plan's region, into its guard, is caught too */
	pool->t[1].buf.region[1234] = (char)FILL;
	pool->t[0].buf.region[WS] = (char)FILL;
	pool_run(pool, JOB_VERIFY, task);
	CHECK(!pool->t[0].ok && pool->t[0].bad == WS && pool->t[1].ok,
	      "a store past the region: thread 0 at %llu, thread 1 %s",
	      (unsigned long long)pool->t[0].bad, pool->t[1].ok ? "ok" : "failed");
}

int main(void)
{
	long online = sysconf(_SC_NPROCESSORS_ONLN);
	int cpus[THREADS] = { 0, online > 1 ? 1 : 0, 0 }, nodes[THREADS] = { 0, 0, 0 };
	struct pool pool;
	struct plan plan = { 0 };
	struct pool_work work[THREADS];
	struct pool_task task = {
		.active = THREADS, .alloc_len = WS, .pages = PAGES_4K,
		.bind = { .kind = MEMBIND_LOCAL }, .fill = FILL, .prefill = PREFILL, .work = work,
	};
	const struct kernel *k = kernel_find("memset");
	char err[256] = "";

	if (!k || !plan_store(&plan, WS_SEQ, CALL, WS, 1) ||
	    !pool_start(&pool, THREADS, cpus, nodes, false, err, sizeof err)) {
		fprintf(stderr, "pool_test: cannot start: %s\n", err);
		return 1;
	}
	task.store = k->fn;
	for (unsigned i = 0; i < THREADS; i++)
		work[i] = (struct pool_work){ .plan = &plan };
	CHECK(pool.nthreads == THREADS && pool.t[0].cpu == 0 && pool.t[1].cpu == cpus[1],
	      "%u threads on their CPUs", pool.nthreads);

	alloc_and_prefill(&pool, &task);
	batch_on_active(&pool, &task, &plan);
	verify_names_the_byte(&pool, &task);

	pool_stop(&pool);
	plan_free(&plan);
	return test_result("pool: own buffers, only active threads, the wrong byte named");
}
