/*
 * canary_run.h — the drift canaries' settings, small: a thread's L2 of 256 KiB, an LLC of 2 MiB
 * and a cold region of 8 MiB, so each regime has a canary and all of them are quick.  Plain C,
 * for the canary and rows tests.
 */
#ifndef STOREBENCH_TEST_CANARY_RUN_H
#define STOREBENCH_TEST_CANARY_RUN_H

#include "canary.h"
#include "quality.h"

/* The settings on CPU 0 and node 0, with the vm profile's drift band. */
static inline struct canary_config canary_run(void)
{
	struct quality_limits vm;

	quality_profile("vm", &vm);
	return (struct canary_config){
		.fill = 0xa5, .band = vm.drift_band, .period_s = 10, .l2_bytes = 256 << 10,
		.llc_bytes = 2 << 20, .cold_bytes = 8 << 20, .pages = PAGES_4K,
		.bind = { .kind = MEMBIND_LOCAL },
	};
}

#endif
