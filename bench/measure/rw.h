/*
 * rw.h — read/write mixes: the --rw ratio list, modes, layouts, chunk rules and the per-thread plans.
 * Plain C, no engine state: the runner asks these functions what each thread reads and writes, so
 * the semantics (and their tests) do not depend on how the pool times them.
 */
#ifndef STOREBENCH_RW_H
#define STOREBENCH_RW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * The written share as an exact fraction: percents have at most two decimals (75 = 3/4,
 * 12.5 = 1/8) and MLC read:write ratios are exact by nature (2:1 = 1/3), so no plan or byte count
 * ever depends on a rounded float.  Printed back as a percent rounded to two decimals.
 */
#define RW_SPEC_MAX 24

struct rw_ratio {
	uint32_t write_parts;  /* written share = write_parts / total_parts, reduced */
	uint32_t total_parts;  /* > 0 */
	char spec[RW_SPEC_MAX]; /* the list element as the user typed it ("75", "3:1") */
};

/* Upper bound on --rw list elements: a sweep axis, not a data set. */
#define RW_MAX_RATIOS 32

/* Default --chunk: one 4 KiB page, as memtouch's per-page sfence. */
#define RW_CHUNK_DEFAULT 4096u
#define RW_CHUNK_ALIGN 64u

/* Modes and layouts: names typed once here, enums and name tables expanded from them. */
#define RW_MODES(X) X(interleave) X(split)
#define RW_LAYOUTS(X) X(spread) X(contiguous)

enum rw_mode {
#define RW_ENUM(n) RW_MODE_##n,
	RW_MODES(RW_ENUM)
#undef RW_ENUM
};

enum rw_layout {
#define RW_ENUM(n) RW_LAYOUT_##n,
	RW_LAYOUTS(RW_ENUM)
#undef RW_ENUM
};

enum rw_op {
	RW_READ,  /* one load-kernel call over the chunk */
	RW_WRITE, /* one store-kernel call over the chunk: its sfence, for nt kernels */
};

/*
 * Parsing.  Each returns 0, or -1 with one line (no program name, no newline) in err, e.g.
 * "--rw: '120' is out of range (percent written is 0..100)", for the caller to print after
 * "storebench run: " and exit 2.  Nothing is written to *out on error.
 */

/* "100,75,50,3:1": percents 0..100 with at most two decimals (an optional trailing '%'), or
 * MLC read:write ratios R:W (integers 0..10000, not both 0: 3:1 = 25 % written, 0:1 = 100).
 * Two elements naming the same share, or printing as the same percent (2:1 and 33.33), are an
 * error. */
int rw_parse_list(const char *list, struct rw_ratio *out, size_t max, size_t *count,
		  char *err, size_t errlen);
int rw_parse_mode(const char *s, enum rw_mode *out, char *err, size_t errlen);
int rw_parse_layout(const char *s, enum rw_layout *out, char *err, size_t errlen);

const char *rw_mode_name(enum rw_mode m);
const char *rw_layout_name(enum rw_layout l);

/* The ratio as the CSV rw_ratio column and benchmark names print it: percent written, two
 * decimals at most, trailing zeros dropped ("100", "12.5", "33.33" for 2:1).  Returns buf. */
char *rw_ratio_format(const struct rw_ratio *r, char *buf, size_t len);

/* write_parts == total_parts (store only) / write_parts == 0 (read only). */
bool rw_ratio_is_store_only(const struct rw_ratio *r);
bool rw_ratio_is_read_only(const struct rw_ratio *r);

/* --chunk against the region each thread walks: nonzero, a multiple of 64, at most region_bytes. */
int rw_check_chunk(size_t chunk_bytes, size_t region_bytes, char *err, size_t errlen);

/*
 * Interleave plan for one pass over one thread's region: chunks [i*chunk, (i+1)*chunk), the last
 * one shorter when chunk does not divide the region.  Over the pass, with W bytes written of T,
 * 0 <= W - ratio*T < chunk: the share is exact to within one chunk, never below the ratio.
 *   spread      a chunk is written when the bytes written so far fall short of ratio x (bytes
 *               walked including this chunk), a Bresenham accumulator: 75 -> W W W R,
 *               50 -> W R, 2:1 -> W R R.  The bound then holds after every chunk, not only at
 *               the end, so any stretch of the pass sees the same mix.
 *   contiguous  memtouch's layout: the first chunks are read, the rest written.
 */
struct rw_plan {
	size_t region_bytes;   /* bytes one thread walks per pass */
	size_t chunk_bytes;    /* bytes per kernel call; a write chunk is one store call (one fence) */
	size_t nchunks;        /* chunks per pass, the last may be short */
	size_t last_bytes;     /* length of the last chunk, in (0, chunk_bytes] */
	enum rw_layout layout;
	uint32_t write_parts;  /* the ratio, copied from struct rw_ratio */
	uint32_t total_parts;
	size_t read_prefix;    /* contiguous: bytes read before the first write (a chunk multiple,
				* or the whole region for rw 0) */
	bool last_write;       /* spread: the op of a short last chunk (weighted by its length) */
};

/* The plan for one thread's region; the rw_check_chunk() error when the chunk does not fit. */
int rw_plan_init(struct rw_plan *p, size_t region_bytes, size_t chunk_bytes,
		 const struct rw_ratio *r, enum rw_layout layout, char *err, size_t errlen);

struct rw_chunk {
	size_t offset;  /* from the start of the thread's region */
	size_t bytes;
	enum rw_op op;
};

/* Walk state: O(1), no allocation, a few integer operations per chunk. */
struct rw_cursor {
	size_t index;  /* next chunk */
	int64_t acc;   /* spread: write_parts*(chunks seen) - total_parts*(chunks written) */
};

static inline void rw_cursor_start(struct rw_cursor *c)
{
	c->index = 0;
	c->acc = 0;
}

/* The next chunk of the pass into *out; false after the last one. */
static inline bool rw_plan_next(const struct rw_plan *p, struct rw_cursor *c, struct rw_chunk *out)
{
	if (c->index >= p->nchunks)
		return false;
	out->offset = c->index * p->chunk_bytes;
	out->bytes = ++c->index == p->nchunks ? p->last_bytes : p->chunk_bytes;
	if (p->layout == RW_LAYOUT_contiguous) {
		out->op = out->offset < p->read_prefix ? RW_READ : RW_WRITE;
	} else if (out->bytes != p->chunk_bytes) {
		out->op = p->last_write ? RW_WRITE : RW_READ;
	} else {
		c->acc += p->write_parts;
		out->op = c->acc > 0 ? RW_WRITE : RW_READ;
		if (out->op == RW_WRITE)
			c->acc -= p->total_parts;
	}
	return true;
}

/* Per-pass accounting, closed form (the tests check it against a walk): read + write = region. */
size_t rw_plan_write_bytes(const struct rw_plan *p);
size_t rw_plan_read_bytes(const struct rw_plan *p);
size_t rw_plan_write_calls(const struct rw_plan *p); /* store-kernel calls = fences for nt */
size_t rw_plan_read_calls(const struct rw_plan *p);

/*
 * Split mode: whole threads read or write, each over its own region, in the same timed window.
 * The ratio is the share of threads that write (not of bytes: how many bytes the readers manage
 * next to the writers is the measurement).  writers = threads*ratio rounded half up, then kept in
 * [1, threads-1] when 0 < ratio < 100; fewer than 2 threads then is an error.  Writers are spread
 * over thread indices the way write chunks are spread over a region, so compact placement still
 * puts readers and writers on every node and L3 domain.  Intended window (docs/rw.md): every
 * writer walks its region once; readers walk theirs chunk by chunk until the last writer is done,
 * and count completed chunks.
 */
struct rw_split {
	unsigned threads;
	unsigned writers; /* threads that run the store kernel under test */
	unsigned readers; /* threads that run the load kernel; readers + writers = threads */
};

int rw_split_init(struct rw_split *s, unsigned threads, const struct rw_ratio *r,
		  char *err, size_t errlen);

/*
 * The written share split mode really measures, writers / threads: whole threads round the
 * requested ratio (25 at 2 threads is one writer of two, 50), and a row must say what it measured.
 */
void rw_split_ratio(const struct rw_split *s, struct rw_ratio *out);

/* What thread index t (0-based, t < threads) does. */
enum rw_op rw_split_role(const struct rw_split *s, unsigned t);

#endif
