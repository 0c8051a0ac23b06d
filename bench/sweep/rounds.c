/*
 * rounds.c — seeded shuffles of groups and of their kernels for --rounds, and the repetitions
 * each round runs.
 * Plain C.  The draws are prng.h's: the same seed gives the same order on every machine.
 */
#include "rounds.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "prng.h"

/* Fisher-Yates over a[0..n). */
static void shuffle(size_t *a, size_t n, uint64_t *state)
{
	for (size_t i = n; i > 1; i--) {
		size_t j = (size_t)prng_below(state, i), t = a[i - 1];

		a[i - 1] = a[j];
		a[j] = t;
	}
}

size_t rounds_shuffle(const struct groups *g, const bool *active, uint64_t *state, size_t *out)
{
	size_t *pick = malloc((g->ngroups ? g->ngroups : 1) * sizeof *pick), ng = 0, n = 0;

	if (!pick)
		return 0;
	for (size_t k = 0; k < g->ngroups; k++) {
		bool any = !active;

		for (size_t m = g->start[k]; !any && m < g->start[k + 1]; m++)
			any = active[g->member[m]];
		if (any)
			pick[ng++] = k;
	}
	shuffle(pick, ng, state);
	for (size_t k = 0; k < ng; k++) {
		size_t len = 0;

		for (size_t m = g->start[pick[k]]; m < g->start[pick[k] + 1]; m++)
			if (!active || active[g->member[m]])
				out[n + len++] = g->member[m];
		shuffle(out + n, len, state);
		n += len;
	}
	free(pick);
	return n;
}

size_t *rounds_order(const struct groups *g, int rounds, unsigned long long seed, uint64_t *state)
{
	size_t n = g->npoints, *order = malloc((n ? n : 1) * (size_t)rounds * sizeof *order);

	*state = seed;
	if (!order)
		return NULL;
	if (rounds == 1) {
		for (size_t i = 0; i < n; i++)
			order[i] = i;
		return order;
	}
	for (int r = 0; r < rounds; r++)
		if (rounds_shuffle(g, NULL, state, order + (size_t)r * n) != n && n) {
			free(order);
			return NULL;
		}
	return order;
}

int rounds_repetitions(int repetitions, int rounds)
{
	return repetitions > 0 ? (repetitions + rounds - 1) / rounds : repetitions;
}
