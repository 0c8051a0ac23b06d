/*
 * cmd_class.c — `storebench class CSV`: each row's ws_class by this binary's level rule (levels.h),
 * from the cache sizes in the CSV's own metadata.
 * Plain C.  Why: a CSV from before the ws_class column (or from another machine) still compares
 * by size class, and the scripts keep no level rule of their own (issue 42.4).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "levels.h"

static const char usage[] =
	"usage: storebench class CSV\n"
	"Prints the ws_class of each row of a storebench CSV, one line a row in the file's order:\n"
	"L1d, L2, L3, DRAM, or an empty line between two levels (or where the cache sizes are\n"
	"unknown).  The rule is this binary's (`storebench list --options`, level_rule), the sizes\n"
	"the CSV's own: a thread's share of each level at a row's thread count, as the run used it\n"
	"(levels_t<threads>_used) where the metadata has it, else the reported cache size over the\n"
	"row's threads in one instance (l2_threads; l3_threads; an L1d holds at most\n"
	"cache_l1d_shared_cpus of them; a CSV without those columns classes its one-thread rows\n"
	"only).  For CSVs from before the ws_class column, whose classes the scripts then take\n"
	"from here.  Exit status: 0, 2 bad input (no ws_bytes or threads column, a row whose\n"
	"value is not a number).\n";

/* Longest line a CSV may have: a run's metadata lines are the longest (a canary series). */
#define LINE_MAX_BYTES (1u << 20)

/* The columns a class reads, by index into the header; -1 where the header lacks one.  The
 * first COL_REQUIRED must be there; without l2_threads and l3_threads (CSVs before 2026-12-03)
 * a row of one thread has them at 1, and one of more threads has no class. */
enum { COL_WS, COL_THREADS, COL_REQUIRED, COL_L2_THREADS = COL_REQUIRED, COL_L3_THREADS,
       COL_NEEDED };
static const char *const col_name[COL_NEEDED] = { "ws_bytes", "threads", "l2_threads",
						  "l3_threads" };

/* What the metadata says of the caches, and the used levels of up to LEVELS_MAX thread counts. */
#define LEVELS_MAX 64
struct csv_caches {
	unsigned long long l1d, l2, l3, l1d_cpus; /* cache_*_bytes, cache_l1d_shared_cpus; 0: unknown */
	unsigned nused;
	struct {
		unsigned threads;
		struct level_shares s;
	} used[LEVELS_MAX];
};

/* The field after the n-th comma of a CSV line into out (quotes of RFC 4180 undone). */
static void field(const char *line, int n, char *out, size_t len)
{
	bool quoted = false;
	size_t k = 0;

	for (; *line && n > 0; line++) { /* past n separators outside quotes */
		if (*line == '"')
			quoted = !quoted;
		else if (*line == ',' && !quoted)
			n--;
	}
	for (quoted = false; *line && *line != '\n' && *line != '\r'; line++) {
		if (*line == '"') {
			if (!quoted || line[1] != '"') {
				quoted = !quoted;
				continue;
			}
			line++; /* "" inside quotes: one quote */
		} else if (*line == ',' && !quoted) {
			break;
		}
		if (k + 1 < len)
			out[k++] = *line;
	}
	out[k] = '\0';
}

/* One "# key=value" line into c. */
static void metadata(const char *kv, struct csv_caches *c)
{
	unsigned t;
	unsigned long long l1, l2, l3;
	int at = 0;

	if (sscanf(kv, "cache_l1d_bytes=%llu", &c->l1d) == 1 ||
	    sscanf(kv, "cache_l2_bytes=%llu", &c->l2) == 1 ||
	    sscanf(kv, "cache_l3_bytes=%llu", &c->l3) == 1 ||
	    sscanf(kv, "cache_l1d_shared_cpus=%llu", &c->l1d_cpus) == 1)
		return;
	if (sscanf(kv, "levels_t%u_used=L1d:%llu,L2:%llu,L3:%llu%n", &t, &l1, &l2, &l3, &at) == 4 &&
	    at && c->nused < LEVELS_MAX) {
		c->used[c->nused].threads = t;
		c->used[c->nused++].s = (struct level_shares){ { l1, l2, l3 } };
	}
}

/* A thread's shares at a row: the run's used levels at its thread count, else reported sizes
 * over the row's threads in one instance (0: not in the CSV, taken as 1). */
static struct level_shares shares_of(const struct csv_caches *c, unsigned threads,
				     unsigned long long l2_threads, unsigned long long l3_threads)
{
	unsigned long long in_l1d = l2_threads ? l2_threads : 1;

	for (unsigned i = 0; i < c->nused; i++)
		if (c->used[i].threads == threads)
			return c->used[i].s;
	if (c->l1d_cpus && in_l1d > c->l1d_cpus)
		in_l1d = c->l1d_cpus;
	return (struct level_shares){ {
		[LEVEL_L1D] = c->l1d / in_l1d,
		[LEVEL_L2] = c->l2 / (l2_threads ? l2_threads : 1),
		[LEVEL_L3] = c->l3 / (l3_threads ? l3_threads : 1),
	} };
}

/* Whether text is a whole unsigned decimal number, into *v. */
static bool number(const char *text, unsigned long long *v)
{
	char *end;

	errno = 0;
	*v = strtoull(text, &end, 10);
	return *text >= '0' && *text <= '9' && !*end && !errno;
}

int cmd_class(int argc, char **argv)
{
	struct csv_caches caches = { 0 };
	int col[COL_NEEDED], status = 0;
	unsigned long long row = 0;
	char *line, value[64];
	bool header = false;
	FILE *f;

	if (argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		fputs(usage, stdout);
		return 0;
	}
	if (argc != 2 || argv[1][0] == '-') {
		fprintf(stderr, "storebench class: give one CSV (see storebench class --help)\n");
		return 2;
	}
	f = fopen(argv[1], "r");
	line = malloc(LINE_MAX_BYTES);
	if (!f || !line) {
		fprintf(stderr, "storebench class: %s: %s\n", argv[1],
			f ? "out of memory" : strerror(errno));
		if (f)
			fclose(f);
		free(line);
		return 2;
	}
	while (status == 0 && fgets(line, LINE_MAX_BYTES, f)) {
		unsigned long long v[COL_NEEDED];

		if (!strncmp(line, "# ", 2)) {
			metadata(line + 2, &caches);
			continue;
		}
		if (!header) {
			header = true;
			for (int k = 0; k < COL_NEEDED; k++)
				col[k] = -1;
			for (int i = 0; field(line, i, value, sizeof value), value[0]; i++)
				for (int k = 0; k < COL_NEEDED; k++)
					if (!strcmp(value, col_name[k]))
						col[k] = i;
			for (int k = 0; k < COL_REQUIRED && status == 0; k++)
				if (col[k] < 0) {
					fprintf(stderr, "storebench class: %s: no %s column: not a "
						"storebench CSV of points\n", argv[1], col_name[k]);
					status = 2;
				}
			continue;
		}
		row++;
		v[COL_L2_THREADS] = v[COL_L3_THREADS] = 0; /* 0: not in the CSV */
		for (int k = 0; k < COL_NEEDED && status == 0; k++) {
			if (col[k] < 0)
				continue;
			field(line, col[k], value, sizeof value);
			if (!number(value, &v[k])) {
				fprintf(stderr, "storebench class: %s: row %llu: %s '%s' is not a "
					"number\n", argv[1], row, col_name[k], value);
				status = 2;
			}
		}
		if (status == 0) {
			struct level_shares s = shares_of(&caches, (unsigned)v[COL_THREADS],
							  v[COL_L2_THREADS], v[COL_L3_THREADS]);
			enum level l = level_inside(v[COL_WS], &s);
			bool known = v[COL_THREADS] == 1 || (col[COL_L2_THREADS] >= 0 &&
							    col[COL_L3_THREADS] >= 0);

			printf("%s\n", l == LEVEL_BETWEEN || !known ? "" : level_name[l]);
		}
	}
	if (status == 0 && (ferror(f) || !header)) {
		fprintf(stderr, "storebench class: %s: %s\n", argv[1],
			ferror(f) ? "read error" : "no header line: not a storebench CSV");
		status = 2;
	}
	fclose(f);
	free(line);
	return status;
}
