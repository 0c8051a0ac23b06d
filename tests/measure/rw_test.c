/*
 * rw_test.c — the rw-mix rules of bench/measure/rw.c: parsing, exact messages, byte accounting,
 * split.
 * No ISA: pure arithmetic, no kernel is called.
 * Why: every read/write number storebench reports rests on these plans being exactly what --rw says.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rw.h"
#include "test_util.h"

static struct rw_ratio one(const char *s)
{
	struct rw_ratio r[RW_MAX_RATIOS];
	char err[200] = "";
	size_t n = 0;

	if (rw_parse_list(s, r, RW_MAX_RATIOS, &n, err, sizeof err) || n != 1) {
		fprintf(stderr, "FAIL: '%s' should parse as one ratio: %s\n", s, err);
		exit(1);
	}
	return r[0];
}

static void valid(const char *s, uint32_t w, uint32_t t, const char *printed)
{
	struct rw_ratio r = one(s);
	char buf[16];

	CHECK(r.write_parts == w && r.total_parts == t, "'%s' = %u/%u, want %u/%u", s,
	      r.write_parts, r.total_parts, w, t);
	CHECK(strcmp(rw_ratio_format(&r, buf, sizeof buf), printed) == 0, "'%s' prints '%s', want '%s'",
	      s, buf, printed);
	CHECK(strcmp(r.spec, s) == 0, "'%s' keeps spec '%s'", s, r.spec);
}

static void invalid(const char *s, const char *msg)
{
	struct rw_ratio r[RW_MAX_RATIOS];
	char err[200] = "";
	size_t n = 12345;

	CHECK(rw_parse_list(s, r, RW_MAX_RATIOS, &n, err, sizeof err) == -1, "'%s' accepted", s);
	CHECK(strcmp(err, msg) == 0, "'%s': message\n  got  '%s'\n  want '%s'", s, err, msg);
	CHECK(n == 12345, "'%s': count written on error", s);
}

static void test_parse(void)
{
	struct rw_ratio r[RW_MAX_RATIOS];
	char err[200], buf[16], many[200] = "";
	size_t n = 0;

	valid("100", 1, 1, "100");
	valid("0", 0, 1, "0");
	valid("75", 3, 4, "75");
	valid("50%", 1, 2, "50");
	valid("12.5", 1, 8, "12.5");
	valid("7.50", 3, 40, "7.5");
	valid("0.01", 1, 10000, "0.01");
	valid("33.33", 3333, 10000, "33.33");
	valid("100.00", 1, 1, "100");
	valid("3:1", 1, 4, "25");
	valid("2:1", 1, 3, "33.33");
	valid("1:2", 2, 3, "66.67");
	valid("1:1", 1, 2, "50");
	valid("0:1", 1, 1, "100");
	valid("1:0", 0, 1, "0");
	valid("10000:1", 1, 10001, "0.01");

	CHECK(rw_ratio_is_store_only(&(struct rw_ratio){ 1, 1, "" }), "100 is store only");
	CHECK(rw_ratio_is_read_only(&(struct rw_ratio){ 0, 1, "" }), "0 is read only");
	CHECK(!rw_ratio_is_store_only(&(struct rw_ratio){ 1, 2, "" }) &&
	      !rw_ratio_is_read_only(&(struct rw_ratio){ 1, 2, "" }), "50 is a mix");

	CHECK(rw_parse_list("100,75,50,3:1", r, RW_MAX_RATIOS, &n, err, sizeof err) == 0 && n == 4,
	      "list of 4: %s", err);
	CHECK(strcmp(r[3].spec, "3:1") == 0 && r[1].write_parts == 3 &&
	      strcmp(rw_ratio_format(&r[3], buf, sizeof buf), "25") == 0, "list contents");

	invalid("", "--rw: empty list");
	invalid("101", "--rw: '101' is out of range (percent written is 0..100)");
	invalid("100.01", "--rw: '100.01' is out of range (percent written is 0..100)");
	invalid("-5", "--rw: '-5' is out of range (percent written is 0..100)");
	invalid("99999999999", "--rw: '99999999999' is out of range (percent written is 0..100)");
	invalid("99999999999:1", "--rw: '99999999999:1' is out of range (ratio parts are 0..10000)");
	invalid("abc", "--rw: cannot parse 'abc' (want a percent written 0..100 or a read:write "
		"ratio like 3:1)");
	invalid("1e2", "--rw: cannot parse '1e2' (want a percent written 0..100 or a read:write "
		"ratio like 3:1)");
	invalid("5.", "--rw: cannot parse '5.' (want a percent written 0..100 or a read:write "
		"ratio like 3:1)");
	invalid(".5", "--rw: cannot parse '.5' (want a percent written 0..100 or a read:write "
		"ratio like 3:1)");
	invalid(" 50", "--rw: cannot parse ' 50' (want a percent written 0..100 or a read:write "
		"ratio like 3:1)");
	invalid("33.333", "--rw: '33.333' has more than two decimals (write thirds as the ratio 2:1)");
	invalid("50,,25", "--rw: empty element in '50,,25'");
	invalid("50,", "--rw: empty element in '50,'");
	invalid("0:0", "--rw: '0:0' reads and writes nothing");
	invalid("1:2:3", "--rw: cannot parse '1:2:3' (a read:write ratio is two whole numbers, "
		"like 3:1)");
	invalid("3:", "--rw: cannot parse '3:' (a read:write ratio is two whole numbers, like 3:1)");
	invalid("1.5:1", "--rw: cannot parse '1.5:1' (a read:write ratio is two whole numbers, "
		"like 3:1)");
	invalid("20000:1", "--rw: '20000:1' is out of range (ratio parts are 0..10000)");
	invalid("50,1:1", "--rw: '1:1' repeats '50' (both are 50% written)");
	invalid("100,0:1", "--rw: '0:1' repeats '100' (both are 100% written)");
	/* 2:1 is 1/3 and 33.33 is 3333/10000: two shares, one printed percent, one row name */
	invalid("2:1,33.33", "--rw: '2:1' and '33.33' both print as 33.33% written, so their rows "
		"could not be told apart; keep one");
	invalid("100,66.67,1:2", "--rw: '66.67' and '1:2' both print as 66.67% written, so their "
		"rows could not be told apart; keep one");

	for (int i = 0; i <= RW_MAX_RATIOS; i++)
		snprintf(many + strlen(many), sizeof many - strlen(many), "%s%d", i ? "," : "", i);
	invalid(many, "--rw: more than 32 ratios in one list");
}

static void test_names(void)
{
	enum rw_mode m;
	enum rw_layout l;
	char err[200];

	CHECK(rw_parse_mode("split", &m, err, sizeof err) == 0 && m == RW_MODE_split, "split");
	CHECK(rw_parse_mode("interleave", &m, err, sizeof err) == 0 && m == RW_MODE_interleave,
	      "interleave");
	CHECK(rw_parse_layout("contiguous", &l, err, sizeof err) == 0 && l == RW_LAYOUT_contiguous,
	      "contiguous");
	CHECK(strcmp(rw_mode_name(RW_MODE_split), "split") == 0 &&
	      strcmp(rw_layout_name(RW_LAYOUT_spread), "spread") == 0, "names");
	CHECK(rw_parse_mode("both", &m, err, sizeof err) == -1 &&
	      strcmp(err, "--rw-mode: unknown mode 'both' (interleave or split)") == 0, "%s", err);
	CHECK(rw_parse_layout("Spread", &l, err, sizeof err) == -1 &&
	      strcmp(err, "--rw-layout: unknown layout 'Spread' (spread or contiguous)") == 0,
	      "%s", err);
}

static void chunk_error(size_t chunk, size_t region, const char *msg)
{
	char err[200] = "";

	CHECK(rw_check_chunk(chunk, region, err, sizeof err) == -1 && strcmp(err, msg) == 0,
	      "chunk %zu region %zu:\n  got  '%s'\n  want '%s'", chunk, region, err, msg);
}

static void test_chunk(void)
{
	struct rw_plan p;
	char err[200];

	CHECK(rw_check_chunk(RW_CHUNK_DEFAULT, 1u << 30, err, sizeof err) == 0, "default chunk");
	CHECK(rw_check_chunk(64, 64, err, sizeof err) == 0, "chunk = region");
	chunk_error(0, 4096, "--chunk: must be at least 64 bytes");
	chunk_error(100, 4096, "--chunk: 100 bytes is not a multiple of 64");
	chunk_error(4032 + 32, 1 << 20, "--chunk: 4064 bytes is not a multiple of 64");
	chunk_error(8192, 4096, "--chunk: 8192 bytes is larger than the 4096-byte region each "
		    "thread walks");
	CHECK(rw_plan_init(&p, 4096, 8192, &(struct rw_ratio){ 1, 2, "50" }, RW_LAYOUT_spread, err,
			   sizeof err) == -1 && strstr(err, "larger than the 4096-byte region"),
	      "plan refuses a chunk larger than the region: %s", err);
}

/* Walks one pass and checks it against the closed forms and the one-chunk bound. */
static void check_plan(size_t region, size_t chunk, struct rw_ratio r, enum rw_layout layout)
{
	struct rw_plan p;
	struct rw_cursor c;
	struct rw_chunk ch;
	char err[200], pct[16];
	size_t next = 0, rd = 0, wr = 0, rcalls = 0, wcalls = 0, count = 0;
	const unsigned __int128 a = r.write_parts, b = r.total_parts;
	const char *lname = rw_layout_name(layout);

	rw_ratio_format(&r, pct, sizeof pct);
	if (rw_plan_init(&p, region, chunk, &r, layout, err, sizeof err)) {
		CHECK(0, "plan %zu/%zu/%s: %s", region, chunk, pct, err);
		return;
	}
	rw_cursor_start(&c);
	while (rw_plan_next(&p, &c, &ch)) {
		count++;
		CHECK(ch.offset == next && ch.bytes > 0 && ch.bytes <= chunk &&
		      (ch.bytes == chunk || ch.offset + ch.bytes == region),
		      "%s %s region %zu chunk %zu: chunk at %zu+%zu after %zu", lname, pct, region,
		      chunk, ch.offset, ch.bytes, next);
		next = ch.offset + ch.bytes;
		if (ch.op == RW_WRITE) {
			wr += ch.bytes;
			wcalls++;
		} else {
			rd += ch.bytes;
			rcalls++;
		}
		/* spread: 0 <= W - ratio*T < chunk after every chunk, in exact integers */
		if (layout == RW_LAYOUT_spread)
			CHECK(b * wr >= a * next && b * wr - a * next < b * chunk,
			      "spread %s region %zu chunk %zu: after %zu bytes %zu written", pct, region,
			      chunk, next, wr);
	}
	CHECK(next == region && count == p.nchunks, "%s %s: walked %zu of %zu bytes, %zu chunks",
	      lname, pct, next, region, count);
	CHECK(rd + wr == region, "%s %s: read %zu + written %zu != region %zu", lname, pct, rd, wr,
	      region);
	CHECK(b * wr >= a * region && b * wr - a * region < b * chunk,
	      "%s %s region %zu chunk %zu: written %zu is not the ratio within one chunk", lname, pct,
	      region, chunk, wr);
	CHECK(rw_plan_write_bytes(&p) == wr && rw_plan_read_bytes(&p) == rd &&
	      rw_plan_write_calls(&p) == wcalls && rw_plan_read_calls(&p) == rcalls,
	      "%s %s region %zu chunk %zu: closed form %zu/%zu bytes %zu/%zu calls, walk %zu/%zu "
	      "bytes %zu/%zu calls", lname, pct, region, chunk, rw_plan_read_bytes(&p),
	      rw_plan_write_bytes(&p), rw_plan_read_calls(&p), rw_plan_write_calls(&p), rd, wr,
	      rcalls, wcalls);
	if (rw_ratio_is_store_only(&r))
		CHECK(rd == 0 && rcalls == 0, "%s 100: reads %zu bytes", lname, rd);
	if (rw_ratio_is_read_only(&r))
		CHECK(wr == 0 && wcalls == 0, "%s 0: writes %zu bytes", lname, wr);
}

/* The ops of the first nchunks chunks as a string of W and R. */
static const char *pattern(const char *ratio, size_t nchunks, size_t region, enum rw_layout l)
{
	static char s[200];
	struct rw_ratio r = one(ratio);
	struct rw_plan p;
	struct rw_cursor c;
	struct rw_chunk ch;
	size_t i = 0;

	if (rw_plan_init(&p, region, 64, &r, l, s, sizeof s))
		return s;
	rw_cursor_start(&c);
	while (i < nchunks && i + 1 < sizeof s && rw_plan_next(&p, &c, &ch))
		s[i++] = ch.op == RW_WRITE ? 'W' : 'R';
	s[i] = '\0';
	return s;
}

static void expect_pattern(const char *ratio, size_t region, enum rw_layout l, const char *want)
{
	const char *got = pattern(ratio, strlen(want), region, l);

	CHECK(strcmp(got, want) == 0, "%s %s over %zu bytes: %s, want %s", rw_layout_name(l), ratio,
	      region, got, want);
}

static void test_plans(void)
{
	static const char *const fractions[] = { "12.5", "33.33", "0.01", "99.99", "2:1", "1:2",
						 "7:3", "1:10000", "10000:1", "1:9999" };
	static const size_t regions[] = { 64, 192, 4096, 4096 * 7 + 64 * 5, 65536, 1000 * 64,
					  (1 << 20) + 64, 3 << 20 };
	static const size_t chunks[] = { 64, 128, 192, 4096, 65536 };

	/* One 64-byte chunk per letter: the order each layout gives a ratio's chunks. */
	static const struct {
		const char *ratio;
		enum rw_layout layout;
		const char *want;
	} patterns[] = {
		{ "75", RW_LAYOUT_spread, "WWWRWWWRWWWR" },
		{ "50", RW_LAYOUT_spread, "WRWRWRWR" },
		{ "25", RW_LAYOUT_spread, "WRRRWRRR" },
		{ "2:1", RW_LAYOUT_spread, "WRRWRRWRR" },
		{ "1:2", RW_LAYOUT_spread, "WWRWWRWWR" },
		{ "100", RW_LAYOUT_spread, "WWWW" },
		{ "0", RW_LAYOUT_spread, "RRRR" },
		{ "50", RW_LAYOUT_contiguous, "RRRRWWWW" },
		{ "75", RW_LAYOUT_contiguous, "RRWWWWWW" },
		{ "2:1", RW_LAYOUT_contiguous, "RRRRRRWWW" },
		{ "0", RW_LAYOUT_contiguous, "RRRR" },
		{ "100", RW_LAYOUT_contiguous, "WWWW" },
	};

	for (size_t i = 0; i < sizeof patterns / sizeof patterns[0]; i++)
		expect_pattern(patterns[i].ratio, 64 * strlen(patterns[i].want), patterns[i].layout,
			       patterns[i].want);

	for (size_t ri = 0; ri < sizeof regions / sizeof regions[0]; ri++)
		for (size_t ci = 0; ci < sizeof chunks / sizeof chunks[0]; ci++) {
			if (chunks[ci] > regions[ri])
				continue;
			for (int l = RW_LAYOUT_spread; l <= RW_LAYOUT_contiguous; l++) {
				for (uint32_t pct = 0; pct <= 100; pct++)
					check_plan(regions[ri], chunks[ci],
						   (struct rw_ratio){ pct, 100, "" }, l);
				for (size_t f = 0; f < sizeof fractions / sizeof fractions[0]; f++)
					check_plan(regions[ri], chunks[ci], one(fractions[f]), l);
			}
		}

	/* 1 TiB per thread: closed forms stay exact where a product would overflow 64 bits. */
	{
		struct rw_plan p;
		struct rw_ratio r = one("1:9999");
		char err[200];
		const size_t region = ((size_t)1 << 40) + 4096 + 64;
		unsigned __int128 w, ideal = (unsigned __int128)region * 9999;

		CHECK(rw_plan_init(&p, region, 4096, &r, RW_LAYOUT_spread, err, sizeof err) == 0,
		      "1 TiB plan: %s", err);
		w = (unsigned __int128)rw_plan_write_bytes(&p) * 10000;
		CHECK(rw_plan_read_bytes(&p) + rw_plan_write_bytes(&p) == region && w >= ideal &&
		      w - ideal < (unsigned __int128)4096 * 10000,
		      "1 TiB plan: written %zu", rw_plan_write_bytes(&p));
	}
}

static void split_error(unsigned threads, const char *ratio, const char *msg)
{
	struct rw_split s = { 99, 99, 99 };
	struct rw_ratio r = one(ratio);
	char err[200] = "";

	CHECK(rw_split_init(&s, threads, &r, err, sizeof err) == -1 && strcmp(err, msg) == 0 &&
	      s.threads == 99, "split %u threads rw %s:\n  got  '%s'\n  want '%s'", threads, ratio,
	      err, msg);
}

static void expect_split(unsigned threads, const char *ratio, unsigned writers, const char *roles)
{
	struct rw_split s;
	struct rw_ratio r = one(ratio);
	char err[200] = "", got[80] = "";

	if (rw_split_init(&s, threads, &r, err, sizeof err)) {
		CHECK(0, "split %u threads rw %s: %s", threads, ratio, err);
		return;
	}
	CHECK(s.threads == threads && s.writers == writers && s.readers == threads - writers,
	      "split %u threads rw %s: %u writers %u readers, want %u writers", threads, ratio,
	      s.writers, s.readers, writers);
	for (unsigned t = 0; roles && t < threads && t + 1 < sizeof got; t++)
		got[t] = rw_split_role(&s, t) == RW_WRITE ? 'W' : 'R';
	CHECK(!roles || strcmp(got, roles) == 0, "split %u threads rw %s: roles %s, want %s",
	      threads, ratio, got, roles);
}

static void test_split(void)
{
	split_error(1, "50", "--rw-mode split: rw 50 needs at least 2 threads (a reader and a "
		    "writer), got 1");
	split_error(1, "2:1", "--rw-mode split: rw 33.33 needs at least 2 threads (a reader and a "
		    "writer), got 1");
	split_error(0, "100", "--rw-mode split: no threads");

	expect_split(1, "100", 1, "W");
	expect_split(1, "0", 0, "R");
	expect_split(2, "50", 1, "WR");
	expect_split(4, "75", 3, "WWWR");
	expect_split(4, "3:1", 1, "WRRR");
	expect_split(3, "50", 2, "WWR");   /* 1.5 rounds half up */
	expect_split(6, "2:1", 2, "WRRWRR");
	expect_split(10, "1", 1, "WRRRRRRRRR");  /* at least one writer */
	expect_split(10, "99", 9, "WWWWWWWWWR"); /* at least one reader */
	expect_split(8, "100", 8, "WWWWWWWW");
	expect_split(8, "0", 0, "RRRRRRRR");
	expect_split(384, "50", 192, NULL);

	for (unsigned t = 2; t <= 130; t++)
		for (uint32_t pct = 0; pct <= 100; pct++) {
			struct rw_ratio r = { pct, 100, "" };
			struct rw_split s;
			unsigned w = 0;
			char err[200];

			if (rw_split_init(&s, t, &r, err, sizeof err)) {
				CHECK(0, "split %u rw %u: %s", t, pct, err);
				continue;
			}
			for (unsigned i = 0; i < t; i++)
				w += rw_split_role(&s, i) == RW_WRITE;
			CHECK(w == s.writers && s.readers + s.writers == t,
			      "split %u rw %u: %u roles write, %u writers", t, pct, w, s.writers);
			if (pct > 0 && pct < 100)
				CHECK(s.writers >= 1 && s.readers >= 1, "split %u rw %u: %u/%u", t, pct,
				      s.writers, s.readers);
			if (s.writers > 1 && s.readers > 1) /* not clamped: nearest to t*ratio */
				CHECK(abs((int)(200 * s.writers) - (int)(2 * t * pct)) <= 100,
				      "split %u rw %u: %u writers", t, pct, s.writers);
		}
}

int main(void)
{
	test_parse();
	test_names();
	test_chunk();
	test_plans();
	test_split();
	return test_result("ok rw: parsing, messages, chunk rules, interleave accounting, split");
}
