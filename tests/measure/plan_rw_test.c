/*
 * plan_rw_test.c — read/write plans (plan_rw, plan_read_until) with stubs and with real kernels.
 * ISA: the kernels this CPU can run (SSE2 ones always; the widest nt row and read kernel here).
 * Why: the bytes the CSV says were read and written must be the bytes the kernels touched.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu.h"
#include "plan.h"
#include "test_util.h"

#define CANARY 0x5a
#define PREFILL 0x11
#define FILL 0xc3
#define GUARD 4096
#define VGUARD 64

static struct rw_ratio ratio(const char *s)
{
	struct rw_ratio r;
	size_t n;
	char err[200];

	if (rw_parse_list(s, &r, 1, &n, err, sizeof err)) {
		fprintf(stderr, "plan_rw_test: %s\n", err);
		exit(1);
	}
	return r;
}

/* Recording stubs: every call's offset, size and kind, so the call sequence itself is checked. */
#define MAX_CALLS 8192
static char stub_base[64 * 7000 + 64]; /* never dereferenced: offsets only */
static struct rw_chunk calls[MAX_CALLS];
static size_t ncalls, stop_after;
static atomic_bool stop;

static void record(const void *p, size_t n, enum rw_op op)
{
	if (ncalls < MAX_CALLS)
		calls[ncalls] = (struct rw_chunk){ (size_t)((const char *)p - stub_base), n, op };
	ncalls++;
	if (stop_after && ncalls == stop_after)
		atomic_store(&stop, true);
}

static void *stub_store(void *dst, int c, size_t n)
{
	(void)c;
	record(dst, n, RW_WRITE);
	return dst;
}

static uint64_t stub_load(const void *src, size_t n)
{
	record(src, n, RW_READ);
	return 0;
}

/*
 * plan_rw lays out exactly rw.h's iterator walk, call for call, also when a spread mix becomes
 * groups of one period plus a tail; its totals match rw.h's closed forms; read + write = region.
 */
static void test_calls(void)
{
	static const char *const mixes[] = { "0", "25", "50", "75", "100", "2:1", "12.34", "0.01" };
	static const size_t shapes[][2] = {
		{ 64 * 100 + 64, 640 }, { 64 * 1003, 64 }, { 64 * 1000 + 32, 64 }, { 4096, 4096 },
		{ 64 * 7000, 64 },
	};
	char err[200];

	for (size_t m = 0; m < sizeof mixes / sizeof mixes[0]; m++)
		for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++)
			for (int l = RW_LAYOUT_spread; l <= RW_LAYOUT_contiguous; l++) {
				struct rw_ratio r = ratio(mixes[m]);
				struct rw_plan rp;
				struct rw_cursor cur;
				struct rw_chunk ch;
				struct plan p;
				size_t i = 0, wb = 0, rb = 0, bad = 0;
				const char *what = rw_layout_name(l);

				rw_plan_init(&rp, shapes[s][0], shapes[s][1], &r, l, err, sizeof err);
				CHECK(plan_rw(&p, shapes[s][0], shapes[s][1], &r, l), "plan_rw");
				ncalls = 0;
				plan_run(&p, stub_base, stub_store, stub_load, FILL, 1);
				rw_cursor_start(&cur);
				while (rw_plan_next(&rp, &cur, &ch)) {
					if (i < ncalls && i < MAX_CALLS)
						bad += calls[i].offset != ch.offset ||
						       calls[i].bytes != ch.bytes || calls[i].op != ch.op;
					*(ch.op == RW_WRITE ? &wb : &rb) += ch.bytes;
					i++;
				}
				CHECK(ncalls == i && bad == 0, "%s %s region %zu chunk %zu: %zu calls, %zu "
				      "differ from the walk of %zu", what, mixes[m], shapes[s][0],
				      shapes[s][1], ncalls, bad, i);
				CHECK(p.write_bytes == rw_plan_write_bytes(&rp) && p.write_bytes == wb &&
				      p.read_bytes == rw_plan_read_bytes(&rp) && p.read_bytes == rb &&
				      p.write_calls == rw_plan_write_calls(&rp) && p.calls == rp.nchunks &&
				      p.read_bytes + p.write_bytes == shapes[s][0] &&
				      p.region_bytes == shapes[s][0],
				      "%s %s: plan says %llu written, %llu read in %llu calls",
				      what, mixes[m], (unsigned long long)p.write_bytes,
				      (unsigned long long)p.read_bytes, (unsigned long long)p.calls);
				/* the share within one chunk, never below the ratio */
				CHECK((unsigned __int128)p.write_bytes * r.total_parts >=
				      (unsigned __int128)r.write_parts * shapes[s][0] &&
				      (unsigned __int128)p.write_bytes * r.total_parts <
				      (unsigned __int128)r.write_parts * shapes[s][0] +
				      (unsigned __int128)shapes[s][1] * r.total_parts,
				      "%s %s: %llu bytes written of %zu", what, mixes[m],
				      (unsigned long long)p.write_bytes, shapes[s][0]);
				/* a large spread mix is one period repeated, not one op per chunk */
				if (l == RW_LAYOUT_spread && shapes[s][0] / shapes[s][1] >= 2 * r.total_parts)
					CHECK(p.groups > 1 && p.nops <= 2 * (size_t)r.total_parts + 2,
					      "%s %s: %zu ops in %llu groups", what, mixes[m], p.nops,
					      (unsigned long long)p.groups);
				plan_free(&p);
			}
}

/* A split reader: whole calls, wrapping around the region, until stop; none when already set. */
static void test_read_until(void)
{
	static const struct rw_ratio none = { 0, 1, "0" };
	struct plan p;
	uint64_t got, want = 0;

	/* 10 calls over a 4-chunk region with a short last chunk: 4096 4096 4096 64, wrapping */
	for (size_t i = 0; i < 10; i++)
		want += i % 4 == 3 ? 64 : 4096;
	CHECK(plan_rw(&p, 3 * 4096 + 64, 4096, &none, RW_LAYOUT_spread), "plan_rw");
	ncalls = 0;
	stop_after = 10;
	atomic_store(&stop, false);
	got = plan_read_until(&p, stub_base, stub_load, &stop);
	CHECK(got == want && ncalls == 10 && calls[4].offset == 0 && calls[3].bytes == 64,
	      "read_until: %llu bytes in %zu loads, want %llu in 10", (unsigned long long)got,
	      ncalls, (unsigned long long)want);
	ncalls = 0;
	stop_after = 0;
	got = plan_read_until(&p, stub_base, stub_load, &stop);
	CHECK(got == 0 && ncalls == 0, "read_until with stop already set read %llu bytes",
	      (unsigned long long)got);
	plan_free(&p);
}

/* Real kernels over a misaligned region with canaries beyond the verify guard: contents, verify. */
static void test_real(const struct kernel *k, const struct load_kernel *lk)
{
	static const char *const mixes[] = { "0", "25", "50", "75", "100", "2:1" };
	static const size_t chunks[] = { 192, 4096 };
	const size_t region_bytes = (1 << 20) + 192;
	char *buf = malloc(region_bytes + 2 * GUARD), *region = buf + GUARD + 7;
	const char *bad;

	for (size_t m = 0; m < sizeof mixes / sizeof mixes[0]; m++)
		for (size_t ci = 0; ci < 2; ci++)
			for (int l = RW_LAYOUT_spread; l <= RW_LAYOUT_contiguous; l++) {
				struct rw_ratio r = ratio(mixes[m]);
				struct plan p;
				const char *what = rw_layout_name(l);

				memset(buf, CANARY, region_bytes + 2 * GUARD);
				memset(region - VGUARD, PREFILL, region_bytes + 2 * VGUARD);
				CHECK(plan_rw(&p, region_bytes, chunks[ci], &r, l), "plan_rw");
				plan_run(&p, region, k->fn, lk->fn, FILL, 2);
				CHECK(plan_verify(&p, region, FILL, PREFILL, VGUARD, &bad),
				      "%s/%s %s %s chunk %zu: wrong byte at %td", k->name, lk->name, what,
				      mixes[m], chunks[ci], bad - region);
				for (size_t i = 0; i < GUARD + 7 - VGUARD; i++)
					CHECK(buf[i] == CANARY, "%s: byte before the region changed", k->name);
				for (size_t i = VGUARD; i < GUARD - 7; i++)
					CHECK(region[region_bytes + i] == CANARY,
					      "%s: byte after the region changed", k->name);
				if (p.write_bytes && p.read_bytes) {
					/* verify must see a missing store and a written read chunk */
					char keep = region[l == RW_LAYOUT_contiguous ? region_bytes - 1 : 0];

					region[l == RW_LAYOUT_contiguous ? region_bytes - 1 : 0] = PREFILL;
					CHECK(!plan_verify(&p, region, FILL, PREFILL, VGUARD, &bad),
					      "%s %s: verify missed an unwritten byte", what, mixes[m]);
					region[l == RW_LAYOUT_contiguous ? region_bytes - 1 : 0] = keep;
					memset(region, FILL, region_bytes);
					CHECK(!plan_verify(&p, region, FILL, PREFILL, VGUARD, &bad),
					      "%s %s: verify missed a written read chunk", what, mixes[m]);
				}
				plan_free(&p);
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
		const char *why = k ? kernel_unavailable(k, &info) : "not in kernels.def";

		if (why) {
			printf("note: %s not run here: %s\n", store_names[i], why);
			continue;
		}
		test_real(k, lk);
	}
	return test_result("ok plan_rw: call sequence, accounting, split reader, real kernels with %s, "
			   "verify", lk->name);
}
