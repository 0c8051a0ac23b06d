/*
 * plan_test.c — the runner's per-thread plans: byte accounting of each working-set mode and of a
 * distribution's drawn sizes, that verification catches a kernel that stores too little, too
 * much, or nothing, and that the plan cache rebuilds exactly when the shape changes.
 * Plain C, no ISA flags; the "kernels" here are deliberately wrong stand-ins built on memset.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan.h"
#include "test_util.h"

#define GUARD 64

static void *good(void *d, int c, size_t n)
{
	return memset(d, c, n);
}

static void *short_by_one(void *d, int c, size_t n)
{
	return memset(d, c, n ? n - 1 : 0);
}

static void *one_past(void *d, int c, size_t n)
{
	return memset(d, c, n + 1);
}

static void *nothing(void *d, int c, size_t n)
{
	(void)c;
	(void)n;
	return d;
}

static void *one_before(void *d, int c, size_t n)
{
	memset((char *)d - 1, c, 1);
	return memset(d, c, n);
}

static uint64_t sum_load(const void *src, size_t n)
{
	const unsigned char *s = src;
	uint64_t acc = 0;

	for (size_t i = 0; i < n; i++)
		acc += s[i];
	return acc;
}

/* A "load" that writes: what the read-chunk check of plan_verify is there to catch. */
static uint64_t writing_load(const void *src, size_t n)
{
	memset((void *)src, 0xa5, n);
	return 0;
}

/*
 * A read/write pattern (the shape rw mixes use): per 256-byte group, a 128-byte write then a
 * 128-byte read, 4 groups.  Accounting is the caller's; here: calls happen where the plan says
 * and verification tells untouched read chunks from overwritten ones.
 */
static void check_mixed(void)
{
	struct plan_op ops[2] = {
		{ .offset = 0, .bytes = 128, .count = 1, .stride = 128, .kind = OP_WRITE },
		{ .offset = 128, .bytes = 128, .count = 1, .stride = 128, .kind = OP_READ },
	};
	struct plan p = { .ops = ops, .nops = 2, .groups = 4, .group_stride = 256,
			  .region_bytes = 1024, .calls = 8, .write_calls = 4 };
	char buf[1024 + 2 * GUARD], *base = buf + GUARD;
	const char *bad;

	memset(buf, 0x5a, sizeof buf);
	plan_run(&p, base, good, sum_load, 0xa5, 3);
	CHECK(plan_verify(&p, base, 0xa5, 0x5a, GUARD, &bad), "mixed plan: good kernels rejected");
	CHECK((unsigned char)base[128] == 0x5a && (unsigned char)base[511] == 0x5a,
	      "mixed plan: a read chunk was written");
	memset(buf, 0x5a, sizeof buf);
	plan_run(&p, base, good, writing_load, 0xa5, 1);
	CHECK(!plan_verify(&p, base, 0xa5, 0x5a, GUARD, &bad) && bad == base + 128,
	      "mixed plan: a load that writes passed");
}

/* Run plan p once over a fresh prefilled buffer with store, then verify. */
static bool run_and_verify(const struct plan *p, store_fn store, size_t misalign)
{
	size_t len = p->region_bytes + misalign + 2 * GUARD;
	char *buf = malloc(len), *base = buf + GUARD + misalign;
	const char *bad;
	bool ok;

	memset(buf, 0x5a, len);
	plan_run(p, base, store, NULL, 0xa5, 2);
	ok = plan_verify(p, base, 0xa5, 0x5a, GUARD, &bad);
	free(buf);
	return ok;
}

/*
 * The cache keeps a store plan while the shape stays (a marker written into its random offsets
 * survives) and draws it again when any of mode, call, ws or seed changes or a mix was built.
 */
static void check_cache(void)
{
	static const struct rw_ratio half = { 1, 2, "50" };
	const uint64_t marker = 3 * 256;
	struct plan_cache c = { 0 };
	const struct plan *p;

	p = plan_cache_store(&c, WS_RANDOM, 256, 256 * 512, 7);
	CHECK(p && p->noffsets == 512, "cache: first random plan");
	((struct plan *)p)->offsets[0] = marker;
	p = plan_cache_store(&c, WS_RANDOM, 256, 256 * 512, 7);
	CHECK(p && p->offsets[0] == marker, "cache: the same shape was drawn again");
	struct { enum ws_mode mode; uint64_t call, ws, seed; } other[] = {
		{ WS_RANDOM, 256, 256 * 512, 8 }, { WS_RANDOM, 512, 256 * 512, 7 },
		{ WS_RANDOM, 256, 256 * 1024, 7 }, { WS_COLD, 256, 256 * 512, 7 },
	};
	for (size_t i = 0; i < sizeof other / sizeof other[0]; i++) {
		p = plan_cache_store(&c, WS_RANDOM, 256, 256 * 512, 7);
		((struct plan *)p)->offsets[0] = marker;
		p = plan_cache_store(&c, other[i].mode, other[i].call, other[i].ws, other[i].seed);
		CHECK(p && p->call_bytes == other[i].call && p->region_bytes == other[i].ws,
		      "cache: change %zu built the wrong plan", i);
		p = plan_cache_store(&c, WS_RANDOM, 256, 256 * 512, 7);
		CHECK(p && p->offsets[0] != marker, "cache: change %zu kept the old plan", i);
	}
	((struct plan *)p)->offsets[0] = marker;
	p = plan_cache_rw(&c, 4096, 64, &half, RW_LAYOUT_spread);
	CHECK(p && p->read_bytes == 2048 && p->write_bytes == 2048, "cache: mix plan");
	p = plan_cache_store(&c, WS_RANDOM, 256, 256 * 512, 7);
	CHECK(p && p->noffsets == 512 && p->offsets[0] != marker, "cache: a mix left a store plan");
	plan_cache_free(&c);
	CHECK(!c.plan.ops && !c.plan.offsets && !c.store, "cache: free left a plan");
}

/*
 * A plan of drawn sizes (a distribution's): every call where it fits whole at a 64-byte-aligned
 * offset, the bytes its sizes add up to, and a verification that catches a short store, a store
 * past a call's end where no call reaches (the gaps between calls are checked too), and none.
 */
static void check_sizes(void)
{
	enum { N = 400 };
	uint64_t sizes[N], sum = 0;
	struct plan p;
	const struct plan *cached;
	struct plan_cache c = { 0 };

	for (size_t i = 0; i < N; i++) {
		sizes[i] = i % 5 == 0 ? 0 : 1 + (i * 37) % 300; /* zero-byte calls among them */
		sum += sizes[i];
	}
	CHECK(plan_store_sizes(&p, sizes, N, 64 << 10, 9), "plan_store_sizes");
	CHECK(p.calls == N && p.write_bytes == sum && p.call_bytes == (sum + N - 1) / N &&
	      p.region_bytes == 64 << 10, "sizes: %llu calls, %llu bytes, mean %llu",
	      (unsigned long long)p.calls, (unsigned long long)p.write_bytes,
	      (unsigned long long)p.call_bytes);
	for (size_t i = 0; i < N; i++)
		CHECK(p.sizes[i] == sizes[i] && p.offsets[i] % 64 == 0 &&
		      p.offsets[i] + p.sizes[i] <= p.region_bytes, "call %zu at %llu", i,
		      (unsigned long long)p.offsets[i]);
	for (size_t m = 0; m < 64; m += 21) {
		CHECK(run_and_verify(&p, good, m), "sizes misalign %zu: good kernel rejected", m);
		CHECK(!run_and_verify(&p, short_by_one, m), "sizes: short store passed");
		CHECK(!run_and_verify(&p, nothing, m), "sizes: no store passed");
		CHECK(!run_and_verify(&p, one_past, m), "sizes: a store past the end passed");
	}
	{
		/* a stray byte in a gap no call reaches, before the last call's end: only the check
		 * of the gaps sees it (the guards do not) */
		size_t len = p.region_bytes + 2 * GUARD, gap = 0, last = 0;
		char *buf = malloc(len), *base = buf + GUARD;
		unsigned char *hit = calloc(p.region_bytes, 1);
		const char *bad = NULL;

		memset(buf, 0x5a, len);
		plan_run(&p, base, good, NULL, 0xa5, 1);
		for (size_t i = 0; i < N; i++) {
			memset(hit + p.offsets[i], 1, p.sizes[i]);
			if (p.offsets[i] + p.sizes[i] > last)
				last = p.offsets[i] + p.sizes[i];
		}
		while (gap < last && hit[gap])
			gap++;
		CHECK(gap < last, "the draws leave a gap before the last call's end");
		base[gap] = (char)0xa5;
		CHECK(!plan_verify(&p, base, 0xa5, 0x5a, GUARD, &bad) && bad == base + gap,
		      "a stray store in a gap at %zu passed (bad %p)", gap, (const void *)bad);
		free(hit);
		free(buf);
	}
	plan_free(&p);
	cached = plan_cache_sizes(&c, sizes, N, 64 << 10, 9);
	CHECK(cached && plan_cache_sizes(&c, sizes, N, 64 << 10, 9) == cached &&
	      cached->sizes && plan_cache_store(&c, WS_HOT, 64, 64, 9)->sizes == NULL,
	      "the cache keeps a plan of sizes and builds one of one size after it");
	plan_cache_free(&c);
}

int main(void)
{
	static const struct {
		enum ws_mode mode;
		uint64_t call, ws, calls, region;
	} shapes[] = {
		{ WS_CALL, 4096, 4096, 1, 4096 },
		{ WS_HOT, 64, 64, 1, 64 },
		{ WS_SEQ, 1000, 64 * 1000, 64, 64000 },
		{ WS_RANDOM, 256, 256 * 512, 512, 256 * 512 },
		{ WS_COLD, 64, 1 << 20, (1 << 20) / 64, 1 << 20 },
	};

	for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
		struct plan p;

		CHECK(plan_store(&p, shapes[i].mode, shapes[i].call, shapes[i].ws, 42), "plan_store");
		CHECK(p.calls == shapes[i].calls, "shape %zu: %llu calls per pass", i,
		      (unsigned long long)p.calls);
		CHECK(p.write_bytes == shapes[i].calls * shapes[i].call, "shape %zu: write bytes", i);
		CHECK(p.read_bytes == 0, "shape %zu: read bytes", i);
		CHECK(p.region_bytes == shapes[i].region, "shape %zu: region %llu", i,
		      (unsigned long long)p.region_bytes);
		for (size_t m = 0; m < 64; m += 21) {
			CHECK(run_and_verify(&p, good, m), "shape %zu misalign %zu: good kernel rejected",
			      i, m);
			CHECK(!run_and_verify(&p, short_by_one, m), "shape %zu: short store passed", i);
			CHECK(!run_and_verify(&p, nothing, m), "shape %zu: no store passed", i);
			if (shapes[i].mode != WS_COLD && shapes[i].mode != WS_RANDOM) {
				/* scattered calls may overlap; contiguous ones have real neighbours */
				CHECK(!run_and_verify(&p, one_past, m), "shape %zu: overrun passed", i);
				CHECK(!run_and_verify(&p, one_before, m), "shape %zu: underrun passed", i);
			}
		}
		if (shapes[i].mode == WS_RANDOM) {
			/* every slot exactly once per pass: a shuffled permutation */
			char *seen = calloc(p.noffsets, 1);

			for (size_t k = 0; k < p.noffsets; k++) {
				CHECK(p.offsets[k] % p.call_bytes == 0, "random offset not call-aligned");
				seen[p.offsets[k] / p.call_bytes]++;
			}
			for (size_t k = 0; k < p.noffsets; k++)
				CHECK(seen[k] == 1, "slot %zu drawn %d times", k, seen[k]);
			free(seen);
		}
		if (shapes[i].mode == WS_COLD)
			for (size_t k = 0; k < p.noffsets; k++)
				CHECK(p.offsets[k] % 64 == 0 && p.offsets[k] + 64 <= p.region_bytes,
				      "cold offset %llu", (unsigned long long)p.offsets[k]);
		plan_free(&p);
	}
	check_mixed();
	check_cache();
	check_sizes();
	return test_result("ok: plans account and verify");
}
