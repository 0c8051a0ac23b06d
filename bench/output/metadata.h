/*
 * metadata.h — the machine and build as `key=value` lines, for `storebench info` and CSV headers.
 * Plain C.  One writer for both, so a CSV's `# key=value` preamble and `info` never disagree.
 */
#ifndef STOREBENCH_METADATA_H
#define STOREBENCH_METADATA_H

#include <stdio.h>

#include "machine.h"

/*
 * Write every machine/build key as "<prefix>key=value\n" (prefix "" for info, "# " for CSV).
 * Keys are lowercase with underscores; values are single-line (control characters become spaces).
 */
void metadata_machine(FILE *out, const char *prefix, const struct machine *m);

/* The build's own keys, also printed by `storebench --version`: storebench_version (the package
 * version, bench/version.cmake) and git_sha; then compiler, build_type, cflags, benchmark_version. */
void metadata_build_id(FILE *out, const char *prefix);
void metadata_build_flags(FILE *out, const char *prefix);

/*
 * One more line in the same format, for keys only the caller knows (UTC time, command line),
 * whatever the value holds: control characters become spaces (one line per key) and a byte that
 * is not part of valid UTF-8 is written as the four characters \xHH, so every reader can decode
 * the file as UTF-8 (a file name given in Latin-1 stays recognisable).
 */
void metadata_kv(FILE *out, const char *prefix, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* A value as metadata_kv writes it, for a line of several key=value (the dry run's plan). */
void metadata_value(FILE *out, const char *value);

#endif
