/*
 * levels.h — which cache level a working set lives in: the one rule of the binary and the scripts.
 * Plain C, no ISA.  Sizes are per thread against a thread's share of each level (shares.h), so a
 * 32 MiB working set per thread at 2 threads is DRAM on a 32 MiB L3 both share.  Two questions:
 * the level a working set fits in (the drift canary that judges it, the --dry-run duration model)
 * and the level it lies well inside, where a curve is flat and a class of the tables begins (the
 * CSV's ws_class; at a capacity the number swings with the exact size, so sizes between two
 * levels belong to none).  The names and the sentence go into every run's metadata: the scripts
 * read them there and keep no rule of their own.
 */
#ifndef STOREBENCH_LEVELS_H
#define STOREBENCH_LEVELS_H

#include <stdint.h>

enum level { LEVEL_L1D, LEVEL_L2, LEVEL_L3, LEVEL_DRAM, LEVEL_COUNT };

/* No level: between two (level_inside), or the cache sizes are unknown. */
#define LEVEL_BETWEEN LEVEL_COUNT

/* "L1d", "L2", "L3", "DRAM": the CSV's, the metadata's and the tables' words. */
extern const char *const level_name[LEVEL_COUNT];

/* A working set is well inside a cache level when it is at most 1/LEVEL_INSIDE_DIVISOR of the
 * thread's share of that level and at least LEVEL_INSIDE_MULTIPLE x its share of the level below;
 * inside DRAM from LEVEL_INSIDE_MULTIPLE x the LLC share.  Near a capacity the number swings with
 * the exact size: memset read 108 then 87 GB/s at 512 KiB and 1 MiB on a 1 MiB L2. */
#define LEVEL_INSIDE_DIVISOR 2
#define LEVEL_INSIDE_MULTIPLE 4

/* The rule above as one sentence, for the metadata (level_rule) and `storebench list --levels`. */
extern const char level_rule[];

/* A thread's share in bytes of L1d, L2 and L3 (index by enum level); 0 for a level the machine
 * lacks or whose size is unknown (then the last nonzero one is the LLC). */
struct level_shares {
	uint64_t bytes[LEVEL_DRAM];
};

/* The smallest level whose share holds ws bytes; LEVEL_DRAM beyond the last. */
enum level level_fits(uint64_t ws, const struct level_shares *s);

/* The level ws lies well inside by the rule above; LEVEL_BETWEEN between two, or when the L1d or
 * L2 share is unknown. */
enum level level_inside(uint64_t ws, const struct level_shares *s);

#endif
