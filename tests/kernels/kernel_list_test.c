/*
 * kernel_list_test.c — the kernel list itself: unique names, one name grammar, consistent fields.
 * Plain C, runs no kernel.  Why: names are CSV ids and CLI arguments, and the fields drive the
 * tables and plots, so a row that contradicts its own name would mislabel every result.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu.h"
#include "kernels.h"

/* The families of the <family>_<kind>_u<unroll> grammar: store width and the ISA bit they need. */
static const struct family {
	const char *name;
	unsigned width;
	unsigned isa; /* 0: baseline x86-64 (the scalar family's temporal rows) */
} families[] = {
	{ "scalar", 8, 0 },
	{ "sse2", 16, ISA_SSE2 },
	{ "avx2", 32, ISA_AVX2 },
	{ "avx512", 64, ISA_AVX512F },
};

static int failures;

static void fail(const struct kernel *k, const char *why)
{
	fprintf(stderr, "FAIL %s: %s\n", k->name, why);
	failures++;
}

static const struct family *family_of(const char *name, size_t len)
{
	for (size_t i = 0; i < sizeof families / sizeof families[0]; i++)
		if (strlen(families[i].name) == len && strncmp(families[i].name, name, len) == 0)
			return &families[i];
	return NULL;
}

/* True when token is the name of one of the ISA bits in mask (cpu.c owns the spellings). */
static int isa_named(unsigned mask, const char *token)
{
	char name[32];

	for (unsigned bit = 1; bit && bit <= mask; bit <<= 1) {
		if (!(mask & bit))
			continue;
		cpu_isa_names(bit, name, sizeof name);
		if (strcmp(name, token) == 0)
			return 1;
	}
	return 0;
}

/* <family>_<kind>_u<unroll>: the kind token and unroll in the name are the row's fields. */
static void check_unrolled(const struct kernel *k, const char *kind_tok, const char *u)
{
	const struct family *f = family_of(k->name, (size_t)(kind_tok - 1 - k->name));
	const size_t kind_len = (size_t)(u - kind_tok);
	char *end;
	unsigned long unroll = strtoul(u + 2, &end, 10);

	if (!f) {
		fail(k, "unknown family in <family>_<kind>_u<unroll>");
		return;
	}
	if (strlen(kernel_kind_name(k->kind)) != kind_len ||
	    strncmp(kernel_kind_name(k->kind), kind_tok, kind_len) != 0)
		fail(k, "kind token in the name differs from the kind field");
	if (*end || unroll != k->unroll)
		fail(k, "u<unroll> in the name differs from the unroll field");
	if (k->width != f->width)
		fail(k, "width differs from the family's store width");
	if ((k->isa & f->isa) != f->isa)
		fail(k, "isa lacks the family's ISA bit");
	if (k->kind != KIND_t && k->kind != KIND_nt)
		fail(k, "<family>_<kind>_u<unroll> rows are t or nt");
	if (k->kind == KIND_t && k->isa != f->isa)
		fail(k, "a temporal row needs exactly its family's ISA");
	if (k->kind == KIND_nt && !k->isa)
		fail(k, "an nt row needs the ISA bit of its streaming store");
}

/* The cc_<level> rows: one C loop per -march level, its level's ISA bit and the vector width the
 * level gives the compiler; true when k is one and agrees with its level. */
static bool compiled_row(const struct kernel *k)
{
	static const struct {
		const char *name;
		unsigned isa, width;
	} levels[] = {
		{ "cc_x86_64", ISA_SSE2, 16 },
		{ "cc_v2", ISA_X86_64_V2, 16 },
		{ "cc_v3", ISA_X86_64_V3, 32 },
		{ "cc_v4", ISA_X86_64_V4, 64 },
	};

	for (size_t i = 0; i < sizeof levels / sizeof levels[0]; i++)
		if (!strcmp(k->name, levels[i].name)) {
			if ((k->isa & levels[i].isa) != levels[i].isa || k->width != levels[i].width)
				fail(k, "a cc_ row needs its level's ISA bit and the level's vector width");
			return true;
		}
	return false;
}

/* A compile-time-size row has a function at each of its sizes and none between them. */
static void check_sizes(const struct kernel *k)
{
	static const size_t sizes[] = {
#define SIZE(n) n,
		KERNEL_CONST_SIZES(SIZE)
#undef SIZE
	};
	size_t last = 0;

	for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
		if (!k->at_size(sizes[i]) || k->at_size(sizes[i]) == k->fn)
			fail(k, "a size of KERNEL_CONST_SIZES has no function of its own");
		for (size_t n = last + 1; n < sizes[i]; n++)
			if (k->at_size(n))
				fail(k, "a function for a size not in KERNEL_CONST_SIZES");
		last = sizes[i];
	}
	if (k->at_size(0) || k->at_size(last + 1) || k->at_size(4096))
		fail(k, "a function for a size not in KERNEL_CONST_SIZES");
}

/* <family>_<instruction> (flush rows) or a bare <instruction> (clzero, movdir64b) or libc/rep. */
static void check_instruction(const struct kernel *k)
{
	const char *us = strchr(k->name, '_');
	const struct family *f = us ? family_of(k->name, (size_t)(us - k->name)) : NULL;
	const char *insn = f ? us + 1 : k->name;

	switch (k->kind) {
	case KIND_libc:
		/* memset, memset_twin and memset_const, or a glibc variant row: libc_<isa>[_erms] /
		 * libc_erms */
		if (k->unavailable) {
			if (strncmp(k->name, "libc_", 5) != 0 || !k->width)
				fail(k, "a glibc variant row is libc_<variant> with its vector width");
		} else if ((strcmp(k->name, "memset") != 0 && strcmp(k->name, "memset_twin") != 0 &&
			    strcmp(k->name, "memset_const") != 0) || k->isa) {
			fail(k, "the libc rows are memset, memset_twin, memset_const and glibc "
				"variants; the first three need no ISA");
		}
		if (!strcmp(k->name, "memset_const") != (k->at_size != NULL))
			fail(k, "memset_const, and it alone, has functions per compile-time size");
		return;
	case KIND_rep:
		if (strncmp(k->name, "rep_stos", 8) != 0 || k->isa || strlen(k->name) != 9 ||
		    k->width != (k->name[8] == 'b' ? 1u : k->name[8] == 'q' ? 8u : 0u))
			fail(k, "rep rows are rep_stos{b,q} with the matching width and no ISA");
		return;
	case KIND_flush:
		if (!f)
			fail(k, "flush rows are <family>_<instruction>");
		else if (k->width != f->width || (k->isa & f->isa) != f->isa)
			fail(k, "width or isa differs from the family");
		if (k->width * k->unroll != 64)
			fail(k, "a flush row writes one 64-byte line per iteration");
		break;
	case KIND_nt:
		if (k->width != 64 || k->unroll != 1)
			fail(k, "a bare instruction nt row writes one 64-byte line per instruction");
		break;
	case KIND_t:
		if (!compiled_row(k))
			fail(k, "temporal rows use <family>_t_u<unroll> or cc_<level>");
		return;
	}
	if (!isa_named(k->isa, insn))
		fail(k, "the instruction in the name is not one of the row's ISA bits");
}

int main(void)
{
	if (kernel_count == 0) {
		fprintf(stderr, "FAIL: kernels.def has no rows\n");
		return 1;
	}
	for (size_t i = 0; i < kernel_count; i++) {
		const struct kernel *k = &kernel_table[i];
		const char *u = strrchr(k->name, '_');

		if (!*k->name || strspn(k->name, "abcdefghijklmnopqrstuvwxyz0123456789_") != strlen(k->name))
			fail(k, "names are [a-z0-9_]+ (CSV ids, CLI arguments)");
		for (size_t j = 0; j < i; j++)
			if (strcmp(kernel_table[j].name, k->name) == 0)
				fail(k, "name is not unique");
		if (kernel_find(k->name) != k)
			fail(k, "kernel_find does not return the row");
		if (!k->fn || !k->desc || !*k->desc || strchr(k->desc, '\n'))
			fail(k, "needs a function and a one-line description");
		if (k->at_size)
			check_sizes(k);
		if (k->kind > KIND_flush || !kernel_kind_name(k->kind))
			fail(k, "kind out of range");
		if (k->unroll < 1)
			fail(k, "unroll is at least 1");
		if ((k->width == 0) != (k->kind == KIND_libc && !k->unavailable) ||
		    (k->width & (k->width - 1)) || k->width > 64)
			fail(k, "width is a power of two up to 64, and 0 only for memset's rows");
		if (kernel_granule(k) != (size_t)k->width * k->unroll)
			fail(k, "granule is width x unroll");
		if ((k->kind == KIND_nt || k->kind == KIND_flush) && !k->isa)
			fail(k, "nt and flush rows need an ISA bit (their fence or store is not baseline)");
		if (k->fill == FILL_ZERO && k->kind != KIND_nt)
			fail(k, "only an instruction-limited nt row may be zero-fill only");
		if (u && u[1] == 'u' && u[2] >= '1' && u[2] <= '9' && u > k->name) {
			const char *kind_tok = u;

			while (kind_tok > k->name && kind_tok[-1] != '_')
				kind_tok--;
			if (kind_tok == k->name)
				fail(k, "unrolled rows are <family>_<kind>_u<unroll>");
			else
				check_unrolled(k, kind_tok, u);
		} else {
			check_instruction(k);
		}
	}
	if (failures)
		return 1;
	printf("ok: %zu kernels, names unique, grammar and fields consistent\n", kernel_count);
	return 0;
}
