/*
 * sizes.c — size and integer list parsing ("4KiB..1GiB:x2", "1..8192:+64", "L1d/4..4LLC:x1.19").
 * Plain C.
 * Strict: a value that does not parse completely is an error, never a silent zero, a wrap or a cut.
 */
#include "sizes.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct {
	const char *suffix;
	unsigned long long mult;
} units_table[] = {
	{ "B", 1ull },
	{ "K", 1ull << 10 }, { "KiB", 1ull << 10 }, { "KB", 1000ull }, { "kB", 1000ull },
	{ "k", 1ull << 10 },
	{ "M", 1ull << 20 }, { "MiB", 1ull << 20 }, { "MB", 1000000ull },
	{ "G", 1ull << 30 }, { "GiB", 1ull << 30 }, { "GB", 1000000000ull },
	{ "T", 1ull << 40 }, { "TiB", 1ull << 40 }, { "TB", 1000000000000ull },
};

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

/* Fixed-point fraction bits of a geometric range's exact value A x F^k. */
#define STEP_FRAC_BITS 32

static bool fail(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static bool fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return false;
}

char *size_format(unsigned long long v, char *buf, size_t len)
{
	static const char *const names[] = { "", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB" };
	unsigned u = 0;

	while (v && v % 1024 == 0 && u + 1 < NELEM(names)) {
		v /= 1024;
		u++;
	}
	snprintf(buf, len, "%llu%s", v, names[u]);
	return buf;
}

/* Leading decimal digits of s[0..len) into *v; their count, or 0 when none.  *overflow is set
 * when the digits exceed 64 bits. */
static size_t digits(const char *s, size_t len, unsigned long long *v, bool *overflow)
{
	size_t i = 0;

	*v = 0;
	*overflow = false;
	for (; i < len && isdigit((unsigned char)s[i]); i++)
		if (__builtin_mul_overflow(*v, 10, v) ||
		    __builtin_add_overflow(*v, (unsigned)(s[i] - '0'), v))
			*overflow = true;
	return i;
}

/* "64, 4KiB, 1MiB, 2G, L1d/4, 4LLC" or "a whole number or all": what a value may be. */
static const char *accepted(const struct list_grammar *g, char *buf, size_t len)
{
	size_t used = (size_t)snprintf(buf, len, "%s", g->units ? "e.g. 64, 4KiB, 1MiB, 2G" :
						   "a whole number");

	for (size_t i = 0; i < g->nwords && used < len; i++) {
		if (g->scale_words)
			used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? ", " : ", or ",
						 g->words[i].word);
		else
			used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? ", " : " or ",
						 g->words[i].word);
	}
	if (g->scale_words && g->nwords && used < len)
		snprintf(buf + used, len - used, " with a whole multiplier or divisor: 4%s, %s/4",
			 g->words[g->nwords - 1].word, g->words[0].word);
	return buf;
}

static bool out_of_range(const char *tok, int tlen, unsigned long long v, bool overflow,
			 const struct list_grammar *g, char *err, size_t errlen)
{
	char lo[32], hi[32];

	if (g->units) {
		size_format(g->min, lo, sizeof lo);
		size_format(g->max, hi, sizeof hi);
	} else {
		snprintf(lo, sizeof lo, "%llu", g->min);
		snprintf(hi, sizeof hi, "%llu", g->max);
	}
	if (overflow || v > g->max)
		return fail(err, errlen, "'%.*s' is more than %s, the largest value accepted%s", tlen,
			    tok, hi, g->units && g->max == SIZE_LIMIT ?
			    " (a whole x86-64 user address space)" : "");
	return fail(err, errlen, "'%.*s' is %llu, below the smallest value accepted, %s", tlen, tok,
		    v, lo);
}

/* The named value at s[0..len) with its length, or NULL. */
static const struct size_word *word_at(const struct list_grammar *g, const char *s, size_t len,
				       size_t *wlen)
{
	for (size_t i = 0; i < g->nwords; i++) {
		size_t n = strlen(g->words[i].word);

		if (n <= len && !strncmp(s, g->words[i].word, n) &&
		    (n == len || !isalnum((unsigned char)s[n]))) {
			*wlen = n;
			return &g->words[i];
		}
	}
	return NULL;
}

/* One value, s[0..len): digits with an optional unit, or an (optionally scaled) word. */
static bool value_parse(const char *s, size_t len, const struct list_grammar *g,
			unsigned long long *out, char *err, size_t errlen)
{
	const int tl = (int)len;
	char acc[256];
	unsigned long long v, mult = 1;
	size_t nd, wlen;
	bool overflow, has_mult;
	const struct size_word *w;

	nd = digits(s, len, &v, &overflow);
	has_mult = nd > 0;
	if (has_mult)
		mult = v;
	w = word_at(g, s + nd, len - nd, &wlen);
	if (w && (!g->scale_words && has_mult))
		w = NULL;
	if (w) {
		const char *rest = s + nd + wlen;
		size_t rlen = len - nd - wlen;
		unsigned long long div = 1;

		if (rlen) {
			bool div_overflow;

			if (!g->scale_words || rest[0] != '/' ||
			    digits(rest + 1, rlen - 1, &div, &div_overflow) != rlen - 1 || rlen == 1)
				return fail(err, errlen, "cannot parse '%.*s' (want %s)", tl, s,
					    accepted(g, acc, sizeof acc));
			if (div == 0 && !div_overflow)
				return fail(err, errlen, "'%.*s' divides by zero", tl, s);
			if (div_overflow)
				div = ~0ull;
		}
		if (!w->value)
			return fail(err, errlen, "'%.*s' names %s, but this machine reports no %s size",
				    tl, s, w->word, w->word);
		if (__builtin_mul_overflow(mult, w->value, &v))
			overflow = true;
		v /= div;
	} else {
		const char *unit = s + nd;
		size_t ulen = len - nd, i;

		if (!nd)
			return fail(err, errlen, "cannot parse '%.*s' (want %s)", tl, s,
				    accepted(g, acc, sizeof acc));
		if (ulen && unit[0] == '.' && g->nwords && g->scale_words) {
			size_t fd = 1;

			while (fd < ulen && isdigit((unsigned char)unit[fd]))
				fd++;
			if (word_at(g, unit + fd, ulen - fd, &wlen))
				return fail(err, errlen, "'%.*s': multipliers and divisors of %.*s are "
					    "whole numbers (1.5 x %.*s is 3%.*s/2)", tl, s, (int)wlen,
					    unit + fd, (int)wlen, unit + fd, (int)wlen, unit + fd);
		}
		for (i = 0; ulen && i < NELEM(units_table); i++)
			if (strlen(units_table[i].suffix) == ulen &&
			    !strncmp(unit, units_table[i].suffix, ulen))
				break;
		if (ulen && (!g->units || i == NELEM(units_table)))
			return fail(err, errlen, "cannot parse '%.*s' (want %s)", tl, s,
				    accepted(g, acc, sizeof acc));
		if (ulen && __builtin_mul_overflow(v, units_table[i].mult, &v))
			overflow = true;
	}
	if (overflow || v < g->min || v > g->max)
		return out_of_range(s, tl, v, overflow, g, err, errlen);
	*out = v;
	return true;
}

static bool push(struct u64_list *l, unsigned long long v, char *err, size_t errlen)
{
	if (l->n >= LIST_MAX_VALUES)
		return fail(err, errlen, "the list expands to more than %d values, the most one list "
			    "may have", LIST_MAX_VALUES);
	if (l->n == l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 16;
		unsigned long long *v = realloc(l->v, cap * sizeof *v);

		if (!v)
			return fail(err, errlen, "out of memory expanding the list");
		l->v = v;
		l->cap = cap;
	}
	l->v[l->n++] = v;
	return true;
}

/* ":xF" (F > 1, decimals allowed) as the fraction p/q, or ":+S" as *add; s is after the colon. */
static bool step_parse(const char *s, size_t len, const struct list_grammar *g, bool *geometric,
		       unsigned long long *p, unsigned long long *q, unsigned long long *add,
		       char *err, size_t errlen)
{
	static const char want[] = "want :xF with F > 1, e.g. :x2 or :x1.19, or :+S with S >= 1";
	const int tl = (int)len;

	*geometric = len && s[0] == 'x';
	if (len && s[0] == '+') {
		struct list_grammar step = *g;
		char inner[200];

		step.min = 1;
		if (!value_parse(s + 1, len - 1, &step, add, inner, sizeof inner))
			return fail(err, errlen, "bad step ':%.*s': %s", tl, s, inner);
		return true;
	}
	if (*geometric) {
		unsigned long long ip, fp = 0;
		size_t ni, nf = 0;
		bool over, fover = false;

		ni = digits(s + 1, len - 1, &ip, &over);
		if (ni && 1 + ni < len && s[1 + ni] == '.') {
			nf = digits(s + 2 + ni, len - 2 - ni, &fp, &fover);
			if (!nf || 2 + ni + nf != len)
				ni = 0;
		} else if (1 + ni != len) {
			ni = 0;
		}
		if (ni && nf > STEP_MAX_DECIMALS)
			return fail(err, errlen, "bad step ':%.*s': at most %d decimals", tl, s,
				    STEP_MAX_DECIMALS);
		if (ni) {
			*q = 1;
			for (size_t i = 0; i < nf; i++)
				*q *= 10;
			if (over || fover || __builtin_mul_overflow(ip, *q, p) ||
			    __builtin_add_overflow(*p, fp, p))
				return fail(err, errlen, "bad step ':%.*s': the factor does not fit in "
					    "64 bits", tl, s);
			if (*p > *q)
				return true;
		}
	}
	return fail(err, errlen, "bad step ':%.*s' (%s)", tl, s, want);
}

/* A..B[:step] at item[0..len). */
static bool range_parse(const char *item, size_t len, const struct list_grammar *g,
			struct u64_list *out, char *err, size_t errlen)
{
	const char *dots = strstr(item, ".."), *hi_s = dots + 2;
	const char *end = item + len, *colon = memchr(hi_s, ':', (size_t)(end - hi_s));
	const char *hi_end = colon ? colon : end;
	unsigned long long lo, hi, p = 2, q = 1, add = 0;
	bool geometric = true;

	if (!value_parse(item, (size_t)(dots - item), g, &lo, err, errlen) ||
	    !value_parse(hi_s, (size_t)(hi_end - hi_s), g, &hi, err, errlen))
		return false;
	if (colon && !step_parse(colon + 1, (size_t)(end - colon - 1), g, &geometric, &p, &q, &add,
				 err, errlen))
		return false;
	if (hi < lo)
		return fail(err, errlen, "range '%.*s' runs backwards (%llu > %llu; want start <= end)",
			    (int)len, item, lo, hi);
	if (!push(out, lo, err, errlen))
		return false;
	if (geometric && lo) {
		/* A x F^k in fixed point, so rounding never accumulates from step to step */
		unsigned __int128 x = (unsigned __int128)lo << STEP_FRAC_BITS, half = 1ull << 31;
		unsigned long long last = lo;

		for (;;) {
			unsigned long long v;

			if (__builtin_mul_overflow(x, (unsigned __int128)p, &x))
				break;
			x /= q;
			v = (unsigned long long)((x + half) >> STEP_FRAC_BITS);
			if (v >= hi)
				break;
			if (v != last && !push(out, last = v, err, errlen))
				return false;
		}
		/* a size less than half a step (by ratio, sqrt F) below the end measures what the
		 * end does: "L1d/4..DRAM:x2" gave 96 MiB beside a DRAM end of 101 MiB, two groups
		 * of the same answer, the second bought with a quick run's rounds */
		if (g->units && last != lo &&
		    (long double)hi * hi * q < (long double)last * last * p)
			out->n--;
	} else if (!geometric) {
		for (unsigned long long v = lo; hi - v > add; ) {
			v += add;
			if (!push(out, v, err, errlen))
				return false;
		}
	}
	/* the end is part of the sweep even off the step grid: "L1d/4..4LLC:x4" reaches 4 x LLC */
	return hi == lo || push(out, hi, err, errlen);
}

struct keyed {
	unsigned long long key; /* the value compared */
	size_t index;           /* its position in the input: which duplicate came first */
};

static int by_key_then_index(const void *a, const void *b)
{
	const struct keyed *x = a, *y = b;

	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return x->index < y->index ? -1 : x->index > y->index;
}

static int by_index(const void *a, const void *b)
{
	const struct keyed *x = a, *y = b;

	return x->index < y->index ? -1 : x->index > y->index;
}

bool first_occurrences(const unsigned long long *key, size_t n, size_t *keep, size_t *nkeep)
{
	struct keyed *k = malloc((n ? n : 1) * sizeof *k);
	size_t m = 0;

	if (!k)
		return false;
	for (size_t i = 0; i < n; i++)
		k[i] = (struct keyed){ key[i], i };
	qsort(k, n, sizeof *k, by_key_then_index);
	for (size_t i = 0; i < n; i++)
		if (i == 0 || k[i].key != k[i - 1].key)
			k[m++] = k[i];
	qsort(k, m, sizeof *k, by_index);
	for (size_t i = 0; i < m; i++)
		keep[i] = k[i].index;
	*nkeep = m;
	free(k);
	return true;
}

static bool dedup(struct u64_list *l, char *err, size_t errlen)
{
	size_t *keep = malloc((l->n ? l->n : 1) * sizeof *keep), m;

	if (!keep || !first_occurrences(l->v, l->n, keep, &m)) {
		free(keep);
		return fail(err, errlen, "out of memory removing duplicates");
	}
	for (size_t i = 0; i < m; i++)
		l->v[i] = l->v[keep[i]]; /* keep[i] >= i: nothing is read after it is overwritten */
	l->n = m;
	free(keep);
	return true;
}

bool u64_list_parse(const char *s, const struct list_grammar *g, struct u64_list *out,
		    char *err, size_t errlen)
{
	const char *item = s;

	if (!*s)
		return fail(err, errlen, "empty list");
	for (;;) {
		size_t len = strcspn(item, ",");
		const char *dots = strstr(item, "..");
		unsigned long long v;
		bool ok;

		if (!len)
			return fail(err, errlen, "empty element at offset %zu", (size_t)(item - s));
		if (dots && dots < item + len)
			ok = range_parse(item, len, g, out, err, errlen);
		else
			ok = value_parse(item, len, g, &v, err, errlen) && push(out, v, err, errlen);
		if (!ok)
			return false;
		if (!item[len])
			break;
		item += len + 1;
	}
	return dedup(out, err, errlen);
}

void u64_list_free(struct u64_list *l)
{
	free(l->v);
	l->v = NULL;
	l->n = l->cap = 0;
}

bool byte_parse(const char *s, unsigned *out)
{
	unsigned v = 0;
	size_t n = 0;

	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		for (s += 2; isxdigit((unsigned char)s[n]) && v <= 0xff; n++)
			v = v * 16 + (unsigned)(isdigit((unsigned char)s[n]) ? s[n] - '0' :
						 tolower((unsigned char)s[n]) - 'a' + 10);
	} else if (s[0] != '0' || !s[1]) {
		for (; isdigit((unsigned char)s[n]) && v <= 255; n++)
			v = v * 10 + (unsigned)(s[n] - '0');
	}
	if (!n || s[n] || v > 255)
		return false;
	*out = v;
	return true;
}

bool number_parse(const char *s, double lo, double hi, bool whole, double *out)
{
	char *end;
	double v;

	if (!isdigit((unsigned char)*s) && !(*s == '.' && !whole))
		return false;
	if (s[strspn(s, whole ? "0123456789" : "0123456789.eE+-")])
		return false;
	v = strtod(s, &end);
	if (*end || !(v >= lo && v <= hi))
		return false;
	*out = v;
	return true;
}

bool folder_name_ok(const char *name, size_t max)
{
	size_t len = strlen(name);

	return len && len <= max &&
	       strspn(name, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-") ==
		       len &&
	       strcmp(name, ".") && strcmp(name, "..");
}
