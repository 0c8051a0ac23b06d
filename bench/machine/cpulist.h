/*
 * cpulist.h — the Linux CPU-list syntax ("0-3,8,10-11") of `--placement cpus:` and of info.
 * Plain C, no ISA.  The parser keeps the order a user wrote (thread i runs on the i-th CPU);
 * the writer prints CPU sets the way sysfs, taskset and hwloc do.
 */
#ifndef STOREBENCH_CPULIST_H
#define STOREBENCH_CPULIST_H

#include <stdbool.h>
#include <stddef.h>

enum cpulist_status {
	CPULIST_RANGE = 1,	/* *lo..*hi is the next range */
	CPULIST_END = 0,	/* the list is used up (a trailing comma is allowed) */
	CPULIST_BAD_NUMBER = -1, /* no CPU number (or a negative one) where one must start */
	CPULIST_BAD_RANGE = -2,	/* "a-" without b, or b < a */
	CPULIST_BAD_SEPARATOR = -3, /* something other than ',' or the end after a range */
};

struct cpulist {
	const char *pos;	/* next unread character */
	bool after_range;	/* a separator (or the end) must come next */
};

static inline struct cpulist cpulist_start(const char *list)
{
	return (struct cpulist){ .pos = list };
}

/*
 * The next range of the list, in the order written.  Errors are reported only after every
 * range before them, so a caller checking each CPU meets problems in the order a reader would.
 */
enum cpulist_status cpulist_next(struct cpulist *it, long *lo, long *hi);

/*
 * cpus[0..n) (ascending) as "0-3,8,10-11" into buf; "" when n is 0.  false when buf is too
 * short (buf then holds nothing, never a silently shortened list).
 */
bool cpulist_format(const unsigned *cpus, size_t n, char *buf, size_t len);

#endif
