/*
 * sizes_test.c — the numeric grammar every axis of `storebench run` shares: units, cache words,
 * ranges (integer and fractional factors, end included), duplicates, limits, overflow, bytes.
 * Plain C.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sizes.h"
#include "test_util.h"

/* This machine's caches for the grammar: 48 KiB L1d, 1 MiB L2, 32 MiB L3. */
static const struct size_word caches[] = {
	{ "L1d", 48 << 10 }, { "L1", 48 << 10 }, { "L2", 1 << 20 }, { "L3", 32 << 20 },
	{ "LLC", 32 << 20 },
};
static const struct list_grammar sizes = {
	.units = true, .words = caches, .nwords = 5, .scale_words = true, .min = 1,
	.max = SIZE_LIMIT,
};
static const struct size_word all_cpus[] = { { "all", 384 } };
static const struct list_grammar threads = {
	.words = all_cpus, .nwords = 1, .min = 1, .max = ~0ull,
};
static const struct list_grammar offsets = { .min = 0, .max = 63 };

static void expect(const struct list_grammar *g, const char *spec, const char *want)
{
	struct u64_list l = { 0 };
	char err[256] = "", got[4096] = "";
	size_t used = 0;

	if (!u64_list_parse(spec, g, &l, err, sizeof err)) {
		CHECK(false, "'%s' refused: %s", spec, err);
		return;
	}
	for (size_t i = 0; i < l.n && used < sizeof got; i++)
		used += (size_t)snprintf(got + used, sizeof got - used, "%s%llu", i ? "," : "", l.v[i]);
	CHECK(!strcmp(got, want), "'%s' -> %s, want %s", spec, got, want);
	u64_list_free(&l);
}

/* Refused with a reason that contains why (when given). */
static void refused(const struct list_grammar *g, const char *spec, const char *why)
{
	struct u64_list l = { 0 };
	char err[256] = "";

	if (u64_list_parse(spec, g, &l, err, sizeof err))
		CHECK(false, "'%.60s' accepted (%zu values)", spec, l.n);
	else
		CHECK(err[0] && (!why || strstr(err, why)), "'%.60s' refused with '%s', want '%s'",
		      spec, err, why ? why : "a reason");
	u64_list_free(&l);
}

static void grammar(void)
{
	expect(&sizes, "64,1536,4KiB", "64,1536,4096");
	expect(&sizes, "4K,4KB,4kB,1M,1MB,1G,1GiB", "4096,4000,1048576,1000000,1073741824");
	expect(&sizes, "4KiB..64KiB", "4096,8192,16384,32768,65536");
	expect(&sizes, "4KiB..1GiB:x4", "4096,16384,65536,262144,1048576,4194304,16777216,67108864,"
					 "268435456,1073741824");
	expect(&sizes, "1..200:+64", "1,65,129,193,200");
	expect(&sizes, "7..7", "7");
	refused(&sizes, "0", "below");
	refused(&sizes, "-4", "cannot parse");
	refused(&sizes, "4XB", "cannot parse");
	refused(&sizes, "1.5K", "cannot parse");
	refused(&sizes, "", "empty");
	refused(&sizes, "64..32", "backwards");
	refused(&sizes, "4..64:x1", "bad step");
	refused(&sizes, "4..64:x0.5", "bad step");
	refused(&sizes, "4..64:+0", "bad step");
	refused(&sizes, "4..64:y2", "bad step");
	refused(&sizes, "64,", "empty element");
	refused(&sizes, ",64", "empty element");
	refused(&offsets, "4K", "cannot parse");
	expect(&offsets, "0..63:+16", "0,16,32,48,63");
	expect(&offsets, "0..8:x2", "0,8");
	refused(&offsets, "64", "63");
}

static void cache_words(void)
{
	expect(&sizes, "L1d/4..4LLC:x4", "12288,49152,196608,786432,3145728,12582912,50331648,"
					  "134217728");
	expect(&sizes, "L1d,L1,3L1d/2,L2/3,LLC", "49152,73728,349525,33554432");
	refused(&sizes, "L1d/0", "divides by zero");
	refused(&sizes, "L1d/", "cannot parse");
	refused(&sizes, "1.5L1d", "whole numbers");
	refused(&sizes, "L1dx", "cannot parse");
	refused(&sizes, "0LLC", "below");
	/* 549755813889 x 32 MiB is 2^64 + 32 MiB: it wrapped to 32 MiB before */
	refused(&sizes, "549755813889LLC", "128TiB");
	refused(&sizes, "99999999999999999999999LLC", "128TiB");
	refused(&sizes, "L2/99999999999999999999999", "below");

	static const struct size_word none[] = { { "L3", 0 } };
	const struct list_grammar no_l3 = { .units = true, .words = none, .nwords = 1,
					    .scale_words = true, .min = 1, .max = SIZE_LIMIT };

	refused(&no_l3, "4L3", "reports no L3");
	refused(&threads, "2all", "cannot parse");
	refused(&threads, "all/2", "cannot parse");
}

static void limits(void)
{
	expect(&sizes, "128TiB", "140737488355328");
	expect(&sizes, "64TiB..128TiB", "70368744177664,140737488355328");
	refused(&sizes, "18446744073709551615", "128TiB");
	refused(&sizes, "18446744073709551616", "128TiB");
	refused(&sizes, "4194304T", "128TiB");
	refused(&sizes, "99999999999T", "128TiB");
	refused(&sizes, "131073GiB", "128TiB");
	refused(&sizes, "1..256TiB:x2", "128TiB");
	refused(&sizes, "4..64:x99999999999999999999", "64 bits");
	refused(&sizes, "4..64:x1.00001", "decimals");
	/* the largest range step cannot wrap past the end */
	expect(&sizes, "1..128TiB:+64TiB", "1,70368744177665,140737488355328");
	expect(&sizes, "1TiB..128TiB:x1000", "1099511627776,140737488355328");
}

/* Fractional factors: the k-th value is A x F^k rounded half up, not the rounded value times F. */
static void fractional(void)
{
	struct u64_list l = { 0 };
	char err[256];
	size_t octave[64] = { 0 };

	expect(&sizes, "256..16KiB:x1.19",
	       "256,305,363,431,513,611,727,865,1029,1225,1458,1735,2064,2457,2923,3479,4140,"
	       "4926,5863,6976,8302,9879,11756,13990,16384");
	expect(&sizes, "1..10:x1.5", "1,2,3,5,8,10");
	/* a size less than sqrt F below the end gives way to it; threads keep the whole grid */
	expect(&sizes, "16KiB..100KiB:x2", "16384,32768,65536,102400");
	expect(&sizes, "16KiB..80KiB:x2", "16384,32768,81920");
	expect(&sizes, "16KiB..20KiB:x2", "16384,20480");
	expect(&threads, "1..5:x2", "1,2,4,5");
	expect(&sizes, "4KiB..1MiB:x2.0", "4096,8192,16384,32768,65536,131072,262144,524288,"
					  "1048576");
	CHECK(u64_list_parse("256..64MiB:x1.19", &sizes, &l, err, sizeof err), "%s", err);
	CHECK(l.n == 73, "256..64MiB:x1.19: %zu values, want 73", l.n);
	for (size_t i = 0; i < l.n; i++) {
		CHECK(i == 0 || l.v[i] > l.v[i - 1], "not increasing at %zu", i);
		octave[63 - __builtin_clzll(l.v[i])]++;
	}
	CHECK(l.n && l.v[0] == 256 && l.v[l.n - 1] == 64 << 20, "ends not included");
	for (int o = 8; o < 26; o++)
		CHECK(octave[o] >= 4, "octave 2^%d has %zu values, want at least 4", o, octave[o]);
	u64_list_free(&l);
	/* tiny factors from tiny starts: values that round alike appear once, and it ends */
	CHECK(u64_list_parse("1..64:x1.0001", &sizes, &l, err, sizeof err), "%s", err);
	CHECK(l.n == 64 && l.v[63] == 64, "1..64:x1.0001: %zu values", l.n);
	u64_list_free(&l);
}

static void duplicates_and_lengths(void)
{
	struct u64_list l = { 0 };
	char err[256], *spec;
	size_t used = 0;

	expect(&sizes, "64,64,128", "64,128");
	expect(&sizes, "128,64,128,64,4KiB..16KiB,8KiB", "128,64,4096,8192,16384");
	/* 100000 values, half of them repeated, in an order no sort would keep */
	CHECK(u64_list_parse("50001..100000:+1,1..50000:+1", &sizes, &l, err, sizeof err), "%s", err);
	CHECK(l.n == 100000 && l.v[0] == 50001 && l.v[49999] == 100000 && l.v[50000] == 1,
	      "100000-value list: %zu values", l.n);
	u64_list_free(&l);
	CHECK(u64_list_parse("1..50000:+1,40001..90000:+1", &sizes, &l, err, sizeof err), "%s", err);
	CHECK(l.n == 90000 && l.v[l.n - 1] == 90000, "overlapping ranges: %zu values", l.n);
	u64_list_free(&l);
	refused(&sizes, "1..100001:+1", "100000");
	refused(&sizes, "1..100000:+1,100001..200000:+1,200001..300000:+1", "100000");
	refused(&sizes, "1..128TiB:+1", "100000");

	/* `--threads $(seq -s, 1 384)` and a much longer list, whole: nothing is cut */
	spec = malloc(8 * 4000);
	for (int i = 1; i <= 384; i++)
		used += (size_t)sprintf(spec + used, "%s%d", i > 1 ? "," : "", i);
	CHECK(u64_list_parse(spec, &threads, &l, err, sizeof err), "%s", err);
	CHECK(l.n == 384 && l.v[0] == 1 && l.v[383] == 384, "384-item list: %zu values", l.n);
	u64_list_free(&l);
	for (int i = 385; i <= 4000; i++)
		used += (size_t)sprintf(spec + used, ",%d", i);
	CHECK(u64_list_parse(spec, &threads, &l, err, sizeof err), "%s", err);
	CHECK(l.n == 4000 && l.v[3999] == 4000, "4000-item list: %zu values", l.n);
	u64_list_free(&l);
	free(spec);
	expect(&threads, "1..all:x2,all", "1,2,4,8,16,32,64,128,256,384");
	expect(&threads, "1,all", "1,384");
}

static void bytes(void)
{
	static const struct {
		const char *s;
		int want; /* -1: refused */
	} cases[] = {
		{ "0", 0 }, { "9", 9 }, { "255", 255 }, { "0xff", 255 }, { "0XA5", 0xa5 },
		{ "0x00", 0 }, { "0x0a", 10 }, { "010", -1 }, { "0255", -1 }, { "09", -1 },
		{ "00", -1 }, { "256", -1 }, { "0x100", -1 }, { "0x", -1 }, { "-1", -1 },
		{ " 1", -1 }, { "+1", -1 }, { "", -1 }, { "1e2", -1 }, { "0xfg", -1 },
		{ "99999999999999999999", -1 },
	};

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		unsigned v = 1000;
		bool ok = byte_parse(cases[i].s, &v);

		CHECK(ok == (cases[i].want >= 0) && (!ok || (int)v == cases[i].want),
		      "byte '%s': %s %u, want %d", cases[i].s, ok ? "accepted" : "refused", v,
		      cases[i].want);
	}
}

static void arithmetic(void)
{
	uint64_t r;
	char buf[32];

	CHECK(!mul_u64_overflows(1ull << 32, (1ull << 32) - 1, &r) &&
	      r == (1ull << 32) * ((1ull << 32) - 1), "2^32 x (2^32-1)");
	CHECK(mul_u64_overflows(1ull << 32, 1ull << 32, &r), "2^32 x 2^32 must overflow");
	CHECK(add_u64_overflows(~0ull, 1, &r), "2^64-1 + 1 must overflow");
	CHECK(mul_u64_within(4, SIZE_LIMIT, ~0ull, &r) && r == 4 * SIZE_LIMIT, "4 x 2^47 fits");
	CHECK(!mul_u64_within(4, 1ull << 62, ~0ull, &r), "4 x 2^62 overflows");
	CHECK(!mul_u64_within(3, 10, 29, &r) && mul_u64_within(3, 10, 30, &r) && r == 30,
	      "limit is inclusive");
	CHECK(!strcmp(size_format(SIZE_LIMIT, buf, sizeof buf), SIZE_LIMIT_TEXT), "%s", buf);
	CHECK(!strcmp(size_format(49152, buf, sizeof buf), "48KiB"), "%s", buf);
	CHECK(!strcmp(size_format(1000, buf, sizeof buf), "1000"), "%s", buf);
}

int main(void)
{
	grammar();
	cache_words();
	limits();
	fractional();
	duplicates_and_lengths();
	bytes();
	arithmetic();
	return test_result("ok: size grammar");
}
