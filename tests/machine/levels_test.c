/*
 * levels_test.c — the one cache-level rule (bench/machine/levels.h) at its edges.
 * Plain C.  Shares as on this project's Turin guest (48 KiB L1d, 1 MiB L2, 32 MiB L3), a machine
 * without an L3, and unknown sizes; each edge checked on both sides, so an off-by-one in the
 * divisor, the multiple or the comparison fails.
 */
#include <string.h>

#include "levels.h"
#include "test_util.h"

#define KIB 1024ull
#define MIB (1024ull * KIB)

static const struct level_shares turin = { { 48 * KIB, 1 * MIB, 32 * MIB } };
static const struct level_shares no_l3 = { { 32 * KIB, 2 * MIB, 0 } };

static void test_fits(void)
{
	CHECK(level_fits(48 * KIB, &turin) == LEVEL_L1D, "the whole L1d share fits in L1d");
	CHECK(level_fits(48 * KIB + 1, &turin) == LEVEL_L2, "one byte more is L2");
	CHECK(level_fits(32 * MIB, &turin) == LEVEL_L3 && level_fits(32 * MIB + 1, &turin) ==
	      LEVEL_DRAM, "beyond the L3 share: DRAM");
	CHECK(level_fits(3 * MIB, &no_l3) == LEVEL_DRAM, "no L3: beyond the L2 is DRAM");
}

static void test_inside(void)
{
	CHECK(level_inside(64, &turin) == LEVEL_L1D, "a line is well inside L1d");
	CHECK(level_inside(24 * KIB, &turin) == LEVEL_L1D &&
	      level_inside(24 * KIB + 1, &turin) == LEVEL_BETWEEN, "L1d up to half its share");
	CHECK(level_inside(192 * KIB - 1, &turin) == LEVEL_BETWEEN &&
	      level_inside(192 * KIB, &turin) == LEVEL_L2, "L2 from 4 x the L1d share");
	CHECK(level_inside(512 * KIB, &turin) == LEVEL_L2 &&
	      level_inside(512 * KIB + 1, &turin) == LEVEL_BETWEEN, "L2 up to half its share");
	CHECK(level_inside(4 * MIB - 1, &turin) == LEVEL_BETWEEN &&
	      level_inside(4 * MIB, &turin) == LEVEL_L3 && level_inside(16 * MIB, &turin) ==
	      LEVEL_L3 && level_inside(16 * MIB + 1, &turin) == LEVEL_BETWEEN,
	      "L3 from 4 x the L2 share to half its own");
	CHECK(level_inside(128 * MIB - 1, &turin) == LEVEL_BETWEEN &&
	      level_inside(128 * MIB, &turin) == LEVEL_DRAM, "DRAM from 4 x the LLC share");
	/* two threads in one 32 MiB L3 own 16 MiB each: 32 MiB a thread is partly cached (memset
	 * 50.2 against 27.8 GB/s at 64 MiB on a Genoa guest), in no class (issue 21.21) */
	CHECK(level_inside(32 * MIB, &(struct level_shares){ { 48 * KIB, 1 * MIB, 16 * MIB } }) ==
	      LEVEL_BETWEEN && level_inside(64 * MIB, &(struct level_shares){ { 48 * KIB, 1 * MIB,
	      16 * MIB } }) == LEVEL_DRAM, "the LLC share, not the LLC, at two threads");
	CHECK(level_inside(8 * MIB, &no_l3) == LEVEL_DRAM &&
	      level_inside(8 * MIB - 1, &no_l3) == LEVEL_BETWEEN, "no L3: the L2 is the LLC");
	CHECK(level_inside(64, &(struct level_shares){ { 0, 1 * MIB, 0 } }) == LEVEL_BETWEEN &&
	      level_inside(64, &(struct level_shares){ { 48 * KIB, 0, 0 } }) == LEVEL_BETWEEN,
	      "no class without the L1d and L2 sizes");
}

static void test_words(void)
{
	static const char *const want[LEVEL_COUNT] = { "L1d", "L2", "L3", "DRAM" };

	for (int l = 0; l < LEVEL_COUNT; l++)
		CHECK(!strcmp(level_name[l], want[l]), "level %d is named %s", l, level_name[l]);
	CHECK(strstr(level_rule, "1/2 of the L1d share") && strstr(level_rule, "4 x the LLC share"),
	      "the rule's sentence states the divisor and the multiple: %s", level_rule);
}

int main(void)
{
	test_fits();
	test_inside();
	test_words();
	return test_result("ok levels: fits and well-inside edges, no L3, unknown sizes, the words");
}
