/*
 * loads.c — the load-kernel table, expanded from load.def, and the choice of the one read kernel.
 * Plain C, no ISA flags: this file never executes a load kernel, it only names and picks them.
 * Why one read kernel per run: every store strategy is then measured next to the same reads.
 */
#include "load.h"

#include <string.h>

#include "cpu.h"

const struct load_kernel load_table[] = {
#define LOAD(name, isa, width, unroll, desc) \
	{ "load_" #name, load_##name, isa, width, unroll, desc },
#include "load.def"
#undef LOAD
};

const size_t load_count = sizeof load_table / sizeof load_table[0];

const struct load_kernel *load_kernel_find(const char *name)
{
	for (size_t i = 0; i < load_count; i++)
		if (strcmp(load_table[i].name, name) == 0 ||
		    strcmp(load_table[i].name + strlen("load_"), name) == 0)
			return &load_table[i];
	return NULL;
}

/* cpu.c owns the wording of "why not here"; it only looks at the ISA bits of what it is given. */
const char *load_kernel_unavailable(const struct load_kernel *lk, const struct cpu_info *info)
{
	return cpu_isa_unavailable(lk->isa, info);
}

const struct load_kernel *load_kernel_best(const struct cpu_info *info)
{
	const struct load_kernel *best = NULL;

	for (size_t i = 0; i < load_count; i++)
		if (!load_kernel_unavailable(&load_table[i], info) &&
		    (!best || load_table[i].width > best->width))
			best = &load_table[i];
	return best;
}
