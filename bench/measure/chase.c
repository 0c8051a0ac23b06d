/*
 * chase.c — the chase's cycle (Sattolo's shuffle, done in place in the buffer) and its walk.
 * Plain C.  Sattolo's variant of the Fisher-Yates shuffle draws j below i, never i itself, and so
 * yields a permutation that is a single cycle; doing it on the next-indices stored in the lines
 * needs no side array, which matters for a chase over gigabytes.
 */
#include "chase.h"

#include "prng.h"

/* Node i of buf: the first word of its line. */
static uint64_t *node(void *buf, uint64_t i)
{
	return (uint64_t *)((char *)buf + i * CHASE_NODE_BYTES);
}

void chase_build(void *buf, size_t bytes, uint64_t seed)
{
	uint64_t n = bytes / CHASE_NODE_BYTES, state = seed;

	for (uint64_t i = 0; i < n; i++)
		*node(buf, i) = i;
	/* the mapping i -> next(i) starts as the identity; each swap joins i's cycle to j's */
	for (uint64_t i = n; i-- > 1;) {
		uint64_t j = prng_below(&state, i), t = *node(buf, i);

		*node(buf, i) = *node(buf, j);
		*node(buf, j) = t;
	}
	/* indices to addresses, so the walk is one dependent load per node */
	for (uint64_t i = 0; i < n; i++)
		*node(buf, i) = (uint64_t)(uintptr_t)node(buf, *node(buf, i));
}

void *chase_walk(void *at, uint64_t n)
{
	void *const *p = at;

	/* eight links a turn: the loop's own branch stays off the critical path of the loads */
	for (; n >= 8; n -= 8) {
		p = *p;
		p = *p;
		p = *p;
		p = *p;
		p = *p;
		p = *p;
		p = *p;
		p = *p;
	}
	while (n--)
		p = *p;
	return (void *)p;
}
