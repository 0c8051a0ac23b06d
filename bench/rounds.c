/*
 * rounds.c — seeded shuffles of the sweep for --rounds, and the repetitions each round runs.
 * Plain C.  splitmix64 and a rejection draw: tiny, exactly reproducible on every libc (rand()
 * is not), and without the modulo bias a plain x % n would give.
 */
#include "rounds.h"

#include <stdint.h>
#include <stdlib.h>

static uint64_t splitmix64(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* Uniform in [0, n), n > 0. */
static uint64_t below(uint64_t *state, uint64_t n)
{
	uint64_t limit = UINT64_MAX - UINT64_MAX % n, x;

	do
		x = splitmix64(state);
	while (x >= limit);
	return x % n;
}

size_t *rounds_order(size_t n, int rounds, unsigned long long seed)
{
	size_t *order = malloc((n ? n : 1) * (size_t)rounds * sizeof *order);
	uint64_t state = seed;

	if (!order)
		return NULL;
	for (int r = 0; r < rounds; r++) {
		size_t *o = order + (size_t)r * n;

		for (size_t i = 0; i < n; i++)
			o[i] = i;
		if (rounds == 1)
			break;
		for (size_t i = n; i > 1; i--) {
			size_t j = (size_t)below(&state, i), t = o[i - 1];

			o[i - 1] = o[j];
			o[j] = t;
		}
	}
	return order;
}

int rounds_repetitions(int repetitions, int rounds)
{
	return repetitions > 0 ? (repetitions + rounds - 1) / rounds : repetitions;
}
