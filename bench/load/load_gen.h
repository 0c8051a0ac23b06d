/*
 * load_gen.h — a steady memory load, as memtouch makes one: each thread dirties and reads its own
 * region in chunks at a read/write ratio until stopped, adding every byte to counters that the
 * caller samples.  Plain C, pthreads.  The counters are the only source of the rates: an
 * interval's bytes are the difference of two samples, so a run's intervals add up to its totals.
 */
#ifndef STOREBENCH_LOAD_GEN_H
#define STOREBENCH_LOAD_GEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "buffer.h"
#include "kernels.h"
#include "load.h"

struct load_config {
	const struct kernel *k;   /* the store kernel: its fn makes the first touch... */
	store_fn store;           /* ...and this, its function for a chunk, the written chunks */
	load_fn read;             /* the read kernel of read chunks */
	unsigned threads;         /* worker threads, one per CPU below */
	const int *cpu;           /* thread i is pinned to cpu[i]... */
	const int *node;          /* ...and maps its region on node[i] (first touch from there) */
	enum page_policy pages;   /* the region's pages */
	uint64_t mem_bytes;       /* each thread's region: a whole number of chunks */
	uint64_t chunk_bytes;     /* bytes per store or read call */
	unsigned write_parts;     /* written chunks: write_parts of every total_parts, spread evenly */
	unsigned total_parts;
	int fill;                 /* the byte stored */
	double write_rate;        /* bytes per second over all threads; 0: as fast as they go */
	bool once;                /* first touch only (memtouch --once): no steady load */
	int (*stopped)(void);     /* nonzero: stop the first touch at its next chunk (a signal);
				   * may be NULL */
};

/* The first touch goes in chunks this large, the stop looked at between them: a few ms each. */
#define LOAD_TOUCH_CHUNK (64ull << 20)

/* One thread's bytes so far; written by its worker only, read by anyone. */
struct load_count {
	uint64_t read, written;
};

struct load_gen;

/*
 * Allocate every thread's region, first-touch it (all threads at once, each its own, with the
 * store kernel) and start the steady load unless c->once.  NULL + one line in err on failure,
 * or when c->stopped said stop during the first touch ("stopped by a signal").
 */
struct load_gen *load_start(const struct load_config *c, char *err, size_t errlen);

/* Seconds from the start of the first touch until the last thread had finished its own. */
double load_first_touch_s(const struct load_gen *g);

/* Every thread's counts now, into out[threads]; after load_stop, the final counts. */
void load_sample(const struct load_gen *g, struct load_count *out);

/* Stop the workers and wait for them; the counts are final afterwards. */
void load_stop(struct load_gen *g);

/* Free the regions and g (after load_stop). */
void load_free(struct load_gen *g);

#endif
