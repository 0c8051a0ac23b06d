/*
 * sysfs.h — read the one-line files of sysfs (the THP selectors of the metadata).
 * Plain C, Linux, no ISA.  Topology and caches come from hwloc (topology.c), which reads sysfs
 * itself; a missing or empty file means "unknown here".
 */
#ifndef STOREBENCH_SYSFS_H
#define STOREBENCH_SYSFS_H

#include <stddef.h>

/* The file's first line into buf, without its newline: 0, or -1 when absent or empty. */
int sysfs_line(const char *path, char *buf, size_t len);

#endif
