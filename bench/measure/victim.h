/*
 * victim.h — what a store strategy costs others: a victim working set re-read after the writes,
 * and a pointer chase's latency while the writers run, each paired with the same sequence
 * without writes.  Plain C.  The writers are the point's own pool threads running their plan;
 * a victim or chase on another CPU runs in a helper thread pinned where the sweep placed it.
 */
#ifndef STOREBENCH_VICTIM_H
#define STOREBENCH_VICTIM_H

#include <stdbool.h>
#include <stdint.h>

#include "load.h"
#include "point_history.h"
#include "pool.h"

/* The --victim axis: who is measured beside the writers, and where. */
enum victim_mode {
	VICTIM_NONE,   /* the writers alone */
	VICTIM_OWN,    /* the first writer re-reads its own victim working set after its writes */
	VICTIM_SHARED, /* a victim thread on another core of the first writer's L3 domain */
	VICTIM_REMOTE, /* a victim thread in another L3 domain of the writer's package */
	VICTIM_SOCKET, /* a victim thread on another package */
	VICTIM_CHASE,  /* a pointer chase on the nearest free core while the writers run */
	VICTIM_MODES
};

extern const char *const victim_mode_name[VICTIM_MODES];

/* What runs beside a store point's writers, part of the point's identity. */
struct victim_spec {
	enum victim_mode mode;
	uint64_t bytes; /* the victim's working set, or the chase's buffer */
	int cpu;        /* where it runs (own: the first writer's CPU); -1 for none */
	uint64_t delay_ns; /* chase: each writer waits this long after each pass while it runs */
	int node;       /* that CPU's NUMA node, where its buffer is first touched */
};

/* --victim-delay's largest wait after a writer's pass: a second. */
#define VICTIM_DELAY_MAX_NS 1000000000

/* Paired trials per round: enough for a 95 % interval of the median ratio from one round. */
#define VICTIM_PAIRS 8

/* The chase's window per trial: its loads are averaged over at least this long. */
#define CHASE_WINDOW_NS 20000000ull

/* The byte a victim working set holds; checked after the probe (no write may reach it). */
#define VICTIM_BYTE 0x3c

/* A probe's numbers over every round so far; NAN where there is none (see csv_columns.def). */
struct victim_result {
	int trials;        /* paired trials behind them; -1: the point has no victim */
	bool chase;        /* a chase's numbers (the chase_ columns), else a victim's */
	double warm_ns;    /* victim: median ns per line of the warming's second read, resident:
			    * the reference idle_ns is judged by (quality victim_cold); chase: NAN */
	double idle_ns;    /* median ns per line re-read (victim) or per dependent load (chase),
			    * without writes */
	double loaded_ns;  /* the same after the writes (victim) or while they run (chase) */
	double slowdown;   /* median over the trials of loaded / idle, each pair back to back */
	double lo, hi;     /* its 95 % interval (NAN below MEDIAN_CI_MIN_SAMPLES trials) */
	double write_gbps; /* chase: the writers' GB/s while it ran, median; victims: NAN */
};

/* The helper thread of victims and chases on other CPUs, kept from point to point. */
struct victim_helper;

/* What a probe runs on: the pool and the point's task (its writers and their plans). */
struct victim_run {
	struct pool *pool;
	const struct pool_task *task; /* pool_batch of it is the writers' stores */
	const struct victim_spec *v;
	load_fn load;                 /* the read kernel: the victim's re-read and its warming */
	uint64_t llc_bytes;           /* a chase buffer larger than this is not warmed first */
	uint64_t seed;                /* the chase's cycle */
};

/*
 * One round of r->v's probe: VICTIM_PAIRS pairs of trials, the order within a pair alternating,
 * each trial's idle and loaded time added to h; then *out from every trial h holds.  *helper is
 * started, moved or reused as r->v->cpu asks.  Returns 0, 1 when the victim's bytes were not
 * intact afterwards (out's numbers NAN), -1 with a stderr line when a buffer or thread cannot be
 * had.
 */
int victim_probe(struct victim_helper **helper, const struct victim_run *r,
		 struct point_history *h, struct victim_result *out);

/* Stop the helper and free its buffer; NULL is fine. */
void victim_helper_stop(struct victim_helper *helper);

#endif
