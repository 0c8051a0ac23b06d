/*
 * select.h — which kernels a run measures: names, globs and families from --kernels.
 * Plain C.  Exact names are promises (an unrunnable one is an error); globs are wishes (an
 * unrunnable match is skipped with a note), so `avx512_*` works on every CPU.
 */
#ifndef STOREBENCH_SELECT_H
#define STOREBENCH_SELECT_H

#include <stdbool.h>
#include <stddef.h>

#include "cpu.h"
#include "kernels.h"

struct selection {
	size_t n;                       /* kernels selected, in kernels.def order */
	const struct kernel **k;        /* kernel_count entries allocated */
	char *skipped;                  /* "name (reason); ...", "" when none: for the note and
					 * the CSV metadata; the caller frees it */
};

/*
 * Fill sel from spec ("memset,avx2_*", "avx2" = family "avx2_*", "all" or "*").  fill is the byte
 * the run stores: FILL_ZERO kernels only qualify for 0.  On bad input prints one line to stderr,
 * naming option (the one spec came from), and returns false.
 */
bool kernel_select(const char *option, const char *spec, const struct cpu_info *cpu,
		   unsigned fill, struct selection *sel);

#endif
