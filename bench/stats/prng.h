/*
 * prng.h — the one pseudo-random generator: splitmix64, and uniform draws below n from it.
 * Plain C, header only.  Tiny, seedable and exactly reproducible on every libc (rand() is not),
 * so a --seed gives the same shuffled rounds and scattered offsets on every machine.
 */
#ifndef STOREBENCH_PRNG_H
#define STOREBENCH_PRNG_H

#include <stdint.h>

/* The next 64 random bits of the sequence state walks. */
static inline uint64_t prng_next(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* Uniform in [0, n), n > 0: a rejection draw, without the bias a plain x % n would give. */
static inline uint64_t prng_below(uint64_t *state, uint64_t n)
{
	uint64_t limit = UINT64_MAX - UINT64_MAX % n, x;

	do
		x = prng_next(state);
	while (x >= limit);
	return x % n;
}

#endif
