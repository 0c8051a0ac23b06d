/*
 * sizes.c — size and integer list parsing ("4KiB..1GiB:x2", "1..8192:+64", "64,1536,4KiB").
 * Plain C.
 * Strict: a value that does not parse completely is an error, never a silent zero.
 */
#include "sizes.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct {
	const char *suffix;
	unsigned long long mult;
} units_table[] = {
	{ "", 1ull },
	{ "B", 1ull },
	{ "K", 1ull << 10 }, { "KiB", 1ull << 10 }, { "KB", 1000ull }, { "kB", 1000ull },
	{ "k", 1ull << 10 },
	{ "M", 1ull << 20 }, { "MiB", 1ull << 20 }, { "MB", 1000000ull },
	{ "G", 1ull << 30 }, { "GiB", 1ull << 30 }, { "GB", 1000000000ull },
	{ "T", 1ull << 40 }, { "TiB", 1ull << 40 }, { "TB", 1000000000000ull },
};

bool size_parse(const char *s, bool units, unsigned long long *out)
{
	unsigned long long v;
	char *end;

	if (!isdigit((unsigned char)*s))
		return false; /* rejects "", "-1", " 1", "+1" that strtoull would accept */
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno)
		return false;
	for (size_t i = 0; i < sizeof units_table / sizeof units_table[0]; i++) {
		if (strcmp(end, units_table[i].suffix))
			continue;
		if (!units && *end)
			return false;
		if (units_table[i].mult > 1 && v > ~0ull / units_table[i].mult)
			return false;
		*out = v * units_table[i].mult;
		return true;
	}
	return false;
}

void u64_list_push(struct u64_list *l, unsigned long long v)
{
	for (size_t i = 0; i < l->n; i++)
		if (l->v[i] == v)
			return;
	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 16;
		l->v = realloc(l->v, l->cap * sizeof *l->v);
		if (!l->v) {
			perror("storebench");
			exit(1);
		}
	}
	l->v[l->n++] = v;
}

void u64_list_free(struct u64_list *l)
{
	free(l->v);
	l->v = NULL;
	l->n = l->cap = 0;
}

/* Ranges larger than this are a typo, not a sweep. */
#define RANGE_MAX_POINTS 100000

static bool parse_range(char *item, bool units, unsigned long long min, struct u64_list *out,
			char *err, size_t errlen)
{
	char *dots = strstr(item, ".."), *colon, *hi_s = dots + 2;
	unsigned long long lo, hi, step = 2;
	bool geometric = true;
	size_t points = 0;

	*dots = '\0';
	colon = strchr(hi_s, ':');
	if (colon) {
		*colon++ = '\0';
		geometric = *colon == 'x';
		if ((*colon != 'x' && *colon != '+') || !size_parse(colon + 1, units && !geometric, &step) ||
		    step < (geometric ? 2 : 1)) {
			snprintf(err, errlen, "bad step ':%s' (want :xF with F >= 2, or :+S with S >= 1)",
				 colon);
			return false;
		}
	}
	if (!size_parse(item, units, &lo) || !size_parse(hi_s, units, &hi)) {
		snprintf(err, errlen, "cannot parse range '%s..%s'", item, hi_s);
		return false;
	}
	if (lo < min || hi < lo) {
		snprintf(err, errlen, "range '%s..%s' must satisfy %llu <= start <= end", item, hi_s,
			 min);
		return false;
	}
	for (unsigned long long v = lo; v <= hi; ) {
		if (++points > RANGE_MAX_POINTS) {
			snprintf(err, errlen, "range '%s..%s' has more than %d points", item, hi_s,
				 RANGE_MAX_POINTS);
			return false;
		}
		u64_list_push(out, v);
		if ((geometric && (v == 0 || v > hi / step)) || (!geometric && v > hi - step))
			break;
		v = geometric ? v * step : v + step;
	}
	/* the end is part of the sweep even off the step grid: "L1d/4..4LLC:x4" reaches 4 x LLC */
	u64_list_push(out, hi);
	return true;
}

bool u64_list_parse(const char *s, bool units, unsigned long long min, struct u64_list *out,
		    char *err, size_t errlen)
{
	char *copy = strdup(s), *save = NULL, *item;
	bool ok = true;

	if (!copy || !*s) {
		snprintf(err, errlen, "empty list");
		free(copy);
		return false;
	}
	for (item = strtok_r(copy, ",", &save); item && ok; item = strtok_r(NULL, ",", &save)) {
		unsigned long long v;

		if (strstr(item, "..")) {
			ok = parse_range(item, units, min, out, err, errlen);
		} else if (!size_parse(item, units, &v)) {
			snprintf(err, errlen, "cannot parse '%s'%s", item,
				 units ? " (want e.g. 64, 4KiB, 1MiB, 2G)" : " (want a whole number)");
			ok = false;
		} else if (v < min) {
			snprintf(err, errlen, "'%s' is below the minimum %llu", item, min);
			ok = false;
		} else {
			u64_list_push(out, v);
		}
	}
	if (ok && s[strlen(s) - 1] == ',') {
		snprintf(err, errlen, "empty list item");
		ok = false;
	}
	free(copy);
	return ok;
}
