/*
 * store_glibc.c — the libc_<variant> rows: glibc's own memset variants, called directly (see
 * glibc_impl.h).  No ISA flags: this file only calls through pointers glibc handed out, after
 * glibc_impl_unavailable() said the CPU runs them.
 */
#define _GNU_SOURCE
#include "glibc_impl.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "kernels.h"

/* glibc's struct libc_ifunc_impl (include/ifunc-impl-list.h), unchanged since glibc 2.12. */
struct glibc_ifunc_impl {
	const char *name;  /* "__memset_avx2_unaligned_erms" */
	void (*fn)(void);  /* its entry */
	bool usable;       /* this CPU has what it needs */
};
typedef size_t (*impl_list_fn)(const char *name, struct glibc_ifunc_impl *array, size_t max);

#define IMPL_MAX 64

static struct glibc_ifunc_impl impls[IMPL_MAX]; /* memset's list, as glibc gave it */
static size_t impl_count;                       /* entries in impls */
static const char *list_missing;                /* why there is no list, or NULL */
static pthread_once_t list_once = PTHREAD_ONCE_INIT;

static void read_list(void)
{
	impl_list_fn list = (impl_list_fn)dlvsym(RTLD_DEFAULT, "__libc_ifunc_impl_list",
						 "GLIBC_PRIVATE");

	if (!list) {
		list_missing = "this libc lists no memset variants (no glibc __libc_ifunc_impl_list)";
		return;
	}
	impl_count = list("memset", impls, IMPL_MAX);
	if (impl_count > IMPL_MAX)
		impl_count = IMPL_MAX;
	if (!impl_count)
		list_missing = "glibc lists no memset variant on this build";
}

static void set_slot(const char *row, void (*fn)(void));

static const struct glibc_ifunc_impl *find(const char *row)
{
	char sym[96];

	pthread_once(&list_once, read_list);
	glibc_impl_symbol(row, sym, sizeof sym);
	for (size_t i = 0; i < impl_count; i++)
		if (impls[i].name && strcmp(impls[i].name, sym) == 0)
			return &impls[i];
	return NULL;
}

const char *glibc_impl_symbol(const char *row, char *buf, size_t len)
{
	const char *v = strncmp(row, "libc_", 5) == 0 ? row + 5 : row;
	size_t isa = strcspn(v, "_");

	/* libc_erms -> __memset_erms; libc_<isa>[_erms] -> __memset_<isa>_unaligned[_erms] */
	if (strcmp(v, "erms") == 0)
		snprintf(buf, len, "__memset_erms");
	else
		snprintf(buf, len, "__memset_%.*s_unaligned%s", (int)isa, v, v + isa);
	return buf;
}

const char *glibc_impl_unavailable(const char *row)
{
	const struct glibc_ifunc_impl *impl = find(row);

	if (list_missing)
		return list_missing;
	if (!impl || !impl->fn)
		return "this glibc has no such memset variant";
	if (!impl->usable)
		return "glibc marks this memset variant unusable on this CPU";
	set_slot(row, impl->fn);
	return NULL;
}

const char *glibc_memset_variant(void)
{
	void *(*volatile resolved)(void *, int, size_t) = memset;

	pthread_once(&list_once, read_list);
	for (size_t i = 0; i < impl_count; i++)
		if ((void *)impls[i].fn == (void *)resolved)
			return impls[i].name;
	return NULL;
}

size_t glibc_impl_offset(const char *row)
{
	const struct glibc_ifunc_impl *impl = find(row);
	Dl_info where;

	if (!impl || !impl->fn || !dladdr((void *)impl->fn, &where) || !where.dli_fbase)
		return 0;
	return (size_t)((const char *)impl->fn - (const char *)where.dli_fbase);
}

/* One function per glibc_impl row (the probe of store_rows.h picks the rows of this loop). */
#define GLIBC_IMPL_HERE_glibc_impl() ~, 1
#define GI_CAT_(a, b) a##b
#define GI_CAT(a, b) GI_CAT_(a, b)
#define GI_SECOND_(a, b, ...) b
#define GI_SECOND(...) GI_SECOND_(__VA_ARGS__, 0, )
#define GI_IF_0(...)
#define GI_IF_1(...) __VA_ARGS__
#define GI_IF(loop) GI_CAT(GI_IF_, GI_SECOND(GI_CAT(GLIBC_IMPL_HERE_, loop)()))
#define GI_ROW(name)                                                                         \
	static store_fn name##_fn; /* set by glibc_impl_unavailable() */                    \
	void *store_##name(void *dst, int c, size_t n)                                       \
	{                                                                                    \
		return name##_fn(dst, c, n);                                                 \
	}
#define KERNEL(name, loop, isa, kind, width, unroll, fill, desc) GI_IF(loop)(GI_ROW(name))
#include "kernels.def"
#undef KERNEL

/* Each row's slot, so the availability check hands the row its function. */
static const struct {
	const char *row;
	store_fn *slot;
} slots[] = {
#define GI_SLOT(name) { #name, &name##_fn },
#define KERNEL(name, loop, isa, kind, width, unroll, fill, desc) GI_IF(loop)(GI_SLOT(name))
#include "kernels.def"
#undef KERNEL
};

static pthread_mutex_t slot_lock = PTHREAD_MUTEX_INITIALIZER;

static void set_slot(const char *row, void (*fn)(void))
{
	pthread_mutex_lock(&slot_lock);
	for (size_t i = 0; i < sizeof slots / sizeof slots[0]; i++)
		if (strcmp(slots[i].row, row) == 0)
			*slots[i].slot = (store_fn)(void *)fn;
	pthread_mutex_unlock(&slot_lock);
}
