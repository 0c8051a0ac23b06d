/*
 * canary_rules.h — the drift canaries' fixed choices, apart so the help text (options.def) states
 * the same numbers the canaries use.  Plain C, constants only.
 */
#ifndef STOREBENCH_CANARY_RULES_H
#define STOREBENCH_CANARY_RULES_H

#define CANARY_KERNEL "memset"      /* libc's: what large clears everywhere call */
#define CANARY_PERIOD_MIN_S 1       /* --canary-period limits: a sample costs ~0.05-0.3 s */
#define CANARY_PERIOD_MAX_S 3600
#define CANARY_PASSES 3             /* timed passes per sample; the sample is their median */
#define CANARY_MAX_BYTES (1ull << 30) /* so a sample stays near 0.3 s even at 10 GB/s */
#define CANARY_PASS_BYTES (32ull << 20) /* a cache canary's pass: calls enough to store this, so
					 * a pass lasts ~0.3 ms, not the microseconds of one call */

#endif
