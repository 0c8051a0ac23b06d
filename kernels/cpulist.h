/*
 * cpulist.h — the Linux CPU-list syntax ("0-3,8,10-11") of sysfs and of `--placement cpus:`.
 * Plain C, no ISA.  One parser for CPU detection (kernels/) and placement (bench/), so a list
 * sysfs writes and a list a user types are read by the same rules.
 */
#ifndef STOREBENCH_CPULIST_H
#define STOREBENCH_CPULIST_H

#include <stdbool.h>

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
 * sysfs readers stop at anything but CPULIST_RANGE (a trailing newline ends the list).
 */
enum cpulist_status cpulist_next(struct cpulist *it, long *lo, long *hi);

/* How many CPUs a well-formed sysfs list names; *first gets the lowest (-1 when none). */
unsigned cpulist_count(const char *list, long *first);

#endif
