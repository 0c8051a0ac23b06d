/*
 * rounds.h — the order a run measures its points in: the sweep's, or N rounds each shuffled.
 * Plain C.  One seeded generator draws every round, so a seed replays an order exactly; a round
 * runs a share of the repetitions, so N rounds cost about what one round of all of them did.
 */
#ifndef STOREBENCH_ROUNDS_H
#define STOREBENCH_ROUNDS_H

#include <stddef.h>

/*
 * The measuring order of n points over rounds rounds: rounds x n indices into the sweep, round
 * by round, each round a permutation of 0..n-1 (Fisher-Yates from seed).  One round keeps the
 * sweep's order (buffers then grow monotonically and rows are final as they come).  NULL when
 * out of memory.
 */
size_t *rounds_order(size_t n, int rounds, unsigned long long seed);

/* Repetitions per round: ceil(repetitions / rounds), so the total is at least repetitions;
 * 0 (Google Benchmark's flag decides) stays 0 and then every round runs that many. */
int rounds_repetitions(int repetitions, int rounds);

#endif
