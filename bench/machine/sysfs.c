/*
 * sysfs.c — read the first line of a sysfs file.
 * Plain C, Linux, no ISA.  sysfs values are one short line; a CPU that is offline or a kernel
 * without the file simply yields -1, and each caller keeps its own fallback.
 */
#include "sysfs.h"

#include <stdio.h>
#include <string.h>

int sysfs_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	int ok = f && fgets(buf, (int)len, f);

	if (f)
		fclose(f);
	if (!ok)
		return -1;
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}
