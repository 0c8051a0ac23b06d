/*
 * effective_test.c — effective cache levels (bench/machine/effective.h) and their kept file
 * (levels_file.h).  Plain C.  Curves built from a known staircase must give back its steps
 * within one size step, with noise and a slope; the real Turin guest scan of the fixture must
 * give L1d and L2 near what the guest reports and an L3 far below its 508 MiB; the factor rule at
 * its edge; a file written and read back the same, and every kind of bad file refused.
 */
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "effective.h"
#include "levels_file.h"
#include "test_util.h"

#define KIB 1024ull
#define MIB (1024ull * KIB)

static const struct level_shares turin = { { 48 * KIB, 1 * MIB, 32 * MIB } };

/* 4 sizes a doubling from 4 KiB to top, the ns of the staircase steps (bytes, ns), times a
 * deterministic wobble of +-amp. */
static void staircase(struct latency_curve *c, uint64_t top, const uint64_t *edge,
		      const double *ns, int steps, double amp, bool stores)
{
	memset(c, 0, sizeof *c);
	for (unsigned i = 0; c->n < EFFECTIVE_POINTS_MAX; i++) {
		uint64_t b = (uint64_t)(4096 * exp2(i / 4.0)) / 64 * 64;
		int s = 0;

		if (b > top)
			break;
		while (s < steps - 1 && b > edge[s])
			s++;
		c->bytes[c->n] = b;
		c->ns[c->n] = ns[s] * (1 + amp * ((i * 7919 % 13) / 6.0 - 1));
		c->store_ns[c->n] = stores ? c->ns[c->n] / 10 : 0;
		c->n++;
	}
}

static bool near(uint64_t got, uint64_t want)
{
	/* within one step of the scan (2^(1/4)) and the crossing's interpolation */
	return got >= want / 1.2 && got <= want * 1.2 * 1.19;
}

static void test_staircase(void)
{
	static const uint64_t edge[] = { 48 * KIB, 1 * MIB, 12 * MIB, UINT64_MAX };
	static const double ns[] = { 1.1, 3.0, 10.0, 90.0 };
	struct latency_curve c;
	struct effective_shares e;

	for (int stores = 0; stores < 2; stores++) {
		staircase(&c, 1024 * MIB, edge, ns, 4, 0.05, stores);
		CHECK(effective_find(&c, &turin, &e), "a clean staircase is read (%s)", e.why);
		CHECK(near(e.bytes[LEVEL_L1D], 48 * KIB) && near(e.bytes[LEVEL_L2], 1 * MIB) &&
		      near(e.bytes[LEVEL_L3], 12 * MIB), "its steps at 48 KiB, 1 MiB, 12 MiB "
		      "(stores %d): %llu %llu %llu", stores,
		      (unsigned long long)e.bytes[0], (unsigned long long)e.bytes[1],
		      (unsigned long long)e.bytes[2]);
		CHECK(fabs(e.ns[LEVEL_DRAM] - 90) < 9 && fabs(e.ns[LEVEL_L2] - 3) < 0.3,
		      "each level's latency is its run's median: %g %g", e.ns[LEVEL_L2],
		      e.ns[LEVEL_DRAM]);
	}
	/* L3 and DRAM alike: no level to find, and nothing replaced */
	{
		static const double flat[] = { 1.1, 3.0, 10.0, 11.0 };

		staircase(&c, 1024 * MIB, edge, flat, 4, 0.02, false);
		CHECK(!effective_find(&c, &turin, &e) && strstr(e.why, "L3") && !e.bytes[LEVEL_L3],
		      "no L3 apart from DRAM: not found, and why: %s", e.why);
	}
	staircase(&c, 8 * KIB, edge, ns, 4, 0, false);
	CHECK(!effective_find(&c, &turin, &e) && strstr(e.why, "sizes"),
	      "a curve too short for 3 levels and DRAM is refused: %s", e.why);
}

/* The guest's own scan: its L3 reported as 508 MiB a core, found at tens of MiB. */
static void test_fixture(const char *dir)
{
	char path[4096], err[300];
	struct levels_file lf;
	struct effective_shares e;

	snprintf(path, sizeof path, "%s/levels/turin-vm-2vcpu.levels", dir);
	CHECK(levels_read(path, NULL, &lf, err, sizeof err) == 0 && lf.n == 2,
	      "the fixture reads: %s", err);
	for (size_t i = 0; i < lf.n; i++) {
		const struct level_shares reported = { { 48 * KIB, 1 * MIB, 508 * MIB } };
		struct level_shares used;
		unsigned replaced;

		CHECK(effective_find(&lf.e[i].curve, &reported, &e), "the real curve is read: %s",
		      e.why);
		/* the file keeps the curve to 4 digits: the crossings move by a fraction of a step */
		CHECK(labs((long)(e.bytes[LEVEL_L1D] - lf.e[i].found.bytes[LEVEL_L1D])) <= 2048 &&
		      fabs((double)e.bytes[LEVEL_L3] / (double)lf.e[i].found.bytes[LEVEL_L3] - 1) < 0.02,
		      "the same levels as the scan kept: L3 %llu against %llu",
		      (unsigned long long)e.bytes[LEVEL_L3],
		      (unsigned long long)lf.e[i].found.bytes[LEVEL_L3]);
		CHECK(e.bytes[LEVEL_L1D] >= 24 * KIB && e.bytes[LEVEL_L1D] <= 96 * KIB &&
		      e.bytes[LEVEL_L2] >= 512 * KIB && e.bytes[LEVEL_L2] <= 2 * MIB &&
		      e.bytes[LEVEL_L3] >= 4 * MIB && e.bytes[LEVEL_L3] <= 128 * MIB,
		      "at %u threads L1d and L2 within 2x of the reported, L3 at MiB, not 508: "
		      "%llu %llu %llu", lf.e[i].threads, (unsigned long long)e.bytes[0],
		      (unsigned long long)e.bytes[1], (unsigned long long)e.bytes[2]);
		used = effective_use(&reported, &e, &replaced);
		CHECK(replaced == 1u << LEVEL_L3 && used.bytes[LEVEL_L3] == e.bytes[LEVEL_L3] &&
		      used.bytes[LEVEL_L2] == 1 * MIB, "only the L3 is replaced (mask %u)", replaced);
	}
	levels_free(&lf);
}

static void test_factor(void)
{
	struct effective_shares e = { .bytes = { 48 * KIB, 1 * MIB, 16 * MIB } };
	unsigned replaced;
	struct level_shares used = effective_use(&turin, &e, &replaced);

	CHECK(!replaced && used.bytes[LEVEL_L3] == 32 * MIB,
	      "exactly %dx apart: the reported share stands", EFFECTIVE_FACTOR);
	e.bytes[LEVEL_L3] = 16 * MIB - 1024;
	e.bytes[LEVEL_L2] = 2 * MIB + 1024;
	used = effective_use(&turin, &e, &replaced);
	CHECK(replaced == (1u << LEVEL_L2 | 1u << LEVEL_L3) && used.bytes[LEVEL_L3] == e.bytes[2] &&
	      used.bytes[LEVEL_L2] == e.bytes[1], "more than %dx apart, either way: replaced",
	      EFFECTIVE_FACTOR);
	e.bytes[LEVEL_L3] = 0;
	used = effective_use(&turin, &e, &replaced);
	CHECK(used.bytes[LEVEL_L3] == 32 * MIB && !(replaced & 1u << LEVEL_L3),
	      "a level not found is the reported one");
	used = effective_use(&turin, NULL, &replaced);
	CHECK(!replaced && !memcmp(&used, &turin, sizeof used), "no scan: reported");
}

static void write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

static void test_file(void)
{
	char dir[] = "/tmp/effective_test.XXXXXX", path[256], err[300];
	struct levels_file lf = { 0 }, back;
	struct levels_entry e = { .threads = 2, .cpus = "0-1", .utc = "2026-12-06T00:00:00Z",
				  .command = "storebench run" };
	static const uint64_t edge[] = { 48 * KIB, 1 * MIB, 12 * MIB, UINT64_MAX };
	static const double ns[] = { 1.1, 3.0, 10.0, 90.0 };

	CHECK(mkdtemp(dir) != NULL, "a temporary folder");
	staircase(&e.curve, 64 * MIB, edge, ns, 4, 0.01, true);
	effective_find(&e.curve, &turin, &e.found);
	snprintf(lf.path, sizeof lf.path, "%s/sub/m.levels", dir);
	snprintf(lf.fingerprint, sizeof lf.fingerprint, "cpu A");
	CHECK(levels_put(&lf, &e) && levels_put(&lf, &e) && lf.n == 1, "the same CPUs replace");
	CHECK(levels_write(&lf, err, sizeof err), "written, its folder made: %s", err);
	CHECK(levels_read(lf.path, "cpu A", &back, err, sizeof err) == 0 && back.n == 1 &&
	      levels_lookup(&back, "0-1") && !levels_lookup(&back, "0"),
	      "read back by its fingerprint: %zu entries", back.n);
	CHECK(back.n == 1 && back.e[0].curve.n == e.curve.n &&
	      back.e[0].found.bytes[LEVEL_L3] == e.found.bytes[LEVEL_L3] &&
	      fabs(back.e[0].curve.store_ns[3] - e.curve.store_ns[3]) < 1e-3 * e.curve.store_ns[3],
	      "the entry and its curve survive the round trip");
	levels_free(&back);
	CHECK(levels_read(lf.path, "cpu B", &back, err, sizeof err) == 0 && back.n == 0 &&
	      !strcmp(back.fingerprint, "cpu B"), "another machine's file reads as empty");
	levels_free(&back);
	snprintf(path, sizeof path, "%s/none.levels", dir);
	CHECK(levels_read(path, "cpu A", &back, err, sizeof err) == 0 && back.n == 0,
	      "a machine without a file: empty");
	CHECK(levels_read(path, NULL, &back, err, sizeof err) == 2, "a named file must exist");
	CHECK(levels_read("/dev/zero", NULL, &back, err, sizeof err) == 2 &&
	      strstr(err, "regular"), "/dev/zero is refused at once: %s", err);
	snprintf(path, sizeof path, "%s/fifo", dir);
	CHECK(mkfifo(path, 0600) == 0 && levels_read(path, NULL, &back, err, sizeof err) == 2,
	      "a FIFO is refused without waiting for a writer");
	snprintf(path, sizeof path, "%s/bad.levels", dir);
	write_text(path, "fingerprint\tx\nentry\t1\t0\tutc\t1\t2\n");
	CHECK(levels_read(path, NULL, &back, err, sizeof err) == 2 && strstr(err, "line 2"),
	      "a cut entry line is refused: %s", err);
	write_text(path, "fingerprint\tx\ncurve\t0\t4096:1:0.1\n");
	CHECK(levels_read(path, NULL, &back, err, sizeof err) == 2,
	      "a curve without its entry is refused");
	write_text(path, "hello\n");
	CHECK(levels_read(path, NULL, &back, err, sizeof err) == 2, "another file is refused");
	levels_free(&lf);
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: effective_test FIXTURES_DIR\n");
		return 2;
	}
	test_staircase();
	test_fixture(argv[1]);
	test_factor();
	test_file();
	return test_result("effective_test: levels from curves, the factor rule, the kept file", 4);
}
