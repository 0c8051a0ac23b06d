/*
 * rw_pass.c — one thread's rw work: a pass over its plan, the split reader, the after-check.
 * Plain C, no ISA flags: kernels are called through their pointers, after the caller checked
 * that the CPU can run them.
 */
#include "rw_pass.h"

uint64_t rw_pass(const struct rw_plan *p, unsigned char *region, store_fn store, int c,
		 load_fn load)
{
	struct rw_cursor cur;
	struct rw_chunk ch;
	uint64_t acc = 0;

	rw_cursor_start(&cur);
	while (rw_plan_next(p, &cur, &ch)) {
		if (ch.op == RW_WRITE)
			store(region + ch.offset, c, ch.bytes);
		else
			acc |= load(region + ch.offset, ch.bytes);
	}
	return acc;
}

size_t rw_read_until(const unsigned char *region, size_t region_bytes, size_t chunk_bytes,
		     load_fn load, const atomic_bool *stop, uint64_t *sink)
{
	size_t done = 0, off = 0;
	uint64_t acc = 0;

	while (!atomic_load_explicit(stop, memory_order_relaxed)) {
		size_t n = region_bytes - off < chunk_bytes ? region_bytes - off : chunk_bytes;

		acc |= load(region + off, n);
		done += n;
		off += n;
		if (off == region_bytes)
			off = 0;
	}
	*sink |= acc;
	return done;
}

static bool all_equal(const unsigned char *s, size_t n, unsigned char v, size_t *bad)
{
	for (size_t i = 0; i < n; i++)
		if (s[i] != v) {
			*bad = i;
			return false;
		}
	return true;
}

bool rw_verify(const struct rw_plan *p, const unsigned char *region, int c, int prefill,
	       size_t *bad)
{
	struct rw_cursor cur;
	struct rw_chunk ch;
	size_t at;

	rw_cursor_start(&cur);
	while (rw_plan_next(p, &cur, &ch)) {
		unsigned char want = (unsigned char)(ch.op == RW_WRITE ? c : prefill);

		if (!all_equal(region + ch.offset, ch.bytes, want, &at)) {
			*bad = ch.offset + at;
			return false;
		}
	}
	return true;
}
