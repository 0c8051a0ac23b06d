/*
 * dryrun.h — `storebench run --dry-run`: the plan of a sweep without measuring it, on this
 * machine or a replayed one.  Plain C, no ISA.  Every point with where it runs, its bytes and
 * cache regime, the memory peak against the machine's memory, and a duration from a stated model.
 */
#ifndef STOREBENCH_DRYRUN_H
#define STOREBENCH_DRYRUN_H

#include <stddef.h>
#include <stdio.h>

#include "canary.h"
#include "machine.h"
#include "run_config.h"
#include "plan_rules.h"
#include "sweep.h"

/*
 * Print the plan of pts[0..n) (sweep order) for machine m to out, the canaries (cfg) costed when
 * o has them on.  0, or 1 out of memory.
 */
int dryrun_print(FILE *out, const struct machine *m, const struct run_config *o,
		 const struct canary_config *cfg, const struct point *pts, size_t n);

/*
 * The seconds the planned --rounds of pts[0..n) take by the model dryrun_print prints (its
 * rounds_s: before any contest round), the canaries included when o has them on; NAN out of
 * memory.
 */
double dryrun_rounds_seconds(const struct run_config *o, const struct canary_config *cfg,
			     const struct point *pts, size_t n);

#endif
