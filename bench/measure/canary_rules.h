/*
 * canary_rules.h — the drift canaries' fixed choices, apart so the help text (options.def) states
 * the same numbers the canaries use.  Plain C, constants only.
 */
#ifndef STOREBENCH_CANARY_RULES_H
#define STOREBENCH_CANARY_RULES_H

#define CANARY_KERNEL "memset"      /* libc's: what large clears everywhere call */
#define CANARY_PERIOD_MIN_S 1       /* --canary-period limits: a sample costs ~0.05-0.3 s */
#define CANARY_PERIOD_MAX_S 3600
#define CANARY_PASSES 3             /* timed passes taken at a sample, beside the window's ticks */
#define CANARY_TICK_MS 250          /* between two passes of a window, at least: the guest's
				     * speed states last 50-200 ms, so one sample's passes (within a
				     * millisecond) saw one state; a window's median over a pass every
				     * 250 ms sees the state its points saw */
#define CANARY_TICK_SHARE 40        /* and at least this many times a tick's own time, so ticks
				     * cost at most 1/40 of the sweep where a DRAM pass is long (1 GiB
				     * at 20 GB/s: 50 ms, a tick every 2 s); 5 ms on the Turin guest */
#define CANARY_MAX_BYTES (1ull << 30) /* so a sample stays near 0.3 s even at 10 GB/s */
#define CANARY_PASS_BYTES (32ull << 20) /* a cache canary's pass: calls enough to store this, so
					 * a pass lasts ~0.3 ms, not the microseconds of one call */
#define CANARY_TOUCH_CHUNK (64u << 20) /* first touched this much at a time between looks at
					* a stop request: 0.2 s of 4 KiB page faults on the guests */

#endif
