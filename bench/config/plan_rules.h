/*
 * plan_rules.h — the stated rules of sizing and estimating a sweep: the DRAM word and the
 * duration model of --dry-run.  Plain C, constants only, so the help text (options.def), the
 * code that applies them (cache_words.c, dryrun.c) and README all quote the same numbers.
 */
#ifndef STOREBENCH_PLAN_RULES_H
#define STOREBENCH_PLAN_RULES_H

#define PLAN_STR(x) PLAN_STR_(x)
#define PLAN_STR_(x) #x

/*
 * The DRAM word at t threads: DRAM_LLC_MULTIPLE x the aggregate LLC of the L3 (else L2)
 * instances the t threads use, divided by t, rounded up to 4 KiB and held between
 * DRAM_FLOOR_MIB and DRAM_CEILING_MIB per thread.  The multiple puts the threads' buffers
 * together well past the caches they fill; the floor keeps a DRAM point long enough to stream
 * at hundreds of threads; the ceiling bounds one thread on a part with a huge (or implausibly
 * reported) LLC, and the memory a 1-thread point maps.
 */
#define DRAM_LLC_MULTIPLE 4
#define DRAM_FLOOR_MIB 16
#define DRAM_CEILING_MIB 1024
#define DRAM_RULE_TEXT \
	PLAN_STR(DRAM_LLC_MULTIPLE) " x the aggregate LLC of the L3 domains the threads use / " \
	"threads, rounded up to 4KiB, at least " PLAN_STR(DRAM_FLOOR_MIB) "MiB and at most " \
	PLAN_STR(DRAM_CEILING_MIB) "MiB per thread"

/*
 * The duration model of --dry-run: one thread moves DRYRUN_GBPS_<regime> GB/s in the regime its
 * working set falls in (L1d, L2, L3 or DRAM by its per-thread shares); DRAM is capped at
 * DRYRUN_NODE_GBPS per NUMA node the point uses.  A point costs DRYRUN_FIXED_MS plus
 * (repetitions + 1) x max(min time, one pass) (Google Benchmark sizes the first repetition with
 * a calibration run) plus DRYRUN_SETUP_PASSES passes (storebench's batch calibration, prefill,
 * verification) plus first touch of grown buffers at DRYRUN_FAULT_MBPS per thread, at most
 * DRYRUN_FAULT_TOTAL_GBPS for the process: the rate of a 4 KiB-page KVM guest (this project's
 * test VM first-touches 0.34 GB/s per thread, under 0.5 GB/s for two), so on bare metal, where
 * faults are several times faster, the estimate errs long.  The drift canaries add their first
 * touch and their samples (one thread at DRYRUN_GBPS_DRAM, the cache regimes' at DRYRUN_GBPS_L3);
 * a point that quality.h has measured a second
 * time costs that again, which no model can know beforehand.
 */
#define DRYRUN_GBPS_L1D 100
#define DRYRUN_GBPS_L2 50
#define DRYRUN_GBPS_L3 20
#define DRYRUN_GBPS_DRAM 10
#define DRYRUN_NODE_GBPS 40
#define DRYRUN_FAULT_MBPS 350
#define DRYRUN_FAULT_TOTAL_GBPS 4
#define DRYRUN_FIXED_MS 5
#define DRYRUN_SETUP_PASSES 5
/* A later round of a point reuses its calibration and iteration count: it costs these (the Turin
 * guest, quick's 957 points in rounds 2-6 of 1 ms: 16.5 s, 3.4 ms a point), and one untimed batch
 * before its repetitions.  A batch lasts max(one pass, DRYRUN_BATCH_MS): measure.c's aim at the
 * default --batch-ns-min. */
#define DRYRUN_ROUND_FIXED_MS 2
#define DRYRUN_BATCH_MS 0.5
#define DRYRUN_MODEL_TEXT \
	"a thread moves " PLAN_STR(DRYRUN_GBPS_L1D) ", " PLAN_STR(DRYRUN_GBPS_L2) ", " \
	PLAN_STR(DRYRUN_GBPS_L3) " or " PLAN_STR(DRYRUN_GBPS_DRAM) " GB/s when its working set " \
	"fits its share of L1d, L2, L3 or none (DRAM: at most " PLAN_STR(DRYRUN_NODE_GBPS) \
	" GB/s per NUMA node used); a point costs " PLAN_STR(DRYRUN_FIXED_MS) " ms + (repetitions " \
	"+ 1) x max(min time, one batch) + " PLAN_STR(DRYRUN_SETUP_PASSES) \
	" passes (calibration, prefill, verification), a batch being max(" PLAN_STR(DRYRUN_BATCH_MS) \
	" ms, one pass over its working set); a later round of a point, which reuses " \
	"its calibration and iteration count, " PLAN_STR(DRYRUN_ROUND_FIXED_MS) " ms + one untimed " \
	"batch (the first of a group's turn: until steady, not priced) + repetitions x the same " \
	"(+ one pass, the prefill, where its buffer is mapped anew: a point is verified in " \
	"its first round only); a round " \
	"runs ceil(repetitions / rounds) repetitions; + first touch of grown buffers at " \
	PLAN_STR(DRYRUN_FAULT_MBPS) " MB/s per thread, at most " PLAN_STR(DRYRUN_FAULT_TOTAL_GBPS) \
	" GB/s in all; the DRAM canary's samples at the DRAM rate, the cache canaries' at the L3 " \
	"rate; a victim's probe, each round, " PLAN_STR(VICTIM_PAIRS) " x (two passes, the writers' and " \
	"as long a wait, + six reads of the victim at the L3 rate), a chase's " PLAN_STR(VICTIM_PAIRS) " x 2 x max(one pass, " \
	"20 ms); a point measured twice (quality " \
	"short_batch or outlier) is not priced"

/*
 * Time budgets of the presets that scale with the machine: their dry-run estimate on every
 * fixture machine (2-socket servers up to 512 CPUs) stays within these
 * (tests/sweep/scale_test.py).
 */
/* quick's 6 paired rounds (an interval and a verdict on every comparison) cost 1.4 x its one
 * round of 3 repetitions on the Turin guest and up to 17 min by the estimate on the fixtures */
#define QUICK_BUDGET_MIN 20
/* nightly's 12 paired rounds (an interval on every ratio to memset, which the gate judges) cost
 * up to 43 min by the estimate on the fixtures against 25 min for its one round of 9; the
 * answer's control kernel (memset_twin) adds a kernel: 45.2 min on the synthetic 2-socket
 * Granite Rapids with SNC3, compact */
#define NIGHTLY_BUDGET_MIN 48

#endif
