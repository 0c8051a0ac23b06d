/*
 * kernels.c — the kernel table, expanded from kernels.def.
 * Plain C, no ISA flags: this file never executes a kernel, it only names them.
 * Why one table: `storebench list`, kernel selection and the tests walk it, so none misses a row.
 */
#include "kernels.h"

#include <string.h>

const struct kernel kernel_table[] = {
#define KERNEL(name, loop, isa, kind, width, unroll, fill, desc) \
	{ #name, store_##name, isa, KIND_##kind, width, unroll, fill, desc },
#include "kernels.def"
#undef KERNEL
};

const size_t kernel_count = sizeof kernel_table / sizeof kernel_table[0];

const char *kernel_kind_name(enum kernel_kind kind)
{
	static const char *const names[] = {
		[KIND_libc] = "libc", [KIND_rep] = "rep", [KIND_t] = "t",
		[KIND_nt] = "nt", [KIND_flush] = "flush",
	};
	return names[kind];
}

const struct kernel *kernel_find(const char *name)
{
	for (size_t i = 0; i < kernel_count; i++)
		if (strcmp(kernel_table[i].name, name) == 0)
			return &kernel_table[i];
	return NULL;
}
