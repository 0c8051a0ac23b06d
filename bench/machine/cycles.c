/*
 * cycles.c — perf_event_open for PERF_COUNT_HW_CPU_CYCLES on the calling thread.
 * Linux only.  User-space cycles only (exclude_kernel), so it also works at
 * perf_event_paranoid 2 where the hardware allows it.
 */
#include "cycles.h"

#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

int cycles_open(char *why, size_t len)
{
	struct perf_event_attr attr;
	long fd;

	memset(&attr, 0, sizeof attr);
	attr.size = sizeof attr;
	attr.type = PERF_TYPE_HARDWARE;
	attr.config = PERF_COUNT_HW_CPU_CYCLES;
	attr.exclude_kernel = 1;
	attr.exclude_hv = 1;
	fd = syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0);
	if (fd < 0) {
		int e = errno;

		snprintf(why, len, "perf_event_open(cycles) failed: %s%s", strerror(e),
			 e == ENOENT || e == EOPNOTSUPP ? " (no hardware PMU exposed, e.g. a VM)"
			 : e == EACCES || e == EPERM ? " (see /proc/sys/kernel/perf_event_paranoid)"
			 : "");
		return -1;
	}
	return (int)fd;
}

uint64_t cycles_read(int fd)
{
	uint64_t v = 0;

	if (read(fd, &v, sizeof v) != (ssize_t)sizeof v)
		return 0;
	return v;
}
