/*
 * size_dist.c — reading, describing and drawing from call-size distributions.
 * Plain C.  The formats are size_dist.h's; the bundled texts are generated from
 * bench/distributions/ at build time (size_dist_bundled.c).
 */
#include "size_dist.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "prng.h"

/* One size and its weight while a file is read. */
struct weighted {
	uint64_t size;
	double w;
};

/* A growable list of them. */
struct weights {
	struct weighted *v;
	size_t n, cap;
};

static bool push(struct weights *l, uint64_t size, double w)
{
	if (l->n == l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 256;
		struct weighted *v = realloc(l->v, cap * sizeof *v);

		if (!v)
			return false;
		l->v = v;
		l->cap = cap;
	}
	l->v[l->n++] = (struct weighted){ size, w };
	return true;
}

static int by_size(const void *a, const void *b)
{
	const struct weighted *x = a, *y = b;

	return (x->size > y->size) - (x->size < y->size);
}

/* Every byte text: printable ASCII, tabs and line ends (a binary file says so at once). */
static bool text_only(const char *t, size_t len, char *err, size_t errlen)
{
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)t[i];

		if (c >= 127 || (c < 32 && c != '\n' && c != '\r' && c != '\t')) {
			snprintf(err, errlen, "not a text file (byte 0x%02x at offset %zu)", c, i);
			return false;
		}
	}
	return true;
}

/* [s, e) without the blanks around it. */
static void trim(const char **s, const char **e)
{
	while (*s < *e && (**s == ' ' || **s == '\t' || **s == '\r'))
		(*s)++;
	while (*e > *s && ((*e)[-1] == ' ' || (*e)[-1] == '\t' || (*e)[-1] == '\r'))
		(*e)--;
}

/* A weight: a finite number of at least 0 filling [s, e). */
static bool weight_of(const char *s, const char *e, double *w, size_t line, char *err,
		      size_t errlen)
{
	char buf[64], *end;

	trim(&s, &e);
	if (s == e || (size_t)(e - s) >= sizeof buf) {
		snprintf(err, errlen, "line %zu: %s weight", line, s == e ? "an empty" : "a too long");
		return false;
	}
	memcpy(buf, s, (size_t)(e - s));
	buf[e - s] = '\0';
	errno = 0;
	*w = strtod(buf, &end);
	if (*end || end == buf) {
		snprintf(err, errlen, "line %zu: weight '%s' is not a number", line, buf);
		return false;
	}
	if (!isfinite(*w) || *w < 0) {
		snprintf(err, errlen, "line %zu: weight %s is not a finite number of at least 0", line,
			 buf);
		return false;
	}
	return true;
}

/* A size: a whole number of bytes up to SIZE_DIST_MAX filling [s, e). */
static bool size_of(const char *s, const char *e, uint64_t *v, size_t line, char *err,
		    size_t errlen)
{
	uint64_t x = 0;
	const char *p;

	trim(&s, &e);
	for (p = s; p < e && *p >= '0' && *p <= '9'; p++) {
		x = 10 * x + (uint64_t)(*p - '0');
		if (x > SIZE_DIST_MAX)
			break;
	}
	if (p == s || p < e || x > SIZE_DIST_MAX) {
		snprintf(err, errlen, "line %zu: size '%.*s' is not a whole number of bytes from 0 to "
			 "%llu", line, (int)(e - s > 40 ? 40 : e - s), s, SIZE_DIST_MAX);
		return false;
	}
	*v = x;
	return true;
}

/* llvm-libc's line: the i-th comma-separated weight is that of i bytes. */
static bool probabilities(const char *s, const char *e, size_t line, struct weights *l,
			  char *err, size_t errlen)
{
	for (uint64_t size = 0;; size++) {
		const char *comma = memchr(s, ',', (size_t)(e - s));
		const char *f = comma ? comma : e;
		double w;

		if (size > SIZE_DIST_MAX) {
			snprintf(err, errlen, "line %zu: more than %llu weights", line, SIZE_DIST_MAX);
			return false;
		}
		if (!weight_of(s, f, &w, line, err, errlen))
			return false;
		if (w > 0 && !push(l, size, w)) {
			snprintf(err, errlen, "out of memory");
			return false;
		}
		if (!comma)
			return true;
		s = comma + 1;
	}
}

/* "SIZE WEIGHT". */
static bool pair(const char *s, const char *e, size_t line, struct weights *l, char *err,
		 size_t errlen)
{
	const char *gap = s;
	uint64_t size;
	double w;

	while (gap < e && *gap != ' ' && *gap != '\t')
		gap++;
	if (gap == e) {
		snprintf(err, errlen, "line %zu: want SIZE WEIGHT (two numbers), or one line of "
			 "comma-separated weights", line);
		return false;
	}
	if (!size_of(s, gap, &size, line, err, errlen) ||
	    !weight_of(gap, e, &w, line, err, errlen))
		return false;
	if (w > 0 && !push(l, size, w)) {
		snprintf(err, errlen, "out of memory");
		return false;
	}
	return true;
}

/* Sorted, duplicates added up, normalised into d. */
static bool finish(struct weights *l, struct size_dist *d, char *err, size_t errlen)
{
	double total = 0, run = 0;
	size_t n = 0;

	if (l->n) /* qsort wants an array, even of none */
		qsort(l->v, l->n, sizeof *l->v, by_size);
	for (size_t i = 0; i < l->n; i++) {
		if (n && l->v[n - 1].size == l->v[i].size)
			l->v[n - 1].w += l->v[i].w;
		else
			l->v[n++] = l->v[i];
		total += l->v[i].w;
	}
	if (!n || !(total > 0) || !isfinite(total)) {
		snprintf(err, errlen, n ? "the weights add up to no finite number" :
					  "no size has a weight above 0");
		return false;
	}
	d->size = malloc(n * sizeof *d->size);
	d->cum = malloc(n * sizeof *d->cum);
	if (!d->size || !d->cum) {
		snprintf(err, errlen, "out of memory");
		return false;
	}
	for (size_t i = 0; i < n; i++) {
		run += l->v[i].w;
		d->size[i] = l->v[i].size;
		d->cum[i] = run / total;
	}
	d->cum[n - 1] = 1;
	d->n = n;
	return true;
}

bool size_dist_parse(const char *text, size_t len, const char *name, const char *source,
		     struct size_dist *d, char *err, size_t errlen)
{
	struct weights l = { 0 };
	const char *s = text, *end = text + len;
	size_t line = 0, data = 0;
	bool comma_format = false, ok = true;

	*d = (struct size_dist){ 0 };
	snprintf(d->name, sizeof d->name, "%s", name);
	snprintf(d->source, sizeof d->source, "%s", source);
	if (!text_only(text, len, err, errlen))
		return false;
	while (ok && s < end) {
		const char *nl = memchr(s, '\n', (size_t)(end - s)), *e = nl ? nl : end, *a = s, *b = e;

		line++;
		s = nl ? nl + 1 : end;
		trim(&a, &b);
		if (a == b || *a == '#')
			continue;
		if (!data++)
			comma_format = memchr(a, ',', (size_t)(b - a)) != NULL;
		else if (comma_format) {
			snprintf(err, errlen, "line %zu: a file of comma-separated weights has one line "
				 "of them", line);
			ok = false;
			break;
		}
		ok = comma_format ? probabilities(a, b, line, &l, err, errlen) :
				    pair(a, b, line, &l, err, errlen);
	}
	if (ok && !data) {
		snprintf(err, errlen, "no sizes (an empty file, or comments only)");
		ok = false;
	}
	ok = ok && finish(&l, d, err, errlen);
	free(l.v);
	if (!ok)
		size_dist_free(d);
	return ok;
}

/* The file's name without its folders and its last extension, into name. */
static void base_name(const char *path, char *name, size_t len)
{
	const char *b = strrchr(path, '/'), *dot;

	b = b ? b + 1 : path;
	dot = strrchr(b, '.');
	snprintf(name, len, "%.*s", (int)(dot && dot != b ? dot - b : (long)strlen(b)), b);
}

bool size_dist_load(const char *spec, struct size_dist *d, char *err, size_t errlen)
{
	char name[64], why[200];
	size_t len = 0, cap = 1 << 16;
	char *text;
	FILE *f;
	bool ok;

	for (size_t i = 0; i < bundled_dist_count; i++)
		if (!strcasecmp(spec, bundled_dists[i].name)) {
			ok = size_dist_parse(bundled_dists[i].text, strlen(bundled_dists[i].text),
					     bundled_dists[i].name, bundled_dists[i].source, d, why,
					     sizeof why);
			if (!ok)
				snprintf(err, errlen, "bundled distribution %s: %s", spec, why);
			return ok;
		}
	f = fopen(spec, "rb");
	if (!f) {
		snprintf(err, errlen, "%s: %s (not a bundled distribution either: storebench list "
			 "--distributions)", spec, strerror(errno));
		return false;
	}
	text = malloc(cap);
	while (text) {
		size_t got = fread(text + len, 1, cap - len, f);

		len += got;
		if (len < cap || len > SIZE_DIST_FILE_MAX)
			break;
		cap *= 2;
		char *grown = realloc(text, cap);

		if (!grown)
			free(text);
		text = grown;
	}
	ok = text && !ferror(f) && len <= SIZE_DIST_FILE_MAX;
	if (!ok)
		snprintf(err, errlen, "%s: %s", spec, !text ? "out of memory" : ferror(f) ?
			 "cannot be read" : "larger than 64 MiB: no size distribution");
	fclose(f);
	base_name(spec, name, sizeof name);
	if (ok && !size_dist_parse(text, len, name, spec, d, why, sizeof why)) {
		snprintf(err, errlen, "%s: %s", spec, why);
		ok = false;
	}
	free(text);
	return ok;
}

uint64_t size_dist_quantile(const struct size_dist *d, double q)
{
	size_t lo = 0, hi = d->n - 1;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (d->cum[mid] >= q)
			hi = mid;
		else
			lo = mid + 1;
	}
	return d->size[lo];
}

double size_dist_mean(const struct size_dist *d)
{
	double mean = 0, below = 0;

	for (size_t i = 0; i < d->n; i++) {
		mean += (double)d->size[i] * (d->cum[i] - below);
		below = d->cum[i];
	}
	return mean;
}

void size_dist_draw(const struct size_dist *d, uint64_t seed, uint64_t *out, size_t n)
{
	for (size_t k = 0; k < n; k++) {
		/* 53 random bits: a uniform double in [0, 1), and the first size whose cum is past it */
		double u = (double)(prng_next(&seed) >> 11) * 0x1p-53;
		size_t lo = 0, hi = d->n - 1;

		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;

			if (d->cum[mid] > u)
				hi = mid;
			else
				lo = mid + 1;
		}
		out[k] = d->size[lo];
	}
}

void size_dist_free(struct size_dist *d)
{
	free(d->size);
	free(d->cum);
	d->size = NULL;
	d->cum = NULL;
	d->n = 0;
}
