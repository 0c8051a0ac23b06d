/*
 * point.h — one point of a sweep: a store point or a read/write mix point, and how it prints.
 * Plain C.  Each kind keeps its own sizes under their own names (a store's call and working set, a
 * mix's chunk and region), so no stage reads one as the other; point_shown() is the one place
 * that says which of them the shared name fields and CSV columns carry.
 */
#ifndef STOREBENCH_POINT_H
#define STOREBENCH_POINT_H

#include <stddef.h>
#include <stdint.h>

#include "kernels.h"
#include "plan.h"
#include "rw.h"
#include "victim.h"

enum point_kind {
	POINT_STORE, /* rw 100: the store kernel alone, calls cycling through a working set */
	POINT_MIX,   /* rw below 100: read and written chunks over a region walked in order */
};

/* A store point's shape. */
struct store_shape {
	enum ws_mode mode;   /* how calls move through the working set: call, hot, cold, seq, random */
	uint64_t call_bytes; /* bytes per store-kernel call; with sizes, their mean rounded up */
	uint64_t ws_bytes;   /* distinct bytes per thread the calls cycle through */
	const char *dist;    /* the size distribution the calls' sizes come from, NULL for one size */
	const uint64_t *sizes; /* with dist: its draws, one call each at a random offset in ws */
	size_t nsizes;       /* how many */
};

/* A read/write mix point's shape: each thread walks its region in order, one chunk per call. */
struct mix_shape {
	struct rw_ratio rw;     /* written share, below 100 %; split: the share whole threads give */
	enum rw_mode mode;      /* interleave: every thread mixes; split: readers and writers */
	enum rw_layout layout;  /* interleave: where the written chunks lie (split writes spread) */
	uint64_t chunk_bytes;   /* bytes per read or write call; a written chunk is one store call */
	uint64_t region_bytes;  /* bytes each thread walks per pass */
};

struct point {
	const struct kernel *k;  /* the store kernel */
	unsigned threads;        /* threads in the timed batch */
	unsigned misalign;       /* each thread's destination offset from a 64-byte boundary */
	enum point_kind kind;    /* which member of the union below holds the shape */
	union {
		struct store_shape store; /* POINT_STORE */
		struct mix_shape mix;     /* POINT_MIX */
	};
	struct victim_spec victim; /* what runs beside the writers (store points only) */
	char name[192];          /* the Google Benchmark name, written by point_name() */
};

extern const char *const ws_mode_name[];

/* Bytes one store-kernel call writes: a store point's call, a mix point's written chunk. */
uint64_t point_call_bytes(const struct point *p);

/* Distinct bytes one thread touches: a store point's working set, a mix point's region. */
uint64_t point_ws_bytes(const struct point *p);

/* Bytes one thread's buffer needs for p (those bytes plus the misalignment). */
uint64_t point_region_bytes(const struct point *p);

/* Relative cost of p for the ETA: a fixed part plus the bytes prefilled, verified and, with a
 * victim, stored by its probe. */
double point_weight(const struct point *p);

/*
 * Write p->name, <kernel>/call:<n>/ws:<n>/threads:<t>/rw:<r>: the ws mode, a distribution
 * (/dist:<name>, its calls' mean as the call), rw mode and layout, misalignment and victim
 * appear only when not the default, so names stay stable.  A mix point names its chunk as the
 * call and its region as a seq working set.
 */
void point_name(struct point *p);

/*
 * The size fields a point shows as call_bytes, ws_mode and ws_bytes (names and rows alike): a
 * mix point walks its region in order, one chunk per call.
 */
struct shown_sizes {
	uint64_t call;     /* the call_bytes column and name field */
	enum ws_mode mode; /* the ws_mode column and name prefix */
	uint64_t ws;       /* the ws_bytes column and name field */
};

struct shown_sizes point_shown(const struct point *p);

/* p's rw ratio as its name and row show it: a store point is 100 whatever the --rw element said
 * ("100", "0:1"). */
const char *point_rw_text(const struct point *p, char *buf, size_t len);

#endif
