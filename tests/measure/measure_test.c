/*
 * measure_test.c — one point measured through the pool and Google Benchmark's runner, as a run
 * measures it (bench/measure/measure.c), from struct measure_settings alone: the numbers it
 * returns agree with each other and with the point (bytes written per batch, the counts, the
 * statistics in order), a second round adds to the first, and a later round warms the kernel
 * with untimed batches first (more of them at a group's turn's start).  Behaviour, never speed:
 * no number is compared with a rate.  Plain C.
 */
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gbench_shim.h"
#include "measure.h"
#include "test_util.h"

/* A store point of kernel name: calls of call bytes over a working set of ws, on threads. */
static struct point store_point(const char *name, uint64_t call, uint64_t ws, unsigned threads)
{
	struct point p = {
		.k = kernel_find(name), .threads = threads, .kind = POINT_STORE,
		.store = { .mode = call == ws ? WS_CALL : WS_HOT, .call_bytes = call, .ws_bytes = ws },
	};

	point_name(&p);
	return p;
}

/* Calls of counting_memset so far: the kernel of the warm-up check. */
static _Atomic unsigned long long counted_calls;

static void *counting_memset(void *dst, int c, size_t n)
{
	counted_calls++;
	return memset(dst, c, n);
}

/* The checks every measured round must pass: its numbers against each other and the point. */
static void consistent(const struct point *p, const struct point_stats *st, int rounds, int reps)
{
	CHECK(st->verified, "%s: verified", p->name);
	CHECK(st->rounds == rounds, "%s: rounds %d, want %d", p->name, st->rounds, rounds);
	CHECK(st->repetitions == reps, "%s: repetitions %d, want %d", p->name, st->repetitions,
	      reps);
	CHECK(st->iterations >= 1 && st->calls_per_batch >= 1, "%s: %lld batches of %llu calls",
	      p->name, (long long)st->iterations, (unsigned long long)st->calls_per_batch);
	/* a store point writes every call's bytes, on every thread, and reads none */
	CHECK(st->write_bytes == st->calls_per_batch * p->store.call_bytes * p->threads &&
	      st->read_bytes == 0, "%s: %llu bytes written per batch of %llu calls, %llu read",
	      p->name, (unsigned long long)st->write_bytes,
	      (unsigned long long)st->calls_per_batch, (unsigned long long)st->read_bytes);
	CHECK(st->gbps_min > 0 && st->gbps_min <= st->gbps_median &&
	      st->gbps_median <= st->gbps_max && st->gbps_min <= st->gbps_mean &&
	      st->gbps_mean <= st->gbps_max, "%s: min %g median %g mean %g max %g", p->name,
	      st->gbps_min, st->gbps_median, st->gbps_mean, st->gbps_max);
	CHECK(st->read_gbps == 0 && fabs(st->write_gbps - st->gbps_median) < 1e-9 * st->gbps_median,
	      "%s: read %g write %g of %g", p->name, st->read_gbps, st->write_gbps,
	      st->gbps_median);
	CHECK(st->gbps_cv >= 0 && st->cpu_share_min > 0 && st->cpu_share_min <= 1.001 &&
	      st->batch_ns > 0 && st->start_skew_share >= 0 && st->start_skew_share < 1,
	      "%s: cv %g cpu share %g batch %g ns skew %g", p->name, st->gbps_cv, st->cpu_share_min,
	      st->batch_ns, st->start_skew_share);
	/* ns per call is the median batch over its calls: the rate and the time tell one story */
	CHECK(st->ns_per_call > 0 && st->samples >= 1, "%s: %g ns per call, %d samples", p->name,
	      st->ns_per_call, st->samples);
	CHECK(isnan(st->cycles_per_call), "%s: cycles without counters: %g", p->name,
	      st->cycles_per_call);
}

int main(void)
{
	static const int cpus[] = { 0, 0 }, nodes[] = { 0, 0 };
	struct quality_limits vm;
	struct measure_settings s;
	struct pool pool;
	struct measure_env env = { 0 };
	struct point_history *hist = NULL, *hist2 = NULL;
	struct point_result res;
	struct point p = store_point("memset", 16 << 10, 16 << 10, 1);
	struct point two = store_point("rep_stosb", 4 << 10, 64 << 10, 2);
	char err[256] = "";
	int rc, json = open("/dev/null", O_WRONLY);

	quality_profile("vm", &vm);
	s = (struct measure_settings){
		.min_time = 0.002, .repetitions = 3, .quality = vm, .pages = PAGES_4K,
		.bind = { .kind = MEMBIND_LOCAL }, .load = &load_table[0], .fill = 0xa5,
		.prefill = 0x5a,
	};
	if (json < 0 || !gbs_init(NULL, 0) ||
	    !pool_start(&pool, 2, cpus, nodes, false, err, sizeof err)) {
		fprintf(stderr, "measure_test: cannot start: %s\n", err);
		return 1;
	}
	gbs_open(json, false, 64); /* the JSON is the runner's, not this test's */
	env = (struct measure_env){ .pool = &pool, .s = &s };
	CHECK(measure_env_init(&env), "measure_env_init");

	rc = measure_point(&env, &p, &hist, &res);
	CHECK(rc == 0 && hist, "%s: measure_point %d", p.name, rc);
	consistent(&p, &res.stats, 1, 3);
	CHECK(isnan(res.stats.gbps_ci_low) && res.stats.samples == 3,
	      "one round of 3: %d samples, no interval below 6 (ci %g)", res.stats.samples,
	      res.stats.gbps_ci_low);
	/* a second round adds its repetitions and its sample to the first's */
	env.round = 1;
	rc = measure_point(&env, &p, &hist, &res);
	CHECK(rc == 0, "%s: round 2: %d", p.name, rc);
	consistent(&p, &res.stats, 2, 6);
	CHECK(res.stats.samples == 2, "two rounds: one sample each, got %d", res.stats.samples);

	/* a later round runs one untimed batch before its timed ones, so they start from the
	 * kernel's own state of the caches; the first point of a group's turn runs batches until
	 * one is not faster than the one before (at least two) */
	{
		static const struct kernel counting = { .name = "memset", .fn = counting_memset,
							.kind = KIND_libc };
		struct point_history *h = NULL;
		struct point c = p;
		unsigned long long timed, before;

		c.k = &counting;
		env.round = 0;
		rc = measure_point(&env, &c, &h, &res);
		CHECK(rc == 0, "counting: round 1: %d", rc);
		for (int turn = 0; turn < 2; turn++) {
			env.round = 1 + turn;
			env.turn_start = turn;
			before = counted_calls;
			rc = measure_point(&env, &c, &h, &res);
			timed = 3ull * (unsigned long long)res.stats.iterations *
				res.stats.calls_per_batch;
			CHECK(rc == 0 && counted_calls - before >= timed + res.stats.calls_per_batch *
				      (turn ? 2 : 1) &&
			      /* a re-measured attempt (a busy machine) calibrates afresh */
			      (turn || res.remeasured ||
			       counted_calls - before == timed + res.stats.calls_per_batch),
			      "round %d (turn start %d): %llu calls, %llu of them timed, batches of "
			      "%llu", 2 + turn, turn, counted_calls - before, timed,
			      (unsigned long long)res.stats.calls_per_batch);
		}
		env.turn_start = false;
		point_history_free(h);
	}

	/* two threads, a working set of 16 calls: each thread's bytes are counted */
	env.round = 0;
	rc = measure_point(&env, &two, &hist2, &res);
	CHECK(rc == 0, "%s: measure_point %d", two.name, rc);
	consistent(&two, &res.stats, 1, 3);

	point_history_free(hist);
	point_history_free(hist2);
	measure_env_free(&env);
	pool_stop(&pool);
	gbs_close();
	close(json);
	return test_result("measure: a point's numbers agree with it and with each other, round "
			   "after round");
}
