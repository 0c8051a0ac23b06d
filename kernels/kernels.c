/*
 * kernels.c — the kernel table, expanded from kernels.def.
 * Plain C, no ISA flags: this file never executes a kernel, it only names them.
 * Why one table: `storebench list`, kernel selection and the tests walk it, so none misses a row.
 */
#include "kernels.h"

#include "glibc_impl.h"

#include <string.h>

/*
 * A row whose loop is const_sizes has store_<name>_at too.  The probe of store_rows.h: the
 * preprocessor cannot compare tokens, but KERNEL_SIZED_<loop>() becomes "~, 1" only for the
 * loop defined here, and the second word of the result picks NULL or the function.
 */
#define KERNEL_SIZED_const_sizes() ~, 1
#define KERNEL_CAT_(a, b) a##b
#define KERNEL_CAT(a, b) KERNEL_CAT_(a, b)
#define KERNEL_SECOND_(a, b, ...) b
#define KERNEL_SECOND(...) KERNEL_SECOND_(__VA_ARGS__, 0, )
#define KERNEL_AT_0(name) NULL
#define KERNEL_AT_1(name) store_##name##_at
#define KERNEL_AT(name, loop) \
	KERNEL_CAT(KERNEL_AT_, KERNEL_SECOND(KERNEL_CAT(KERNEL_SIZED_, loop)()))(name)

/* A glibc_impl row asks glibc whether it lists the variant (the same probe). */
#define KERNEL_GLIBC_glibc_impl() ~, 1
#define KERNEL_GATE_0 NULL
#define KERNEL_GATE_1 glibc_impl_unavailable
#define KERNEL_GATE(loop) \
	KERNEL_CAT(KERNEL_GATE_, KERNEL_SECOND(KERNEL_CAT(KERNEL_GLIBC_, loop)()))

const struct kernel kernel_table[] = {
#define KERNEL(name, loop, isa, kind, width, unroll, fill, desc)                                \
	{ #name, store_##name, isa, KIND_##kind, width, unroll, fill, desc, KERNEL_AT(name, loop), \
	  KERNEL_GATE(loop) },
#include "kernels.def"
#undef KERNEL
};

const size_t kernel_count = sizeof kernel_table / sizeof kernel_table[0];

const char *kernel_unavailable(const struct kernel *k, const struct cpu_info *cpu)
{
	const char *why = cpu_isa_unavailable(k->isa, cpu);

	return why ? why : k->unavailable ? k->unavailable(k->name) : NULL;
}

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
