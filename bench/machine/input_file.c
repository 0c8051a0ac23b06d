/*
 * input_file.c — a named file checked before it is read (input_file.h).  Plain C, POSIX.
 * Opened with O_NONBLOCK so a FIFO returns at once, and judged by fstat on that descriptor, so
 * what is judged is what is read.
 */
#include "input_file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int input_file_open(const char *path, unsigned long long max, size_t *size, char *err,
		    size_t errlen)
{
	struct stat st;
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);

	if (fd < 0) {
		snprintf(err, errlen, "%s", strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || (unsigned long long)st.st_size > max) {
		if (S_ISDIR(st.st_mode))
			snprintf(err, errlen, "a directory, not a file");
		else if (!S_ISREG(st.st_mode))
			snprintf(err, errlen, "not a regular file: a device, FIFO or socket");
		else
			snprintf(err, errlen, "larger than %llu MiB", max >> 20);
		close(fd);
		return -1;
	}
	if (size)
		*size = (size_t)st.st_size;
	return fd;
}

char *input_file_read(const char *path, unsigned long long max, size_t *len, char *err,
		      size_t errlen)
{
	size_t size, got = 0;
	int fd = input_file_open(path, max, &size, err, errlen), e;
	char *text = fd >= 0 ? malloc(size + 1) : NULL;

	while (text && got < size) {
		ssize_t n = read(fd, text + got, size - got);

		if (n <= 0) {
			e = n ? errno : EIO;
			snprintf(err, errlen, "%s", strerror(e));
			free(text);
			close(fd);
			errno = e;
			return NULL;
		}
		got += (size_t)n;
	}
	if (fd >= 0 && !text)
		snprintf(err, errlen, "out of memory");
	if (fd >= 0)
		close(fd);
	if (!text)
		return NULL;
	text[got] = 0;
	if (len)
		*len = got;
	return text;
}

bool input_file_check(const char *path, unsigned long long max, char *err, size_t errlen)
{
	int fd = input_file_open(path, max, NULL, err, errlen);

	if (fd >= 0)
		close(fd);
	return fd >= 0;
}
