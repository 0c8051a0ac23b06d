/*
 * chase.h — a pointer chase over one random cycle of line-sized nodes: the latency probe.
 * Plain C, no ISA flags.  Each 64-byte line of a buffer holds one node, the address of the next
 * in a single cycle through every line, so every load depends on the one before (no overlap, no
 * prefetch can guess the next line) and no shorter loop lets the chase settle in a smaller cache.
 */
#ifndef STOREBENCH_CHASE_H
#define STOREBENCH_CHASE_H

#include <stddef.h>
#include <stdint.h>

/* Bytes per node: one cache line, so each load touches a line no other node shares. */
#define CHASE_NODE_BYTES 64

/* Lines of a 4 KiB page the chase loads in one visit to it (chase.c). */
#define CHASE_LINES_PER_VISIT 16

/*
 * Link the lines of buf[0, bytes) into one random cycle through all of them (bytes a multiple of
 * CHASE_NODE_BYTES, at least one node; buf 64-byte aligned).  The same seed gives the same cycle.
 */
void chase_build(void *buf, size_t bytes, uint64_t seed);

/* Follow n links from at; returns the node reached (the caller keeps it, so no load is dead). */
void *chase_walk(void *at, uint64_t n);

#endif
