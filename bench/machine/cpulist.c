/*
 * cpulist.c — parser and writer of the Linux CPU-list syntax ("0-3,8,10-11").
 * Plain C, no ISA.  strtol's rules for each number; no stride form ("0-7:2/4"), which sysfs
 * never writes and placement does not need.
 */
#include "cpulist.h"

#include <stdio.h>
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

bool cpulist_format(const unsigned *cpus, size_t n, char *buf, size_t len)
{
	size_t used = 0;

	if (!len)
		return false;
	buf[0] = '\0';
	for (size_t i = 0; i < n;) {
		size_t j = i;
		int w;

		while (j + 1 < n && cpus[j + 1] == cpus[j] + 1)
			j++;
		w = j == i ? snprintf(buf + used, len - used, "%s%u", used ? "," : "", cpus[i])
			   : snprintf(buf + used, len - used, "%s%u-%u", used ? "," : "", cpus[i], cpus[j]);
		if ((size_t)w >= len - used) {
			buf[0] = '\0';
			return false;
		}
		used += (size_t)w;
		i = j + 1;
	}
	return true;
}
