/*
 * cpulist.c — parser of the Linux CPU-list syntax ("0-3,8,10-11").
 * Plain C, no ISA.  strtol's rules for each number; no stride form ("0-7:2/4"), which sysfs
 * never writes and placement does not need.
 */
#include "cpulist.h"

#include <stdlib.h>

enum cpulist_status cpulist_next(struct cpulist *it, long *lo, long *hi)
{
	const char *p = it->pos;
	char *end;

	if (it->after_range) {
		if (*p && *p != ',')
			return CPULIST_BAD_SEPARATOR;
		if (*p)
			p++;
	}
	if (!*p)
		return CPULIST_END;
	*lo = strtol(p, &end, 10);
	*hi = *lo;
	if (end == p || *lo < 0)
		return CPULIST_BAD_NUMBER;
	if (*end == '-') {
		const char *q = end + 1;

		*hi = strtol(q, &end, 10);
		if (end == q || *hi < *lo)
			return CPULIST_BAD_RANGE;
	}
	it->pos = end;
	it->after_range = true;
	return CPULIST_RANGE;
}

unsigned cpulist_count(const char *list, long *first)
{
	struct cpulist it = cpulist_start(list);
	unsigned count = 0;
	long lo, hi;

	*first = -1;
	while (cpulist_next(&it, &lo, &hi) == CPULIST_RANGE) {
		if (*first < 0 || lo < *first)
			*first = lo;
		count += (unsigned)(hi - lo + 1);
	}
	return count;
}
