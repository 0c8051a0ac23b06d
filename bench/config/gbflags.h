/*
 * gbflags.h — the Google Benchmark flags `storebench run` passes on: an allow-list, each value
 * checked, so a flag Google Benchmark would answer with its usage text (and exit 0 without
 * measuring) or an abort is one line and exit 2 here, before any file exists.  Plain C.
 */
#ifndef STOREBENCH_GBFLAGS_H
#define STOREBENCH_GBFLAGS_H

#include <stdbool.h>

/* Whether arg is one for Google Benchmark (--benchmark_* or --v=N). */
bool gbflag_is(const char *arg);

/* 0 when arg (a gbflag_is argument) is accepted, else one stderr line and 2. */
int gbflag_check(const char *arg);

/* Whether --<name> (with or without a value) is among the n flags (struct cmdline's gb). */
bool gbflag_given(const char *const *flags, int n, const char *name);

/* The value of boolean flag --<name> among them as Google Benchmark reads it (the last one wins;
 * a bare flag is true), dflt when absent.  Call after every gbflag_check passed. */
bool gbflag_bool(const char *const *flags, int n, const char *name, bool dflt);

/* The accepted flags, for --help: "--benchmark_filter, ..., --v". */
extern const char gbflag_names[];

#endif
