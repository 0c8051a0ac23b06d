/*
 * sysfs.h — read the one-line files of sysfs (cache, topology, THP selectors).
 * Plain C, Linux, no ISA.  One reader for CPU detection (kernels/), placement and metadata
 * (bench/), so a missing or empty file means the same thing everywhere: "unknown here".
 */
#ifndef STOREBENCH_SYSFS_H
#define STOREBENCH_SYSFS_H

#include <stddef.h>

/* The file's first line into buf, without its newline: 0, or -1 when absent or empty. */
int sysfs_line(const char *path, char *buf, size_t len);

#endif
