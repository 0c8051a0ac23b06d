/*
 * buffer.h — per-thread buffers with a page policy (4k, thp, hugetlb) and a NUMA policy.
 * Plain C, Linux + libnuma.  Allocated by the thread that will use them, so "local" means the
 * node of that thread's CPU, and pre-faulted by that thread before anything is timed.
 */
#ifndef STOREBENCH_BUFFER_H
#define STOREBENCH_BUFFER_H

#include <stdbool.h>
#include <stddef.h>

enum page_policy { PAGES_4K, PAGES_THP, PAGES_HUGETLB };
enum membind_kind { MEMBIND_LOCAL, MEMBIND_INTERLEAVE, MEMBIND_NODE };

struct membind {
	enum membind_kind kind;
	int node; /* MEMBIND_NODE only */
};

struct buffer {
	char *map;      /* mmap start */
	size_t map_len; /* mmap length */
	char *region;   /* page-aligned start of the usable region, BUFFER_GUARD after map */
	size_t len;     /* usable bytes from region */
};

/* Bytes before and after the region that stay prefilled, so stray writes are caught. */
#define BUFFER_GUARD 4096

extern const char *const page_policy_name[];

/*
 * Map at least len usable bytes (plus guards) with the given policies; node is the calling
 * thread's NUMA node (for MEMBIND_LOCAL).  On failure returns false with the reason in err.
 */
bool buffer_alloc(struct buffer *b, size_t len, enum page_policy pages, struct membind bind,
		  int node, char *err, size_t errlen);
void buffer_free(struct buffer *b);

/* The bytes buffer_alloc maps for len usable bytes under pages (for the memory check). */
size_t buffer_footprint(size_t len, enum page_policy pages);

/* /proc/meminfo field in bytes (kB fields scaled, counts as they are), 0 when absent. */
unsigned long long meminfo(const char *field);

/* Huge page size for MAP_HUGETLB (Hugepagesize), 2 MiB when unknown. */
size_t hugetlb_page_bytes(void);

/* The part of MemAvailable a command's buffers may take; the rest is left to the OS. */
#define BUFFER_MEM_SHARE 0.9

/*
 * Whether need bytes (buffer_footprint's, all buffers of a command together) can be mapped
 * under pages: HugePages_Free x Hugepagesize for hugetlb, else BUFFER_MEM_SHARE of MemAvailable.
 * false with the reason in err ("N MiB of buffers, only M MiB available (MemAvailable)"): the
 * one check run and load make before their first allocation.
 */
bool buffer_memory_fits(unsigned long long need, enum page_policy pages, char *err, size_t len);

#endif
