/*
 * victim_test.c — the victim and chase probes (bench/measure/victim.c) on this machine's CPUs: a
 * round gives VICTIM_PAIRS paired trials and a second round adds as many, the medians and the
 * interval are consistent (low <= median <= high), the victim's bytes survive the writers, the
 * writers' own bytes still verify, and a chase beside a writer reports the writers' rate.
 * Behaviour, never speed.  Plain C.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pool.h"
#include "test_util.h"
#include "victim.h"

enum { CALL = 256 << 10, VICTIM = 32 << 10, CHASE = 64 << 10, FILL = 0xa5, PREFILL = 0x5a };

static void expect_result(const char *what, const struct victim_result *r, int trials, bool chase)
{
	CHECK(r->trials == trials, "%s: %d trials, want %d", what, r->trials, trials);
	CHECK(r->idle_ns > 0 && r->loaded_ns > 0, "%s: idle %g ns, loaded %g ns", what, r->idle_ns,
	      r->loaded_ns);
	CHECK(isfinite(r->slowdown) && r->slowdown > 0, "%s: slowdown %g", what, r->slowdown);
	CHECK(r->lo <= r->slowdown && r->slowdown <= r->hi, "%s: %g outside [%g, %g]", what,
	      r->slowdown, r->lo, r->hi);
	CHECK(chase ? r->write_gbps > 0 : isnan(r->write_gbps), "%s: writers' GB/s %g", what,
	      r->write_gbps);
	CHECK(chase ? isnan(r->warm_ns) : r->warm_ns > 0, "%s: resident read %g ns a line", what,
	      r->warm_ns);
}

/* Two rounds of v's probe: the trials gather, the writers' bytes stay verified. */
static void two_rounds(struct victim_helper **helper, struct pool *pool, struct pool_task *task,
		       const struct victim_spec *v, const char *what)
{
	struct victim_run run = { .pool = pool, .task = task, .v = v,
				  .load = load_kernel_find("sse2")->fn, .llc_bytes = 1 << 20,
				  .seed = 1 };
	struct point_history *h = point_history_new(1);
	struct victim_result r;
	bool chase = v->mode == VICTIM_CHASE;

	CHECK(h, "memory");
	if (!h)
		return;
	CHECK(victim_probe(helper, &run, h, &r) == 0, "%s: round 1", what);
	expect_result(what, &r, VICTIM_PAIRS, chase);
	CHECK(victim_probe(helper, &run, h, &r) == 0, "%s: round 2", what);
	expect_result(what, &r, 2 * VICTIM_PAIRS, chase);
	CHECK(h->ntrial == 2 * VICTIM_PAIRS, "%s: %d trials kept", what, h->ntrial);
	pool_run(pool, JOB_VERIFY, task);
	CHECK(pool->t[0].ok, "%s: the writer's bytes verify after the probe", what);
	point_history_free(h);
}

int main(void)
{
	long online = sysconf(_SC_NPROCESSORS_ONLN);
	int cpus[1] = { 0 }, nodes[1] = { 0 };
	struct pool pool;
	struct plan plan = { 0 };
	struct pool_work work[1];
	struct pool_task task = {
		.active = 1, .alloc_len = CALL, .pages = PAGES_4K, .bind = { .kind = MEMBIND_LOCAL },
		.fill = FILL, .prefill = PREFILL, .work = work,
	};
	struct victim_helper *helper = NULL;
	const struct kernel *k = kernel_find("memset");
	char err[256] = "";

	if (!k || !plan_store(&plan, WS_CALL, CALL, CALL, 1) ||
	    !pool_start(&pool, 1, cpus, nodes, false, err, sizeof err)) {
		fprintf(stderr, "victim_test: cannot start: %s\n", err);
		return 1;
	}
	task.store = k->fn;
	work[0] = (struct pool_work){ .plan = &plan };
	pool_run(&pool, JOB_ALLOC, &task);
	pool_run(&pool, JOB_PREFILL, &task);
	pool_batch(&pool, &task, 1);

	two_rounds(&helper, &pool, &task,
		   &(struct victim_spec){ .mode = VICTIM_OWN, .bytes = VICTIM, .cpu = 0 }, "own");
	if (online > 1) {
		two_rounds(&helper, &pool, &task,
			   &(struct victim_spec){ .mode = VICTIM_REMOTE, .bytes = VICTIM, .cpu = 1 },
			   "victim on CPU 1");
		two_rounds(&helper, &pool, &task,
			   &(struct victim_spec){ .mode = VICTIM_CHASE, .bytes = CHASE, .cpu = 1 },
			   "chase on CPU 1");
	} else {
		printf("victim_test: one CPU online: the helper-thread probes are not run\n");
	}
	victim_helper_stop(helper);
	pool_stop(&pool);
	plan_free(&plan);
	return test_result("victim: paired trials gather over rounds, bytes intact");
}
