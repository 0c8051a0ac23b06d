/*
 * levels.c — the level a working set fits in and the one it lies well inside (levels.h).
 * Plain C, no ISA.
 */
#include "levels.h"

#include <stdbool.h>

#define STR_(x) #x
#define STR(x) STR_(x)

const char *const level_name[LEVEL_COUNT] = {
	[LEVEL_L1D] = "L1d", [LEVEL_L2] = "L2", [LEVEL_L3] = "L3", [LEVEL_DRAM] = "DRAM",
};

const char level_rule[] =
	"working set per thread against a thread's share of each cache level (instance size / "
	"threads of the point in it): well inside L1d up to 1/" STR(LEVEL_INSIDE_DIVISOR)
	" of the L1d share, inside L2 and L3 from " STR(LEVEL_INSIDE_MULTIPLE) " x the share of "
	"the level below to 1/" STR(LEVEL_INSIDE_DIVISOR) " of the level's, inside DRAM from "
	STR(LEVEL_INSIDE_MULTIPLE) " x the LLC share; sizes between are transitions, in no level";

/* The share of the last level the thread has: L3, else L2, else L1d (0 when none is known). */
static uint64_t llc_share(const struct level_shares *s)
{
	for (int l = LEVEL_L3; l >= LEVEL_L1D; l--)
		if (s->bytes[l])
			return s->bytes[l];
	return 0;
}

enum level level_fits(uint64_t ws, const struct level_shares *s)
{
	for (int l = LEVEL_L1D; l < LEVEL_DRAM; l++)
		if (s->bytes[l] && ws <= s->bytes[l])
			return (enum level)l;
	return LEVEL_DRAM;
}

/* Whether ws is well inside the level of share bytes above a level of share below (0: none). */
static bool inside(uint64_t ws, uint64_t share, uint64_t below)
{
	return share && ws * LEVEL_INSIDE_DIVISOR <= share &&
	       (!below || ws >= LEVEL_INSIDE_MULTIPLE * below);
}

enum level level_inside(uint64_t ws, const struct level_shares *s)
{
	uint64_t llc = llc_share(s);

	if (!s->bytes[LEVEL_L1D] || !s->bytes[LEVEL_L2])
		return LEVEL_BETWEEN;
	for (int l = LEVEL_L1D; l < LEVEL_DRAM; l++)
		if (inside(ws, s->bytes[l], l > LEVEL_L1D ? s->bytes[l - 1] : 0))
			return (enum level)l;
	return ws >= LEVEL_INSIDE_MULTIPLE * llc ? LEVEL_DRAM : LEVEL_BETWEEN;
}
