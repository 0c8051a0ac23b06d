/*
 * run_levels.h — the cache levels a run sizes itself by (run's --levels): none, a file, or this
 * machine's as measured, read from its kept file and scanned where that lacks a thread count.
 * Plain C.  Between the two parses of the options: the first gives the thread counts and their
 * CPUs, the second the sizes by the levels found here.
 */
#ifndef STOREBENCH_RUN_LEVELS_H
#define STOREBENCH_RUN_LEVELS_H

#include "cmdline.h"
#include "machine.h"
#include "run_config.h"

/*
 * Fill m->levels for o's thread counts as o->levels_spec says.  0, or 2 after one stderr line
 * (a bad --levels FILE, --levels measure on a replayed machine), 1 when a scan failed, 128 + the
 * signal when one stopped it.  A kept file that cannot be read or written is a note, not a stop.
 */
int run_levels(const struct cmdline *cl, struct machine *m, const struct run_config *o);

/* Whether any thread count of o sizes a level by its measured share. */
bool levels_replaced(const struct run_config *o);

/* One stderr note a thread count whose measured levels replace reported ones, or why none. */
void run_levels_notes(const struct run_config *o);

#endif
