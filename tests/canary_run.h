/*
 * canary_run.h — a run's options as far as the drift canaries read them, small: a thread's L2 of
 * 256 KiB, an LLC of 2 MiB and a cold region of 8 MiB, so each regime has a canary and all of
 * them are quick.  Plain C, for the canary and rows tests.
 */
#ifndef STOREBENCH_TEST_CANARY_RUN_H
#define STOREBENCH_TEST_CANARY_RUN_H

#include <stdbool.h>
#include <string.h>

#include "opts.h"

/* The options on *cpu and *node (kept alive by the caller); false when the vm profile is not
 * there. */
static inline bool canary_run(struct run_opts *o, int *cpu, int *node)
{
	memset(o, 0, sizeof *o);
	o->placement.ncpus = 1;
	o->placement.cpu = cpu;
	o->placement.node = node;
	o->pages = PAGES_4K;
	o->bind.kind = MEMBIND_LOCAL;
	o->fill = 0xa5;
	o->canary_period_s = 10;
	o->l2_bytes = 256 << 10;
	o->llc_bytes = 2 << 20;
	o->cold_bytes = 8 << 20;
	return quality_profile("vm", &o->quality);
}

#endif
