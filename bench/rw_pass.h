/*
 * rw_pass.h — what one thread does with an rw plan: the timed pass, the split reader, the check.
 * Plain C, no ISA of its own (it calls kernels through their pointers), no timing and no pool:
 * the runner times these calls, so the walk the tests prove is the walk that gets measured.
 */
#ifndef STOREBENCH_RW_PASS_H
#define STOREBENCH_RW_PASS_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernels.h"
#include "load.h"
#include "rw.h"

/*
 * One pass of plan p over region: one store(chunk, c, bytes) call per written chunk, one
 * load(chunk, bytes) call per read chunk, in plan order.  Returns the OR of the load results;
 * the caller stores it to a volatile sink, so the reads cannot be optimised away.
 */
uint64_t rw_pass(const struct rw_plan *p, unsigned char *region, store_fn store, int c,
		 load_fn load);

/*
 * A split-mode reader: load the region chunk after chunk, wrapping around at its end, until
 * *stop is set (checked before each chunk, relaxed: a chunk late is fine, a torn count is not
 * possible since only whole chunks are counted).  Returns the bytes read; ORs the load results
 * into *sink.
 */
size_t rw_read_until(const unsigned char *region, size_t region_bytes, size_t chunk_bytes,
		     load_fn load, const atomic_bool *stop, uint64_t *sink);

/*
 * After a measured point: written chunks hold (unsigned char)c and read chunks still hold
 * prefill (a read kernel that wrote, or a store that strayed, is caught).  Returns true when
 * all bytes match, else false with the first wrong offset in *bad.
 */
bool rw_verify(const struct rw_plan *p, const unsigned char *region, int c, int prefill,
	       size_t *bad);

#endif
