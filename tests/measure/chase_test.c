/*
 * chase_test.c — the pointer chase's cycle (bench/measure/chase.c): every node lies in the
 * buffer, on its own line, and one walk from any node visits every node exactly once before it
 * returns; whole pages are visited CHASE_LINES_PER_VISIT lines at a time; the same seed gives the
 * same cycle, another seed another one.  Plain C.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "chase.h"
#include "test_util.h"

/* Check the cycle over n nodes of buf: one cycle through all of them, every link in bounds. */
static void one_cycle(size_t n, uint64_t seed)
{
	size_t bytes = n * CHASE_NODE_BYTES;
	char *buf = aligned_alloc(64, bytes);
	unsigned char *seen = calloc(n, 1);
	void *at;
	size_t steps = 0;

	CHECK(buf && seen, "memory for %zu nodes", n);
	if (!buf || !seen) {
		free(buf);
		free(seen);
		return;
	}
	chase_build(buf, bytes, seed);
	at = buf + (n / 2) * CHASE_NODE_BYTES; /* any start: a cycle has no first node */
	do {
		size_t off = (size_t)((char *)at - buf);

		if (off >= bytes || off % CHASE_NODE_BYTES) {
			CHECK(0, "n=%zu: a link leaves the buffer or its line: offset %zu", n, off);
			break;
		}
		if (seen[off / CHASE_NODE_BYTES]) {
			CHECK(0, "n=%zu: node %zu visited twice after %zu steps: more than one cycle",
			      n, off / CHASE_NODE_BYTES, steps);
			break;
		}
		seen[off / CHASE_NODE_BYTES] = 1;
		at = chase_walk(at, 1);
		steps++;
	} while (at != buf + (n / 2) * CHASE_NODE_BYTES);
	CHECK(steps == n, "n=%zu: the cycle has %zu nodes", n, steps);
	/* whole pages are loaded CHASE_LINES_PER_VISIT lines a visit, then another page: a page
	 * walk per visit, not per load, and never a run of the page's lines longer than a visit */
	if (n >= 2 * 64) {
		size_t run = 1, longest = 0, visits = 0, whole = n / 64 * 64;

		at = buf;
		for (size_t k = 0; k < n; k++) {
			char *next = chase_walk(at, 1);
			size_t a = (size_t)((char *)at - buf) / CHASE_NODE_BYTES,
			       b = (size_t)(next - buf) / CHASE_NODE_BYTES;

			if (a < whole && b < whole && a / 64 == b / 64) {
				run++;
			} else {
				longest = run > longest ? run : longest;
				visits += a < whole;
				run = 1;
			}
			at = next;
		}
		CHECK(longest == CHASE_LINES_PER_VISIT && visits == whole / CHASE_LINES_PER_VISIT,
		      "n=%zu: %zu visits of at most %zu lines, want %zu of %d", n, visits, longest,
		      whole / CHASE_LINES_PER_VISIT, CHASE_LINES_PER_VISIT);
	}
	/* the walk of n links from a node comes back to it; of n - 1 it does not (n > 1) */
	CHECK(chase_walk(buf, n) == buf, "n=%zu: n links return to the start", n);
	if (n > 1)
		CHECK(chase_walk(buf, n - 1) != buf, "n=%zu: n - 1 links do not", n);
	free(buf);
	free(seen);
}

/* The same seed lays the same cycle, another seed (almost surely) another. */
static void seeded(void)
{
	enum { N = 4096 };
	char *a = aligned_alloc(64, N * CHASE_NODE_BYTES), *b = aligned_alloc(64, N * CHASE_NODE_BYTES);
	size_t differ = 0;

	if (!a || !b) {
		CHECK(0, "memory");
		free(a);
		free(b);
		return;
	}
	chase_build(a, N * CHASE_NODE_BYTES, 7);
	chase_build(b, N * CHASE_NODE_BYTES, 7);
	for (size_t i = 0; i < N; i++)
		differ += *(uintptr_t *)(a + i * CHASE_NODE_BYTES) - (uintptr_t)a !=
			  *(uintptr_t *)(b + i * CHASE_NODE_BYTES) - (uintptr_t)b;
	CHECK(differ == 0, "seed 7 twice: %zu links differ", differ);
	chase_build(b, N * CHASE_NODE_BYTES, 8);
	differ = 0;
	for (size_t i = 0; i < N; i++)
		differ += *(uintptr_t *)(a + i * CHASE_NODE_BYTES) - (uintptr_t)a !=
			  *(uintptr_t *)(b + i * CHASE_NODE_BYTES) - (uintptr_t)b;
	CHECK(differ > N / 2, "seeds 7 and 8: only %zu of %d links differ", differ, N);
	free(a);
	free(b);
}

int main(void)
{
	static const size_t sizes[] = { 1, 2, 3, 7, 64, 128, 1000, 4097, 1 << 16 };

	for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++)
		for (uint64_t seed = 1; seed <= 3; seed++)
			one_cycle(sizes[i], seed);
	seeded();
	return test_result("chase_test: one cycle through every node at %zu sizes",
			   sizeof sizes / sizeof *sizes);
}
