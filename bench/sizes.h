/*
 * sizes.h — parsing of size and integer lists for the command line: "4KiB..1GiB:x2,1536".
 * Plain C.  One grammar for every numeric axis, so call sizes, working sets, thread counts and
 * misalignments accept the same ranges and units.
 */
#ifndef STOREBENCH_SIZES_H
#define STOREBENCH_SIZES_H

#include <stdbool.h>
#include <stddef.h>

struct u64_list {
	size_t n;              /* entries used */
	size_t cap;            /* entries allocated */
	unsigned long long *v; /* values in the order given, duplicates removed */
};

/*
 * One value: digits with an optional unit.  K, KiB = 1024; KB, kB = 1000 (dd's convention), and
 * the same for M, G, T.  Units only when units is true.  Returns false on anything else.
 */
bool size_parse(const char *s, bool units, unsigned long long *out);

/*
 * A comma-separated list of values and ranges: A..B (doubling), A..B:xF (times F), A..B:+S
 * (plus S); a range always ends with B, on the step grid or not.  Every value must be >= min.
 * On error returns false and leaves the reason in err.
 */
bool u64_list_parse(const char *s, bool units, unsigned long long min, struct u64_list *out,
		    char *err, size_t errlen);

void u64_list_push(struct u64_list *l, unsigned long long v);
void u64_list_free(struct u64_list *l);

#endif
