/*
 * run_metadata.h — every key=value of a run, and how they reach the CSV preamble and JSON context.
 * Plain C.  The machine's keys come from metadata.h; these add the run's: its time, command line,
 * files, options, limits and diagnostics.
 */
#ifndef STOREBENCH_RUN_METADATA_H
#define STOREBENCH_RUN_METADATA_H

#include <stdbool.h>
#include <stdio.h>
#include <time.h>

#include "machine.h"
#include "run_config.h"
#include "outfiles.h"

/*
 * Every key=value line of the run in one malloc'd text (the machine's first), so the CSV preamble
 * and the JSON context say the same; NULL when out of memory.  tsc_hz and cycles_note are what
 * the run measured of its clocks before the first point.
 */
char *run_metadata(const struct cmdline *cl, const struct machine *mach,
		   const struct run_config *o, const struct outfiles *of, time_t now, double tsc_hz,
		   const char *cycles_note);

/* The metadata key of the setting option id sets, whose default a run records (settings_keys,
 * default_<key>); NULL for an option that is no such setting (the sweep's axes, files, flags). */
const char *run_metadata_setting_key(enum option_id id);

/*
 * The key=value lines of meta as CSV preamble lines (when csv) and as JSON context keys (when
 * context: each key once, Google Benchmark refuses a second).  Values have no length limit: the
 * canary's series grows with the run.
 */
void write_preamble(FILE *csv, const char *meta, bool context);

#endif
