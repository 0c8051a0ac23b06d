/*
 * csv.h — the tidy CSV: column ids expanded from csv_columns.def, one row per point.
 * Plain C.  A row is filled by column id and written in the .def order, so adding a column is
 * one line in the .def and one csv_set where its value is known; unset columns stay empty.
 */
#ifndef STOREBENCH_CSV_H
#define STOREBENCH_CSV_H

#include <stdio.h>

enum csv_col {
#define COLUMN(name, desc) COL_##name,
#include "csv_columns.def"
#undef COLUMN
	COL_COUNT
};

/* A field's capacity: the cpus column lists up to a few thousand CPUs ("0,2,4,...,1534"). */
#define CSV_FIELD_MAX 8192

struct csv_row {
	char v[COL_COUNT][CSV_FIELD_MAX];
};

void csv_row_clear(struct csv_row *r);
void csv_set(struct csv_row *r, enum csv_col c, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * A row kept until it is written (rounds, the drift canary): its fields back to back, each ended
 * by '\0' — a few hundred bytes where a struct csv_row takes COL_COUNT x CSV_FIELD_MAX.
 * csv_row_pack returns NULL when out of memory; free() the result.
 */
char *csv_row_pack(const struct csv_row *r);
void csv_row_unpack(const char *packed, struct csv_row *r);

/* The header line (column names). */
void csv_header(FILE *out);

/* One row, quoted where needed (the caller flushes it: outfiles_keep_csv). */
void csv_write(FILE *out, const struct csv_row *r);

#endif
