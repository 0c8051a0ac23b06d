/*
 * csv.c — header and row writer for the result CSV (RFC 4180 quoting).
 * Plain C.  The caller flushes and fsyncs after each row (outfiles_keep_csv), where a failed
 * write is seen and the partial row cut off: a killed or starved run keeps every whole row.
 */
#include "csv.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

static const char *const col_names[COL_COUNT] = {
#define COLUMN(name, desc) #name,
#include "csv_columns.def"
#undef COLUMN
};

void csv_row_clear(struct csv_row *r)
{
	memset(r, 0, sizeof *r);
}

void csv_set(struct csv_row *r, enum csv_col c, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(r->v[c], sizeof r->v[c], fmt, ap);
	va_end(ap);
}

char *csv_row_pack(const struct csv_row *r)
{
	size_t len = 0;
	char *packed, *at;

	for (int c = 0; c < COL_COUNT; c++)
		len += strlen(r->v[c]) + 1;
	packed = at = malloc(len);
	if (!packed)
		return NULL;
	for (int c = 0; c < COL_COUNT; c++)
		at = stpcpy(at, r->v[c]) + 1;
	return packed;
}

void csv_row_unpack(const char *packed, struct csv_row *r)
{
	for (int c = 0; c < COL_COUNT; c++) {
		snprintf(r->v[c], sizeof r->v[c], "%s", packed);
		packed += strlen(packed) + 1;
	}
}

static void field(FILE *out, const char *s)
{
	if (!strpbrk(s, ",\"\n")) {
		fputs(s, out);
		return;
	}
	fputc('"', out);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', out);
		fputc(*s, out);
	}
	fputc('"', out);
}

void csv_header(FILE *out)
{
	for (int c = 0; c < COL_COUNT; c++) {
		if (c)
			fputc(',', out);
		fputs(col_names[c], out);
	}
	fputc('\n', out);
}

void csv_write(FILE *out, const struct csv_row *r)
{
	for (int c = 0; c < COL_COUNT; c++) {
		if (c)
			fputc(',', out);
		field(out, r->v[c]);
	}
	fputc('\n', out);
}
