/*
 * cache_words.c — cache words at a thread count (per-thread shares, the DRAM rule) and the
 * CPUs, nodes and per-domain thread counts a point's rows report.  Plain C, no ISA.  Shares come from
 * shares.c; this file only decides which share each word means and how DRAM scales with them.
 */
#include "cache_words.h"

#include <stdio.h>
#include <stdlib.h>

#include "cpulist.h"

static const char *const word_name[SW_COUNT] = {
	[SW_L1D] = "L1d", [SW_L1] = "L1", [SW_L2] = "L2", [SW_L3] = "L3", [SW_LLC] = "LLC",
	[SW_DRAM] = "DRAM",
};

/* The last level the topology has (L3, else L2, else L1d); -1 when it knows no cache. */
static int llc_kind(const struct topology *t)
{
	for (int k = TOPO_L3; k >= TOPO_L1D; k--)
		if (t->cache[k].count)
			return k;
	return -1;
}

static unsigned long long dram_bytes(unsigned long long aggregate_llc, unsigned threads)
{
	const unsigned long long floor = (unsigned long long)DRAM_FLOOR_MIB << 20;
	const unsigned long long ceiling = (unsigned long long)DRAM_CEILING_MIB << 20;
	unsigned long long v = (DRAM_LLC_MULTIPLE * aggregate_llc + threads - 1) / threads;

	v = (v + 4095) / 4096 * 4096;
	return v < floor ? floor : v > ceiling ? ceiling : v;
}

/* The measured shares where they stand in for the reported ones: every word of a replaced
 * level, the LLC's too, and the DRAM word's aggregate (a share a thread of the LLC used). */
static void use_measured(const struct levels_file *lf, const struct thread_set *ts, int llc,
			 struct size_word words[SW_COUNT], unsigned long long *aggregate,
			 struct level_source *src)
{
	static const int word_level[] = { [SW_L1D] = LEVEL_L1D, [SW_L1] = LEVEL_L1D,
					  [SW_L2] = LEVEL_L2, [SW_L3] = LEVEL_L3 };
	char cpus[sizeof src->measured->cpus];
	struct level_shares used;

	src->reported = (struct level_shares){ { words[SW_L1D].value, words[SW_L2].value,
						 words[SW_L3].value } };
	src->measured = scaled_cpus(ts, cpus, sizeof cpus) ? levels_lookup(lf, cpus) : NULL;
	src->replaced = 0;
	if (!src->measured)
		return;
	used = effective_use(&src->reported, &src->measured->found, &src->replaced);
	for (int w = SW_L1D; w <= SW_L3; w++)
		words[w].value = used.bytes[word_level[w]];
	/* the topology's last level (TOPO_L1D.. = 0..) is the level rule's too */
	if (llc >= 0 && src->replaced & 1u << llc) {
		words[SW_LLC].value = used.bytes[llc];
		*aggregate = used.bytes[llc] * ts->threads;
	}
}

bool scaled_words(const struct topology *t, const struct cpu_info *cpu, const struct placement *pl,
		  unsigned threads, const struct levels_file *lf, struct thread_set *ts,
		  struct size_word words[SW_COUNT], struct level_source *src, char *err,
		  size_t errlen)
{
	static const int kind[] = { [SW_L1D] = TOPO_L1D, [SW_L1] = TOPO_L1D, [SW_L2] = TOPO_L2,
				    [SW_L3] = TOPO_L3 };
	static const unsigned level[] = { [SW_L1D] = 1, [SW_L1] = 1, [SW_L2] = 2, [SW_L3] = 3 };
	int llc = llc_kind(t);
	unsigned long long aggregate;

	if (!thread_set_of(t, pl, threads, ts, err, errlen))
		return false;
	/* a level the topology lacks keeps the CPU's size (a CPUID dump knows more, or nothing) */
	for (int w = SW_L1D; w <= SW_L3; w++) {
		const struct cache_share *s = &ts->cache[kind[w]];

		words[w] = (struct size_word){ word_name[w], s->share_min_bytes ? s->share_min_bytes :
							      cpu_cache_bytes(cpu, level[w]) };
	}
	words[SW_LLC] = (struct size_word){ word_name[SW_LLC], cpu_llc_bytes(cpu) };
	aggregate = cpu_llc_bytes(cpu);
	if (llc >= 0 && ts->cache[llc].share_min_bytes) {
		words[SW_LLC].value = ts->cache[llc].share_min_bytes;
		aggregate = ts->cache[llc].aggregate_bytes;
	}
	use_measured(lf, ts, llc, words, &aggregate, src);
	/* no cache known at all: DRAM is the floor, still a size a sweep can reach */
	words[SW_DRAM] = (struct size_word){ word_name[SW_DRAM], dram_bytes(aggregate, threads) };
	return true;
}

static int by_value(const void *a, const void *b)
{
	unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;

	return x < y ? -1 : x > y;
}

/* v[0..n) sorted and without duplicates, as a cpulist. */
static bool format_set(unsigned *v, size_t n, char *buf, size_t len)
{
	size_t m = 0;

	qsort(v, n, sizeof *v, by_value);
	for (size_t i = 0; i < n; i++)
		if (!m || v[m - 1] != v[i])
			v[m++] = v[i];
	return cpulist_format(v, m, buf, len);
}

bool scaled_cpus(const struct thread_set *ts, char *buf, size_t len)
{
	unsigned *v = malloc((ts->threads ? ts->threads : 1) * sizeof *v);
	bool ok = v != NULL;

	for (unsigned i = 0; ok && i < ts->threads; i++)
		v[i] = (unsigned)ts->cpu[i];
	ok = ok && format_set(v, ts->threads, buf, len);
	free(v);
	return ok;
}

bool scaled_nodes(const struct topology *t, const struct thread_set *ts, char *buf, size_t len)
{
	unsigned *v = malloc((ts->threads ? ts->threads : 1) * sizeof *v);
	size_t n = 0;
	bool ok = v != NULL;

	/* a CPU without a known node (no NUMA in the source) is on node 0, as libnuma sees it */
	for (unsigned i = 0; ok && i < ts->threads; i++) {
		int node = topology_pu(t, (unsigned)ts->cpu[i])->node;

		v[n++] = node < 0 ? 0 : (unsigned)node;
	}
	ok = ok && format_set(v, n, buf, len);
	free(v);
	return ok;
}
