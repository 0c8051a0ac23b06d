/*
 * chase.c — the chase's cycle and its walk.  Plain C.  The cycle visits the buffer's pages in a
 * random single-cycle order (Sattolo's shuffle, which draws j below i, never i itself),
 * CHASE_LINES_PER_VISIT random lines of a page a visit, other lines of every page each round: no prefetcher can
 * guess the next page, and a TLB miss (a page walk, two-dimensional in a guest) is paid once per
 * visit instead of once per load, so the latency steps are the caches' and not the TLB's reach.
 * Only the page order is shuffled in place (one word per page) and the links are written in
 * address order, so laying a gigabyte costs one sequential pass, not a random write per line.
 */
#include "chase.h"

#include "prng.h"

/* Lines per page: a 4 KiB page holds 64 nodes. */
#define LINES_PER_PAGE 64

/* Node i of buf: the first word of its line. */
static uint64_t *node(void *buf, uint64_t i)
{
	return (uint64_t *)((char *)buf + i * CHASE_NODE_BYTES);
}

void chase_build(void *buf, size_t bytes, uint64_t seed)
{
	uint64_t n = bytes / CHASE_NODE_BYTES, state = seed;
	/* s lines a page (all in one page when the buffer is less than one), g of them a visit,
	 * p whole pages, the rest r lines at the end, visited in address order after the last round */
	uint64_t s = n < LINES_PER_PAGE ? n : LINES_PER_PAGE, p = n / s, r = n - p * s;
	unsigned g = s == LINES_PER_PAGE ? CHASE_LINES_PER_VISIT : (unsigned)s;
	unsigned slot[LINES_PER_PAGE], rank[LINES_PER_PAGE];

	/* the lines of a page in a random order: round k visits slot[k g] .. slot[k g + g - 1] */
	for (unsigned i = 0; i < s; i++)
		slot[i] = i;
	for (unsigned i = (unsigned)s; i-- > 1;) {
		unsigned j = (unsigned)prng_below(&state, i + 1), t = slot[i];

		slot[i] = slot[j];
		slot[j] = t;
	}
	for (unsigned i = 0; i < s; i++)
		rank[slot[i]] = i;
	/* the next page of each page, kept in its first line until that page's links are written */
	for (uint64_t i = 0; i < p; i++)
		*node(buf, i * s) = i;
	for (uint64_t i = p; i-- > 1;) {
		uint64_t j = prng_below(&state, i), t = *node(buf, i * s);

		*node(buf, i * s) = *node(buf, j * s);
		*node(buf, j * s) = t;
	}
	/* a visit's last line leads to the next page; a round ends on the page before page 0 and
	 * goes on at page 0's first line of the next round (after the last round, through the rest
	 * of the lines, then back to the first) */
	for (uint64_t i = 0; i < p; i++) {
		uint64_t next = *node(buf, i * s);

		for (unsigned k = 0; k < s; k++) {
			unsigned q = rank[k], first = q / g * g;
			uint64_t to;

			if (q + 1 < first + g)
				to = i * s + slot[q + 1];
			else if (next)
				to = next * s + slot[first];
			else if (first + g < s)
				to = slot[first + g];
			else
				to = r ? p * s : slot[0];
			*node(buf, i * s + k) = (uint64_t)(uintptr_t)node(buf, to);
		}
	}
	for (uint64_t i = p * s; i < n; i++)
		*node(buf, i) = (uint64_t)(uintptr_t)node(buf, i + 1 < n ? i + 1 : slot[0]);
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
