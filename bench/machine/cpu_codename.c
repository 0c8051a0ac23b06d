/*
 * cpu_codename.c — family/model (and stepping where it matters) → codename, as data.
 * Plain C.  libcpuid 0.6.2 does not know Sapphire/Emerald/Granite Rapids, Genoa or Turin, and a
 * result file must say which silicon produced it; server parts first, a few client parts after.
 */
#include "cpu.h"

#include <string.h>

struct codename {
	unsigned family;
	unsigned model_lo, model_hi;       /* inclusive display-model range */
	unsigned stepping_lo, stepping_hi; /* inclusive; 0..15 when the model alone decides */
	const char *name;
};

#define ANY 0, 15

/* Intel family 6 models as in the Linux kernel's intel-family.h. */
static const struct codename intel[] = {
	{ 6, 0x3f, 0x3f, ANY, "Haswell-EP" },
	{ 6, 0x4f, 0x4f, ANY, "Broadwell-EP" },
	{ 6, 0x56, 0x56, ANY, "Broadwell-DE" },
	{ 6, 0x55, 0x55, 0, 4, "Skylake-SP" },
	{ 6, 0x55, 0x55, 5, 7, "Cascade Lake" },
	{ 6, 0x55, 0x55, 10, 11, "Cooper Lake" },
	{ 6, 0x6a, 0x6a, ANY, "Ice Lake-SP" },
	{ 6, 0x6c, 0x6c, ANY, "Ice Lake-D" },
	{ 6, 0x8f, 0x8f, ANY, "Sapphire Rapids" },
	{ 6, 0xcf, 0xcf, ANY, "Emerald Rapids" },
	{ 6, 0xad, 0xad, ANY, "Granite Rapids" },
	{ 6, 0xae, 0xae, ANY, "Granite Rapids-D" },
	{ 6, 0xaf, 0xaf, ANY, "Sierra Forest" },
	{ 6, 0xdd, 0xdd, ANY, "Clearwater Forest" },
	{ 6, 0x4e, 0x4e, ANY, "Skylake (mobile)" },
	{ 6, 0x5e, 0x5e, ANY, "Skylake" },
	{ 6, 0x8e, 0x8e, ANY, "Kaby/Whiskey/Amber Lake (mobile)" },
	{ 6, 0x9e, 0x9e, ANY, "Kaby/Coffee Lake" },
	{ 6, 0xa5, 0xa6, ANY, "Comet Lake" },
	{ 6, 0x7d, 0x7e, ANY, "Ice Lake (client)" },
	{ 6, 0x8c, 0x8d, ANY, "Tiger Lake" },
	{ 6, 0xa7, 0xa7, ANY, "Rocket Lake" },
	{ 6, 0x97, 0x97, ANY, "Alder Lake" },
	{ 6, 0x9a, 0x9a, ANY, "Alder Lake (mobile)" },
	{ 6, 0xb7, 0xb7, ANY, "Raptor Lake" },
	{ 6, 0xba, 0xba, ANY, "Raptor Lake-P" },
	{ 6, 0xbf, 0xbf, ANY, "Raptor Lake-S" },
	{ 6, 0xaa, 0xac, ANY, "Meteor Lake" },
	{ 6, 0xbd, 0xbd, ANY, "Lunar Lake" },
	{ 6, 0xc5, 0xc6, ANY, "Arrow Lake" },
	{ 6, 0xb5, 0xb5, ANY, "Arrow Lake-U" },
};

/* AMD model ranges per family, from AMD's revision guides and PPR titles. */
static const struct codename amd[] = {
	{ 0x17, 0x00, 0x07, ANY, "Naples/Summit Ridge (Zen)" },
	{ 0x17, 0x08, 0x0f, ANY, "Pinnacle Ridge (Zen+)" },
	{ 0x17, 0x10, 0x2f, ANY, "Raven Ridge/Picasso/Dali (Zen/Zen+)" },
	{ 0x17, 0x30, 0x3f, ANY, "Rome/Castle Peak (Zen 2)" },
	{ 0x17, 0x60, 0x6f, ANY, "Renoir (Zen 2)" },
	{ 0x17, 0x70, 0x7f, ANY, "Matisse (Zen 2)" },
	{ 0x19, 0x00, 0x0f, ANY, "Milan (Zen 3)" },
	{ 0x19, 0x10, 0x1f, ANY, "Genoa (Zen 4)" },
	{ 0x19, 0x20, 0x2f, ANY, "Vermeer (Zen 3)" },
	{ 0x19, 0x40, 0x4f, ANY, "Rembrandt (Zen 3+)" },
	{ 0x19, 0x50, 0x5f, ANY, "Cezanne (Zen 3)" },
	{ 0x19, 0x60, 0x6f, ANY, "Raphael (Zen 4)" },
	{ 0x19, 0x70, 0x7f, ANY, "Phoenix (Zen 4)" },
	{ 0x19, 0xa0, 0xaf, ANY, "Bergamo/Siena (Zen 4c)" },
	{ 0x1a, 0x00, 0x0f, ANY, "Turin (Zen 5)" },
	{ 0x1a, 0x10, 0x1f, ANY, "Turin Dense (Zen 5c)" },
	{ 0x1a, 0x20, 0x2f, ANY, "Strix Point (Zen 5)" },
	{ 0x1a, 0x40, 0x4f, ANY, "Granite Ridge (Zen 5)" },
	{ 0x1a, 0x60, 0x6f, ANY, "Krackan Point (Zen 5)" },
	{ 0x1a, 0x70, 0x7f, ANY, "Strix Halo (Zen 5)" },
};

static const char *lookup(const struct codename *t, size_t n, unsigned family, unsigned model,
			  unsigned stepping)
{
	for (size_t i = 0; i < n; i++)
		if (t[i].family == family && model >= t[i].model_lo && model <= t[i].model_hi &&
		    stepping >= t[i].stepping_lo && stepping <= t[i].stepping_hi)
			return t[i].name;
	return "unknown";
}

const char *cpu_codename(const char *vendor, unsigned family, unsigned model, unsigned stepping)
{
	if (strcmp(vendor, "GenuineIntel") == 0)
		return lookup(intel, sizeof intel / sizeof intel[0], family, model, stepping);
	if (strcmp(vendor, "AuthenticAMD") == 0)
		return lookup(amd, sizeof amd / sizeof amd[0], family, model, stepping);
	return "unknown";
}
