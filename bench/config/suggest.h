/*
 * suggest.h — "did you mean": the known names closest to a mistyped one (kernels, options).
 * Plain C.  One edit distance for every name list, so a typo gets the same help wherever it is.
 */
#ifndef STOREBENCH_SUGGEST_H
#define STOREBENCH_SUGGEST_H

#include <stddef.h>

/*
 * The names closest to word, best first, at most 4, joined by ", " into out ("" when none is
 * close): within 2 + strlen(word)/4 edits, a name that contains word counting as 1.  name(i)
 * gives the i-th of n names; prefix is written before each ("--" for options).
 */
void suggest_names(const char *word, const char *(*name)(size_t i), size_t n, const char *prefix,
		   char *out, size_t len);

#endif
