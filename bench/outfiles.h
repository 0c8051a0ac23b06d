/*
 * outfiles.h — where a run's CSV and JSON go, created exclusively: no result is overwritten.
 * Plain C, POSIX.  Default: results/<machine>/<UTC time>.csv with the JSON beside it; the machine
 * id comes from the CPU (codename, else family-model) and the short host name.
 */
#ifndef STOREBENCH_OUTFILES_H
#define STOREBENCH_OUTFILES_H

#include <stdbool.h>
#include <stdio.h>
#include <time.h>

#include "cpu.h"

struct outfiles {
	char machine[128];
	char csv_path[1024];
	char json_path[1024];
	FILE *csv;
};

/* The default results folder name, "turin-buildhost": codename (or f1a-m02) + short host name. */
void machine_id(const struct cpu_info *cpu, char *buf, size_t len);

/*
 * Create both files (O_EXCL).  csv/json may be NULL for the defaults; now names the default
 * files.  On failure prints one line, removes whatever it created and returns false.
 */
bool outfiles_create(struct outfiles *of, const char *csv, const char *json, const char *machine,
		     const struct cpu_info *cpu, time_t now);

/* Remove both files (a run that produced no row). */
void outfiles_discard(struct outfiles *of);

#endif
