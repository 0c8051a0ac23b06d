/*
 * test_rw_pass.c — a thread's rw work (bench/rw_pass.c) with real kernels and with counting stubs.
 * ISA: the kernels this CPU can run (SSE2 ones always; the widest nt row and read kernel here).
 * Why: the bytes the CSV says were read and written must be the bytes the kernels touched.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu.h"
#include "rw_pass.h"

#define CANARY 0x5a
#define PREFILL 0x11
#define FILL 0xc3
#define GUARD 4096

static int failures;

#define CHECK(cond, ...)							\
	do {									\
		if (!(cond)) {							\
			failures++;						\
			fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);	\
			fprintf(stderr, __VA_ARGS__);				\
			fputc('\n', stderr);					\
		}								\
	} while (0)

static struct rw_ratio ratio(const char *s)
{
	struct rw_ratio r;
	size_t n;
	char err[200];

	if (rw_parse_list(s, &r, 1, &n, err, sizeof err)) {
		fprintf(stderr, "test_rw_pass: %s\n", err);
		exit(1);
	}
	return r;
}

/* Counting stubs: every call's offset and size, so the call pattern itself is checked. */
static unsigned char *stub_base;
static size_t stores, loads, store_bytes, load_bytes, bad_calls, stop_after;
static atomic_bool stop;

static void *stub_store(void *dst, int c, size_t n)
{
	(void)c;
	stores++;
	store_bytes += n;
	bad_calls += (size_t)((unsigned char *)dst - stub_base) % 64 != 0;
	return dst;
}

static uint64_t stub_load(const void *src, size_t n)
{
	(void)src;
	loads++;
	load_bytes += n;
	if (stop_after && loads == stop_after)
		atomic_store(&stop, true);
	return 0;
}

static void test_calls(void)
{
	static const char *const mixes[] = { "0", "25", "50", "75", "100", "2:1" };
	static unsigned char region[64 * 100 + 64];
	char err[200];

	stub_base = region;
	for (size_t m = 0; m < sizeof mixes / sizeof mixes[0]; m++)
		for (int l = RW_LAYOUT_spread; l <= RW_LAYOUT_contiguous; l++) {
			struct rw_ratio r = ratio(mixes[m]);
			struct rw_plan p;

			rw_plan_init(&p, sizeof region, 640, &r, l, err, sizeof err);
			stores = loads = store_bytes = load_bytes = bad_calls = 0;
			rw_pass(&p, region, stub_store, FILL, stub_load);
			CHECK(stores == rw_plan_write_calls(&p) && loads == rw_plan_read_calls(&p) &&
			      store_bytes == rw_plan_write_bytes(&p) &&
			      load_bytes == rw_plan_read_bytes(&p) && bad_calls == 0,
			      "%s %s: %zu stores (%zu B), %zu loads (%zu B), plan says %zu (%zu B), %zu (%zu B)",
			      rw_layout_name(l), mixes[m], stores, store_bytes, loads, load_bytes,
			      rw_plan_write_calls(&p), rw_plan_write_bytes(&p), rw_plan_read_calls(&p),
			      rw_plan_read_bytes(&p));
		}
}

static void test_read_until(void)
{
	static unsigned char region[3 * 4096 + 64];
	uint64_t sink = 0;
	size_t got, want = 0;

	/* 10 chunks over a 4-chunk region with a short last chunk: 4096 4096 4096 64, wrapping */
	for (size_t i = 0; i < 10; i++)
		want += i % 4 == 3 ? 64 : 4096;
	loads = load_bytes = 0;
	stop_after = 10;
	atomic_store(&stop, false);
	got = rw_read_until(region, sizeof region, 4096, stub_load, &stop, &sink);
	CHECK(got == want && loads == 10 && load_bytes == want,
	      "read_until: %zu bytes in %zu loads, want %zu in 10", got, loads, want);

	loads = 0;
	stop_after = 0;
	got = rw_read_until(region, sizeof region, 4096, stub_load, &stop, &sink);
	CHECK(got == 0 && loads == 0, "read_until with stop already set read %zu bytes", got);
}

/* Real kernels over a region with canaries on both sides: contents, canaries, sink, verify. */
static void test_real(const struct kernel *k, const struct load_kernel *lk)
{
	static const char *const mixes[] = { "0", "25", "50", "75", "100", "2:1" };
	static const size_t chunks[] = { 192, 4096 };
	const size_t region_bytes = (1 << 20) + 192;
	unsigned char *buf = malloc(region_bytes + 2 * GUARD), *region = buf + GUARD + 7;
	char err[200];

	for (size_t m = 0; m < sizeof mixes / sizeof mixes[0]; m++)
		for (size_t ci = 0; ci < 2; ci++)
			for (int l = RW_LAYOUT_spread; l <= RW_LAYOUT_contiguous; l++) {
				struct rw_ratio r = ratio(mixes[m]);
				struct rw_plan p;
				uint64_t sink;
				size_t bad = 0;
				const char *what = rw_layout_name(l);

				memset(buf, CANARY, region_bytes + 2 * GUARD);
				memset(region, PREFILL, region_bytes);
				rw_plan_init(&p, region_bytes, chunks[ci], &r, l, err, sizeof err);
				sink = rw_pass(&p, region, k->fn, FILL, lk->fn);
				CHECK(sink == (rw_plan_read_bytes(&p) ? PREFILL : 0),
				      "%s/%s %s %s: sink 0x%llx", k->name, lk->name, what, mixes[m],
				      (unsigned long long)sink);
				CHECK(rw_verify(&p, region, FILL, PREFILL, &bad),
				      "%s/%s %s %s chunk %zu: wrong byte at %zu", k->name, lk->name, what,
				      mixes[m], chunks[ci], bad);
				for (size_t i = 0; i < GUARD + 7; i++)
					CHECK(buf[i] == CANARY, "%s: byte before the region changed", k->name);
				for (size_t i = 0; i < GUARD - 7; i++)
					CHECK(region[region_bytes + i] == CANARY,
					      "%s: byte after the region changed", k->name);
				if (rw_plan_write_bytes(&p) && rw_plan_read_bytes(&p)) {
					/* verify must see a missing store and a stray one */
					region[l == RW_LAYOUT_contiguous ? region_bytes - 1 : 0] = PREFILL;
					CHECK(!rw_verify(&p, region, FILL, PREFILL, &bad),
					      "%s %s: verify missed an unwritten byte", what, mixes[m]);
					memset(region, FILL, region_bytes);
					CHECK(!rw_verify(&p, region, FILL, PREFILL, &bad),
					      "%s %s: verify missed a written read chunk", what, mixes[m]);
				}
			}
	free(buf);
}

int main(void)
{
	static const char *const store_names[] = { "memset", "sse2_nt_u4", "avx2_nt_u4",
						   "avx512_nt_u4" };
	struct cpu_info info;
	const struct load_kernel *lk;

	cpu_detect(&info);
	lk = load_kernel_best(&info);
	test_calls();
	test_read_until();
	for (size_t i = 0; i < sizeof store_names / sizeof store_names[0]; i++) {
		const struct kernel *k = kernel_find(store_names[i]);
		const char *why = k ? cpu_kernel_unavailable(k, &info) : "not in kernels.def";

		if (why) {
			printf("note: %s not run here: %s\n", store_names[i], why);
			continue;
		}
		test_real(k, lk);
	}
	if (failures) {
		fprintf(stderr, "%d failures\n", failures);
		return 1;
	}
	printf("ok rw_pass: call pattern, split reader, real kernels with %s, verify\n", lk->name);
	return 0;
}
