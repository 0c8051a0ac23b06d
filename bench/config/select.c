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

#include "suggest.h"

static const char *kernel_name(size_t i)
{
	return kernel_table[i].name;
}

/* The few closest names, at most 4, best first. */
static void unknown_kernel(const char *option, const char *item)
{
	char hint[256];

	suggest_names(item, kernel_name, kernel_count, "", hint, sizeof hint);
	if (hint[0])
		fprintf(stderr, "storebench run: %s: unknown kernel '%s' (did you mean %s?)\n", option,
			item, hint);
	else
		fprintf(stderr, "storebench run: %s: unknown kernel '%s' (want names, globs or "
			"families from 'storebench list')\n", option, item);
}

/* Why k cannot be measured in this run, or NULL. */
static const char *refusal(const struct kernel *k, const struct cpu_info *cpu, unsigned fill)
{
	const char *why = kernel_unavailable(k, cpu);

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

/* Record why k is left out (once): printed when the run starts, and kept in the CSV metadata. */
static void note_skip(struct selection *sel, bool *noted, const struct kernel *k, const char *why)
{
	size_t used = strlen(sel->skipped), add = strlen(k->name) + strlen(why) + 5;
	char *grown;

	if (noted[k - kernel_table])
		return;
	grown = realloc(sel->skipped, used + add + 1);
	if (!grown) {
		perror("storebench run");
		exit(1);
	}
	snprintf(grown + used, add + 1, "%s%s (%s)", used ? "; " : "", k->name, why);
	sel->skipped = grown;
	noted[k - kernel_table] = true;
}

/* Mark the kernels item selects in want[]; false (after one stderr line) on bad input. */
static bool select_item(const char *option, const char *item, const struct cpu_info *cpu,
			unsigned fill, bool *want, bool *noted, struct selection *sel)
{
	const struct kernel *k = kernel_find(item);
	char *pattern;
	size_t matched = 0;

	if (k) {
		const char *why = refusal(k, cpu, fill);

		if (why) {
			fprintf(stderr, "storebench run: %s: kernel '%s' cannot run here: %s\n", option,
				item, why);
			return false;
		}
		want[k - kernel_table] = true;
		return true;
	}
	if (!strcmp(item, "all"))
		item = "*";
	pattern = malloc(strlen(item) + 3);
	if (!pattern) {
		perror("storebench run");
		exit(1);
	}
	strcpy(pattern, item);
	if (!has_glob(item))
		strcat(pattern, "_*"); /* a family: "avx2" */
	for (size_t i = 0; i < kernel_count; i++) {
		const char *why;

		if (fnmatch(pattern, kernel_table[i].name, 0))
			continue;
		matched++;
		why = refusal(&kernel_table[i], cpu, fill);
		if (why)
			note_skip(sel, noted, &kernel_table[i], why);
		else
			want[i] = true;
	}
	free(pattern);
	if (!matched) {
		if (has_glob(item))
			fprintf(stderr, "storebench run: %s: pattern '%s' matches no kernel (see "
				"'storebench list')\n", option, item);
		else
			unknown_kernel(option, item);
		return false;
	}
	return true;
}

bool kernel_select(const char *option, const char *spec, const struct cpu_info *cpu, unsigned fill,
		   struct selection *sel)
{
	bool *want = calloc(kernel_count, sizeof *want), *noted = calloc(kernel_count, sizeof *noted);
	bool ok = true;
	char *copy = strdup(spec), *save = NULL;

	sel->n = 0;
	sel->skipped = calloc(1, 1);
	sel->k = calloc(kernel_count, sizeof *sel->k);
	if (!want || !noted || !copy || !sel->k || !sel->skipped) {
		perror("storebench run");
		exit(1);
	}
	if (!*spec || *spec == ',' || spec[strlen(spec) - 1] == ',' || strstr(spec, ",,")) {
		fprintf(stderr, "storebench run: %s '%s': an empty %s; want names, globs or "
			"families, e.g. memset,avx2_*,sse2 or all\n", option, spec,
			*spec ? "element" : "list");
		ok = false;
	}
	for (char *item = strtok_r(copy, ",", &save); item && ok; item = strtok_r(NULL, ",", &save))
		ok = select_item(option, item, cpu, fill, want, noted, sel);
	for (size_t i = 0; ok && i < kernel_count; i++)
		if (want[i])
			sel->k[sel->n++] = &kernel_table[i];
	if (ok && !sel->n) {
		fprintf(stderr, "storebench run: %s '%s': no kernel it names can run here (%s)\n", option,
			spec, sel->skipped);
		ok = false;
	}
	free(want);
	free(noted);
	free(copy);
	return ok;
}
