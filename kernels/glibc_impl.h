/*
 * glibc_impl.h — glibc's memset variants as functions of their own, for the libc_<variant> rows.
 * glibc lists every IFUNC implementation of memset (its name, its address, whether this CPU runs
 * it) through __libc_ifunc_impl_list, the GLIBC_PRIVATE entry glibc's own string benchmarks use;
 * the rows whose loop is glibc_impl call the listed function directly, in this process, so every
 * variant runs under this glibc's thresholds in the same rounds as the other kernels.  Which
 * GLIBC_TUNABLES make the IFUNC pick a variant is kernels.def's (the row's desc);
 * tests/kernels/glibc_impl_test.py checks it against the address memset resolves to.
 */
#ifndef STOREBENCH_GLIBC_IMPL_H
#define STOREBENCH_GLIBC_IMPL_H

#include <stddef.h>

/* "__memset_avx2_unaligned_erms" for row "libc_avx2_erms", "__memset_erms" for "libc_erms":
 * the glibc symbol a glibc_impl row calls (written into buf; returns buf). */
const char *glibc_impl_symbol(const char *row, char *buf, size_t len);

/* NULL when the row can run here, else why not (no glibc list, no such variant, or glibc marks
 * it unusable on this CPU).  Resolves the row's function on first use. */
const char *glibc_impl_unavailable(const char *row);

/* The listed memset variant this process's memset resolves to ("__memset_avx512_unaligned_erms"),
 * or NULL when glibc lists none at that address (not glibc, or an unlisted build). */
const char *glibc_memset_variant(void);

/* The offset of a row's function in libc (for the CSV's metadata), 0 when unresolved. */
size_t glibc_impl_offset(const char *row);

#endif
