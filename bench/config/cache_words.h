/*
 * cache_words.h — the size axes of a run at each of its thread counts, from per-thread cache
 * shares.  Plain C, no ISA.  At t threads L1d, L2, L3 and LLC in a size expression mean one thread's share
 * of that cache (instance size / threads placed in it) and DRAM a per-thread size well beyond the
 * caches those t threads share, so one preset scales from a 2-vCPU VM to a 2-socket server.
 */
#ifndef STOREBENCH_CACHE_WORDS_H
#define STOREBENCH_CACHE_WORDS_H

#include <stdbool.h>
#include <stddef.h>

#include "cpu.h"
#include "levels_file.h"
#include "shares.h"
#include "placement.h"
#include "plan_rules.h"
#include "sizes.h"
#include "topology.h"

/* Words a size expression may use: L1d, L1 (= L1d), L2, L3, LLC, DRAM. */
enum scaled_word { SW_L1D, SW_L1, SW_L2, SW_L3, SW_LLC, SW_DRAM, SW_COUNT };

/* Where a thread count's cache words came from: reported, or measured (effective.h). */
struct level_source {
	const struct levels_entry *measured; /* the scan of these CPUs; NULL: none (reported) */
	struct level_shares reported;	     /* the shares the machine reports at this count */
	unsigned replaced;		     /* bit l: level l's words are measured's share */
};

/*
 * The words at threads threads of pl on t (cpu's sizes where the topology has no such cache),
 * with the measured levels of lf (NULL: none) where they differ from the reported ones by more
 * than EFFECTIVE_FACTOR; src says which.  false + err when pl has fewer CPUs.  The shares point
 * into pl, src into lf: keep them alive.
 */
bool scaled_words(const struct topology *t, const struct cpu_info *cpu, const struct placement *pl,
		  unsigned threads, const struct levels_file *lf, struct thread_set *ts,
		  struct size_word words[SW_COUNT], struct level_source *src, char *err,
		  size_t errlen);

/* The CPUs of ts as a cpulist ("0-3,8") and its NUMA nodes ("0,2") into buf; false if too
 * short. */
bool scaled_cpus(const struct thread_set *ts, char *buf, size_t len);
bool scaled_nodes(const struct topology *t, const struct thread_set *ts, char *buf, size_t len);

#endif
