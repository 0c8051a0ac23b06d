/*
 * buffer.c — mmap-based buffers with page and NUMA policies.
 * Plain C, Linux + libnuma.  THP is requested with madvise on a 2 MiB-aligned mapping and 4k
 * explicitly opts out (MADV_NOHUGEPAGE), so "4k" means 4k even where THP is "always".
 */
#include "buffer.h"

#include <errno.h>
#include <numa.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

const char *const page_policy_name[] = {
	[PAGES_4K] = "4k", [PAGES_THP] = "thp", [PAGES_HUGETLB] = "hugetlb",
};

#define THP_BYTES (2u << 20)

unsigned long long meminfo(const char *field)
{
	char line[256];
	size_t flen = strlen(field);
	unsigned long long v = 0;
	FILE *f = fopen("/proc/meminfo", "r");

	if (!f)
		return 0;
	while (fgets(line, sizeof line, f)) {
		if (strncmp(line, field, flen) || line[flen] != ':')
			continue;
		v = strtoull(line + flen + 1, NULL, 10);
		if (strstr(line, "kB"))
			v *= 1024;
		break;
	}
	fclose(f);
	return v;
}

size_t hugetlb_page_bytes(void)
{
	unsigned long long v = meminfo("Hugepagesize");

	return v ? (size_t)v : THP_BYTES;
}

bool buffer_memory_fits(unsigned long long need, enum page_policy pages, char *err, size_t len)
{
	unsigned long long have;

	if (pages == PAGES_HUGETLB) {
		have = meminfo("HugePages_Free") * hugetlb_page_bytes();
		if (need <= have)
			return true;
		snprintf(err, len, "%llu MiB of huge pages, only %llu MiB free (HugePages_Free x "
			 "Hugepagesize)", need >> 20, have >> 20);
		return false;
	}
	have = meminfo("MemAvailable");
	if (!have || need <= BUFFER_MEM_SHARE * (double)have)
		return true;
	snprintf(err, len, "%llu MiB of buffers, only %llu MiB available (MemAvailable)",
		 need >> 20, have >> 20);
	return false;
}

static size_t round_up(size_t v, size_t to)
{
	return (v + to - 1) / to * to;
}

size_t buffer_footprint(size_t len, enum page_policy pages)
{
	size_t raw = len + 2 * BUFFER_GUARD;

	if (pages == PAGES_HUGETLB)
		return round_up(raw, hugetlb_page_bytes());
	if (pages == PAGES_THP)
		return round_up(raw, THP_BYTES) + THP_BYTES;
	return round_up(raw, 4096);
}

static bool bind(char *p, size_t len, struct membind bind, int node, char *err, size_t errlen)
{
	if (numa_available() < 0)
		return true; /* no NUMA support in this kernel: one node, nothing to bind */
	errno = 0;
	if (bind.kind == MEMBIND_INTERLEAVE)
		numa_interleave_memory(p, len, numa_all_nodes_ptr);
	else
		numa_tonode_memory(p, len, bind.kind == MEMBIND_NODE ? bind.node : node);
	if (errno) {
		snprintf(err, errlen, "NUMA binding failed: %s", strerror(errno));
		return false;
	}
	return true;
}

bool buffer_alloc(struct buffer *b, size_t len, enum page_policy pages, struct membind mb,
		  int node, char *err, size_t errlen)
{
	size_t map_len = buffer_footprint(len, pages);
	int flags = MAP_PRIVATE | MAP_ANONYMOUS | (pages == PAGES_HUGETLB ? MAP_HUGETLB : 0);
	char *map = mmap(NULL, map_len, PROT_READ | PROT_WRITE, flags, -1, 0), *start;

	memset(b, 0, sizeof *b);
	if (map == MAP_FAILED) {
		snprintf(err, errlen, "mmap of %zu bytes (%s pages) failed: %s", map_len,
			 page_policy_name[pages], strerror(errno));
		return false;
	}
	start = map;
	if (pages == PAGES_THP) {
		start = (char *)round_up((uintptr_t)map, THP_BYTES);
		madvise(start, map_len - (size_t)(start - map), MADV_HUGEPAGE);
	} else if (pages == PAGES_4K) {
		madvise(map, map_len, MADV_NOHUGEPAGE);
	}
	if (!bind(map, map_len, mb, node, err, errlen)) {
		munmap(map, map_len);
		return false;
	}
	b->map = map;
	b->map_len = map_len;
	b->region = start + BUFFER_GUARD;
	b->len = len;
	return true;
}

void buffer_free(struct buffer *b)
{
	if (b->map)
		munmap(b->map, b->map_len);
	memset(b, 0, sizeof *b);
}
