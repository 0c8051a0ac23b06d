/*
 * select.c — kernel selection from --kernels, with close-name suggestions for typos.
 * Plain C.  The order of the result is kernels.def order whatever the spec order, so CSVs from
 * different command lines line up row for row.
 */
#include "select.h"

#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static size_t edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), *row = calloc(lb + 1, sizeof *row), d;

	if (!row)
		return (size_t)-1;
	for (size_t j = 0; j <= lb; j++)
		row[j] = j;
	for (size_t i = 1; i <= la; i++) {
		size_t diag = row[0];

		row[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t up = row[j], best = diag + (a[i - 1] != b[j - 1]);

			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			diag = up;
			row[j] = best;
		}
	}
	d = row[lb];
	free(row);
	return d;
}

/* The few closest names (edit distance, substrings count as close), at most 4, best first. */
static void unknown_kernel(const char *item)
{
	char hint[256] = "";
	size_t used = 0, shown = 0, limit = 2 + strlen(item) / 4;

	for (size_t d = 0; d <= limit && shown < 4; d++)
		for (size_t i = 0; i < kernel_count && shown < 4; i++) {
			const char *name = kernel_table[i].name;
			size_t dist = strstr(name, item) ? 1 : edit_distance(item, name);

			if (dist != d)
				continue;
			used += (size_t)snprintf(hint + used, sizeof hint - used, "%s%s",
						 shown++ ? ", " : "", name);
		}
	if (shown)
		fprintf(stderr, "storebench run: unknown kernel '%s' (did you mean %s?)\n", item, hint);
	else
		fprintf(stderr, "storebench run: unknown kernel '%s' (see 'storebench list')\n", item);
}

/* Why k cannot be measured in this run, or NULL. */
static const char *refusal(const struct kernel *k, const struct cpu_info *cpu, unsigned fill)
{
	const char *why = cpu_kernel_unavailable(k, cpu);

	if (why)
		return why;
	if (k->fill == FILL_ZERO && fill != 0)
		return "writes zeros only; measure it with --fill 0";
	return NULL;
}

static bool has_glob(const char *s)
{
	return strpbrk(s, "*?[") != NULL;
}

/* Record why k is left out: printed once the run starts, and kept in the CSV metadata. */
static void note_skip(struct selection *sel, const struct kernel *k, const char *why)
{
	size_t used = strlen(sel->skipped);

	if (strstr(sel->skipped, k->name))
		return;
	snprintf(sel->skipped + used, sizeof sel->skipped - used, "%s%s (%s)", used ? "; " : "",
		 k->name, why);
}

/* Mark the kernels item selects in want[]; false (after one stderr line) on bad input. */
static bool select_item(const char *item, const struct cpu_info *cpu, unsigned fill, bool *want,
			struct selection *sel)
{
	char pattern[128];
	const struct kernel *k = kernel_find(item);
	size_t matched = 0;

	if (k) {
		const char *why = refusal(k, cpu, fill);

		if (why) {
			fprintf(stderr, "storebench run: kernel '%s' cannot run here: %s\n", item, why);
			return false;
		}
		want[k - kernel_table] = true;
		return true;
	}
	if (!strcmp(item, "all"))
		item = "*";
	if (has_glob(item))
		snprintf(pattern, sizeof pattern, "%s", item);
	else
		snprintf(pattern, sizeof pattern, "%s_*", item); /* a family: "avx2" */
	for (size_t i = 0; i < kernel_count; i++) {
		const char *why;

		if (fnmatch(pattern, kernel_table[i].name, 0))
			continue;
		matched++;
		why = refusal(&kernel_table[i], cpu, fill);
		if (why)
			note_skip(sel, &kernel_table[i], why);
		else
			want[i] = true;
	}
	if (!matched) {
		if (has_glob(item))
			fprintf(stderr, "storebench run: kernel pattern '%s' matches no kernel\n", item);
		else
			unknown_kernel(item);
		return false;
	}
	return true;
}

bool kernel_select(const char *spec, const struct cpu_info *cpu, unsigned fill,
		   struct selection *sel)
{
	bool *want = calloc(kernel_count, sizeof *want), ok = true;
	char *copy = strdup(spec), *save = NULL;

	sel->n = 0;
	sel->skipped[0] = '\0';
	sel->k = calloc(kernel_count, sizeof *sel->k);
	if (!want || !copy || !sel->k) {
		perror("storebench run");
		exit(1);
	}
	for (char *item = strtok_r(copy, ",", &save); item && ok; item = strtok_r(NULL, ",", &save))
		ok = select_item(item, cpu, fill, want, sel);
	for (size_t i = 0; ok && i < kernel_count; i++)
		if (want[i])
			sel->k[sel->n++] = &kernel_table[i];
	if (ok && !sel->n) {
		fprintf(stderr, "storebench run: no kernel in '%s' can run here\n", spec);
		ok = false;
	}
	free(want);
	free(copy);
	return ok;
}
