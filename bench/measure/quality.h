/*
 * quality.h — whether a measured point can be trusted: the reasons it may not, their thresholds
 * (one struct, one set of defaults per profile) and the rules that apply them.  Plain C.
 * The binary decides; scripts read the `quality` column and the `quality_*` metadata only.
 */
#ifndef STOREBENCH_QUALITY_H
#define STOREBENCH_QUALITY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "quality_reasons.h"

/* The reasons (quality_reasons.h) as bit numbers, then as the bits of a mask. */
#define QUALITY_BIT_(name, why) QUALITY_BIT_##name,
enum quality_reason_bit { QUALITY_REASON_LIST(QUALITY_BIT_) QUALITY_REASONS };
#undef QUALITY_BIT_
#define QUALITY_MASK_(name, why) QUALITY_##name = 1u << QUALITY_BIT_##name,
enum quality_reason { QUALITY_REASON_LIST(QUALITY_MASK_) };
#undef QUALITY_MASK_

/* Longest formatted mask: every name and a ';' between them. */
#define QUALITY_TEXT_MAX 64

/*
 * Profile defaults.  metal: a dedicated machine.  vm: a guest, whose vCPUs lose time to the host
 * (steal shows as a lower CPU share) and whose memory bandwidth moves with its neighbours.
 * The batch floor and the skew and outlier rules hold for both.
 */
#define QUALITY_METAL_CPU_SHARE_MIN 0.9
#define QUALITY_VM_CPU_SHARE_MIN 0.8
#define QUALITY_METAL_CV_MAX 0.05
#define QUALITY_VM_CV_MAX 0.1
#define QUALITY_BATCH_NS_MIN 100000
#define QUALITY_SKEW_MAX 0.05
#define QUALITY_OUTLIER_MADS 5
/* victim_cold above this idle / warm re-read time: the victim was no longer resident when the
 * writes' cost was to be seen (on the Turin guest: 2 GiB of writes take 85 ms, after which an
 * idle 512 KiB victim reads at 2 ns a line against 0.3 warm) */
#define QUALITY_VICTIM_COLD 2
/*
 * The vm drift band is wider than the canary's own sample-to-sample spread on a quiet guest
 * (4.6..5.65 GB/s, +-10%, over a quick run on the Skylake-SP KVM guest): at 0.1 every point of
 * that run was flagged, which tells nothing; the host flips worth a flag are 28 <-> 53 GB/s.
 */
#define QUALITY_METAL_DRIFT_BAND 0.05
#define QUALITY_VM_DRIFT_BAND 0.25

/* Every threshold of the flags; written to the metadata as quality_<field>=<value>. */
struct quality_limits {
	const char *profile;   /* "metal" or "vm": the set the defaults came from */
	double cpu_share_min;  /* shared_cpu below: least CPU time / wall time of a thread */
	double cv_max;         /* cv above: stddev / mean of GB/s over the repetitions */
	double batch_ns_min;   /* short_batch below: median timed batch in ns (the calibration floor) */
	double skew_max;       /* skew above: median (latest - earliest thread start) / makespan */
	double outlier_mads;   /* outlier: a repetition this many MADs and cv_max from the median */
	double drift_band;     /* drift: the canary's band, +- this share of its starting GB/s */
};

/* The profile's defaults into l; false when name is neither "metal" nor "vm". */
bool quality_profile(const char *name, struct quality_limits *l);

/* "ok", or the names of the bits in mask joined by ';' in enum order, into buf. */
const char *quality_format(unsigned mask, char *buf, size_t len);

/* Every field of l as "<prefix>quality_<field>=<value>\n", then the reasons: quality_reasons
 * (their names, comma-joined, in the column's order) and quality_why_<name> (each one's line). */
void quality_metadata(FILE *out, const char *prefix, const struct quality_limits *l);

/*
 * Whether any of the n repetition rates v[] is an outlier: further from their median than
 * outlier_mads x MAD (median absolute deviation) and than cv_max x median.  The second part keeps
 * three nearly equal repetitions (a MAD near 0) from flagging ordinary noise.  n < 3: false.
 */
bool quality_outlier(const double *v, size_t n, const struct quality_limits *l);

#endif
