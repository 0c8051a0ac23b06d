/*
 * csv.h — the tidy CSV: column ids expanded from csv_columns.def, and the one row builder.
 * Plain C.  A row has two parts: the point's identity (what the sweep decides: kernel, sizes,
 * threads, where they ran, the run's settings), stamped once when the sweep is built, and what
 * measuring it gave (statistics as numbers, ranks and paired verdicts, quality), formatted when
 * the row is written.  Every column's value comes from one case of csv.c's column(), in the
 * .def's order; an empty field means "not measurable here", never zero.
 */
#ifndef STOREBENCH_CSV_H
#define STOREBENCH_CSV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "compare.h"
#include "measure.h"
#include "point.h"

struct run_config;

enum csv_col {
#define COLUMN(name, desc) COL_##name,
#include "csv_columns.def"
#undef COLUMN
	COL_COUNT
};

/* The columns before this one are a point's identity; it and those after, its measurement. */
#define CSV_FIRST_MEASURED COL_repetitions

/* What a point's measured columns show. */
struct csv_measured {
	const struct point_stats *stats; /* its numbers over the rounds so far */
	const struct compare *cmp;       /* ranks and paired verdicts; NULL at one round */
	size_t i;                        /* the point's index in the sweep (and in cmp) */
	unsigned quality;                /* enum quality_reason bits of every stage */
	bool remeasured;                 /* some round measured it twice */
	bool failed;                     /* a verification failed: no quality to give */
};

/* The header line (column names). */
void csv_header(FILE *out);

/*
 * p's identity columns under o's settings, as CSV text (quoted fields, ',' between, none at the
 * end), stamped once when the sweep is built; NULL when out of memory.  free() it.
 */
char *csv_identity(const struct point *p, const struct run_config *o);

/* One row: the identity stamped for the point, then m's columns (the caller flushes it:
 * outfiles_keep_csv). */
void csv_write_row(FILE *out, const char *identity, const struct csv_measured *m);

#endif
