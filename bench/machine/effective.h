/*
 * effective.h — the cache levels a machine behaves as having, read off a latency curve, and which
 * of them a run uses.  Plain C, no ISA.  A guest may report its host's whole L3 (508 MiB a core on
 * the Turin guest, 300 MiB on the Emerald Rapids one) while its working sets leave the last level
 * at tens of MiB: the level rule, the DRAM word, cold working sets, canaries and plot marks take
 * the effective share where it differs from the reported one by more than EFFECTIVE_FACTOR.
 */
#ifndef STOREBENCH_EFFECTIVE_H
#define STOREBENCH_EFFECTIVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "levels.h"

/*
 * An effective share stands in for the reported one when one is more than twice the other.  The
 * level rule keeps that margin already (well inside a level up to half its share), so a smaller
 * difference moves no size into another class; and the scan places a capacity to within about a
 * third of a size step either way, which a factor of 2 leaves far behind.
 */
#define EFFECTIVE_FACTOR 2

/* Adjacent levels are told apart when one's latency is at least this factor above the other's;
 * L1d, L2, L3 and DRAM differ by 2.5x to 10x on every x86 part measured. */
#define EFFECTIVE_APART 1.3

/*
 * A level ends where the curve has come this far (in log time) from its median to the next
 * level's: halfway, geometrically.  At a sharp capacity (true LRU) any fraction gives the same
 * size; where a guest's neighbours take a level away over a range of sizes, halfway leaves both
 * classes flat under the level rule's margins: the Turin guest's stores took 0.75 ns a line to
 * 5 MiB and 2.48 from 80 MiB, halfway (1.36) at 20 MiB, so its L3 class (to 10 MiB) ran within
 * 1.4x of the L3's rate and its DRAM class (from 80 MiB) within 5 % of DRAM's.
 */
#define EFFECTIVE_CROSSING 0.5

/* Most sizes in one curve: 4 a doubling from 4 KiB to past 4 GiB. */
#define EFFECTIVE_POINTS_MAX 96

/* How levels are read off a curve and used, one sentence for the metadata (levels_rule). */
extern const char effective_rule[];

/* "L1d:49152,L2:1048576,L3:33554432": the shares s knows, for the metadata and info. */
void effective_shares_text(const uint64_t bytes[LEVEL_DRAM], char *buf, size_t len);

/* What the scan measured at one set of threads: per-thread working sets, load latencies and
 * store times. */
struct latency_curve {
	unsigned n;				  /* sizes measured */
	uint64_t bytes[EFFECTIVE_POINTS_MAX];	  /* per thread, ascending */
	double ns[EFFECTIVE_POINTS_MAX];	  /* median ns per dependent load there */
	double store_ns[EFFECTIVE_POINTS_MAX];	  /* median ns per 64-byte line of temporal
						   * stores over the whole working set; 0: none */
};

/* The levels found in one curve. */
struct effective_shares {
	uint64_t bytes[LEVEL_DRAM];	/* a thread's effective share of L1d, L2, L3; 0: not found */
	double ns[LEVEL_COUNT];		/* the found levels' latency (DRAM's at LEVEL_DRAM), 0: none */
	char why[200];			/* "" when each reported level was found, else why not */
};

/*
 * The levels of curve c, as many as reported names (its nonzero shares) plus DRAM: the curve is
 * cut into that many runs of sizes with the least spread of log latency within each (a dynamic
 * program over every cut), and a level ends where the latency crosses EFFECTIVE_CROSSING of the
 * way (geometrically) from its run's median to the next one's.  false, with out->why, when the runs are not apart by
 * EFFECTIVE_APART or the curve is too short: then no level is effective.
 */
bool effective_find(const struct latency_curve *c, const struct level_shares *reported,
		    struct effective_shares *out);

/*
 * The shares a run uses: e's where it found a level that differs from reported's by more than
 * EFFECTIVE_FACTOR, reported's otherwise (e NULL: reported).  Bit l of *replaced (may be NULL)
 * is set for each level taken from e.
 */
struct level_shares effective_use(const struct level_shares *reported,
				  const struct effective_shares *e, unsigned *replaced);

#endif
