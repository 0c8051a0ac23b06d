/*
 * input_file.h — the one rule for a file a user names (a topology, a CPUID dump, a levels file):
 * a regular file of bounded size, or one clear reason.  Plain C, POSIX.  A reader given /dev/zero
 * grows without end, one given a FIFO waits for a writer that never comes, and a parser handed a
 * directory reports something beside the point: all are refused before anything is read.
 */
#ifndef STOREBENCH_INPUT_FILE_H
#define STOREBENCH_INPUT_FILE_H

#include <stdbool.h>
#include <stddef.h>

/*
 * path opened for reading (never blocking on a FIFO) when it is a regular file of at most max
 * bytes (each reader names its own limit): the descriptor; else -1 with err: "a directory", "not a regular file", "larger than
 * N MiB", or why it cannot be opened.  *size gets its size (may be NULL).
 */
int input_file_open(const char *path, unsigned long long max, size_t *size, char *err,
		    size_t errlen);

/*
 * The whole of path, checked as above, NUL-terminated in a malloc'd buffer (free it); *len gets
 * its length (may be NULL).  NULL with err when it fails the check or cannot be read (errno
 * kept: ENOENT for a missing file).
 */
char *input_file_read(const char *path, unsigned long long max, size_t *len, char *err,
		      size_t errlen);

/* The same check alone: true when path passes it, else false with err. */
bool input_file_check(const char *path, unsigned long long max, char *err, size_t errlen);

#endif
