/*
 * rounds.h — the order a run measures its points in: the sweep's, or rounds of paired groups.
 * Plain C.  In a round every comparison group (groups.h) runs in a shuffled order and the
 * kernels of a group run back to back, themselves shuffled: they then share the host's state of
 * that moment, so their ratio per round cancels what drifts over seconds (random interleaving,
 * RMIT).  One seeded generator draws every round, so a seed replays an order exactly; a round
 * runs a share of the repetitions, so N rounds cost about what one round of all of them did.
 */
#ifndef STOREBENCH_ROUNDS_H
#define STOREBENCH_ROUNDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "groups.h"

/*
 * One round's order into out (room for g->npoints): the points with active[i] (every point
 * when active is NULL), their groups in an order drawn from *state, each group's active points
 * back to back in an order drawn next.  Returns how many points it wrote.
 */
size_t rounds_shuffle(const struct groups *g, const bool *active, uint64_t *state, size_t *out);

/*
 * The measuring order of the first rounds rounds: rounds x g->npoints indices into the sweep,
 * round by round.  One round keeps the sweep's order (buffers then grow monotonically and rows
 * are final as they come); more are rounds_shuffle()d from seed, and *state is left where a
 * later (adaptive) round goes on drawing.  NULL when out of memory.
 */
size_t *rounds_order(const struct groups *g, int rounds, unsigned long long seed, uint64_t *state);

/* Repetitions per round: ceil(repetitions / rounds), so the total is at least repetitions;
 * 0 (Google Benchmark's flag decides) stays 0 and then every round runs that many. */
int rounds_repetitions(int repetitions, int rounds);

#endif
