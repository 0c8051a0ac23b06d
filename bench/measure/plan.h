/*
 * plan.h — one thread's work in a timed batch: a precomputed list of calls over its region.
 * Plain C.  A write op is one store-kernel call, a read op one load-kernel call: store sweeps,
 * hot/cold working sets and read/write mixes are all plans, nothing is decided in the timed loop.
 */
#ifndef STOREBENCH_PLAN_H
#define STOREBENCH_PLAN_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernels.h"
#include "load.h"
#include "rw.h"

enum op_kind { OP_WRITE, OP_READ };

/* count calls of bytes each at offset, offset + stride, ... (offsets from the region start). */
struct plan_op {
	uint64_t offset;
	uint64_t bytes;
	uint64_t count;
	uint64_t stride;
	enum op_kind kind;
};

/* Working-set modes, the ws_mode column. */
enum ws_mode { WS_CALL, WS_HOT, WS_COLD, WS_SEQ, WS_RANDOM };

/*
 * One pass = ops[0, nops - tail) repeated groups times, each repetition shifted by group_stride,
 * then the last tail ops once (offsets from the region start: the remainder of a periodic read/
 * write pattern); or, when offsets is set, one write call of call_bytes at each offsets[i]
 * (random orders, whose offsets must be precomputed, not drawn inside the timed loop).  A batch is
 * a whole number of passes, so every op has run at least once when the buffer is verified.
 */
struct plan {
	struct plan_op *ops;
	size_t nops;
	size_t tail;
	uint64_t groups;
	uint64_t group_stride;
	uint64_t *offsets;
	size_t noffsets;
	uint64_t *sizes;       /* with offsets: each call's bytes (a distribution's draws); NULL:
				* call_bytes every call */
	uint64_t call_bytes;
	uint64_t region_bytes; /* bytes from the region start that any op may touch */
	uint64_t calls;        /* calls per pass, reads and writes */
	uint64_t write_calls;  /* write calls per pass */
	uint64_t write_bytes;  /* bytes written per pass */
	uint64_t read_bytes;   /* bytes read per pass */
};

/* Cap on precomputed random offsets (8 bytes each): 32 MiB of table at most. */
#define PLAN_MAX_OFFSETS (1u << 22)

/*
 * The store-only plan of a point: call bytes per call over a working set of ws bytes (WS_CALL and
 * WS_HOT: ws = call, the same destination every call).  WS_COLD: random line-aligned offsets
 * in ws bytes; WS_RANDOM: random call-aligned slots.  seed makes random plans reproducible and
 * different per thread.  Returns false when out of memory.
 */
bool plan_store(struct plan *p, enum ws_mode mode, uint64_t call, uint64_t ws, uint64_t seed);

/*
 * The plan of n calls of sizes[0, n) bytes (a size distribution's draws, copied), each at a
 * random 64-byte-aligned offset where it fits whole in ws bytes (every size at most ws), seeded
 * by seed; call_bytes is their mean rounded up, write_bytes their sum.  false when out of memory.
 */
bool plan_store_sizes(struct plan *p, const uint64_t *sizes, size_t n, uint64_t ws,
		      uint64_t seed);

/*
 * The read/write plan of one pass over region bytes in chunks of chunk bytes, as rw.h's plan
 * iterator lays them out (ratio r, layout l): one store call per written chunk (its sfence, for
 * nt kernels), one load call per read chunk.  A spread mix repeats every total_parts chunks, so
 * it becomes one period of ops repeated as groups plus a tail, however large the region.  The
 * chunk must fit (rw_check_chunk).  Returns false when out of memory.
 */
bool plan_rw(struct plan *p, uint64_t region, uint64_t chunk, const struct rw_ratio *r,
	     enum rw_layout l);

void plan_free(struct plan *p);

/*
 * One thread's plan kept from point to point by whoever runs the points (measure.c): a store
 * plan is rebuilt only when its shape changes, since random plans are costly to draw and a sweep
 * measures every kernel on one shape in a row; a read/write plan is cheap and always rebuilt.
 */
struct plan_cache {
	struct plan plan;   /* the last plan built; empty before the first */
	bool store;         /* plan is plan_store() of the shape below, reusable as such */
	enum ws_mode mode;  /* that shape: working-set mode, */
	uint64_t call, ws;  /* call and working-set bytes, */
	const uint64_t *sizes; /* the sizes of plan_store_sizes() (NULL: plan_store()), */
	uint64_t seed;      /* and the seed of its random offsets */
};

/* plan_store() of this shape, built only if the cache holds another; NULL when out of memory. */
const struct plan *plan_cache_store(struct plan_cache *c, enum ws_mode mode, uint64_t call,
				    uint64_t ws, uint64_t seed);

/* plan_store_sizes() of these sizes (the same array: it is the draws of one distribution) in
 * ws bytes, built only if the cache holds another; NULL when out of memory. */
const struct plan *plan_cache_sizes(struct plan_cache *c, const uint64_t *sizes, size_t nsizes,
				    uint64_t ws, uint64_t seed);

/* plan_rw() of this mix, always built; NULL when out of memory. */
const struct plan *plan_cache_rw(struct plan_cache *c, uint64_t region, uint64_t chunk,
				 const struct rw_ratio *r, enum rw_layout l);

void plan_cache_free(struct plan_cache *c);

/* Run passes passes of p with base as the region start. */
void plan_run(const struct plan *p, char *base, store_fn store, load_fn load, int fill,
	      uint64_t passes);

/*
 * A split-mode reader: the plan's read calls, pass after pass, until *stop is set (checked before
 * every call, so only whole calls are done and counted).  Returns the bytes read.
 */
uint64_t plan_read_until(const struct plan *p, char *base, load_fn load, const atomic_bool *stop);

/*
 * Check that every written byte equals fill and that read ranges and the guard bytes just
 * outside the region still hold prefill.  Returns true when all hold; else the address of the
 * first wrong byte goes to *bad.
 */
bool plan_verify(const struct plan *p, const char *base, unsigned char fill,
		 unsigned char prefill, size_t guard, const char **bad);

#endif
