/*
 * suggest.c — closest names by Levenshtein distance, for "did you mean" hints.
 * Plain C.  Quadratic in the name lengths, linear in the list: names are short and lists small,
 * and only a failed lookup pays for it.
 */
#include "suggest.h"

#include <stdlib.h>
#include <string.h>
#include <stdio.h>

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

void suggest_names(const char *word, const char *(*name)(size_t i), size_t n, const char *prefix,
		   char *out, size_t len)
{
	size_t used = 0, shown = 0, limit = 2 + strlen(word) / 4;

	out[0] = '\0';
	for (size_t d = 0; d <= limit && shown < 4; d++)
		for (size_t i = 0; i < n && shown < 4 && used < len; i++) {
			const char *candidate = name(i);
			size_t dist = *word && strstr(candidate, word) ? 1 : edit_distance(word, candidate);

			if (dist == d)
				used += (size_t)snprintf(out + used, len - used, "%s%s%s",
							 shown++ ? ", " : "", prefix, candidate);
		}
}
