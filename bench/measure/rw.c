/*
 * rw.c — read/write mixes: --rw/--rw-mode/--rw-layout parsing, chunk rules, interleave/split plans.
 * Plain C, no engine state and no I/O: errors come back as one line for the caller to print, so
 * every rule here is testable without running a benchmark.
 */
#include "rw.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* Percents carry at most two decimals, so 10000 parts express every one exactly. */
#define PERCENT_PARTS 10000u
#define RATIO_PART_MAX 10000u
#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

static const char *const mode_names[] = {
#define RW_NAME(n) [RW_MODE_##n] = #n,
	RW_MODES(RW_NAME)
#undef RW_NAME
};

static const char *const layout_names[] = {
#define RW_NAME(n) [RW_LAYOUT_##n] = #n,
	RW_LAYOUTS(RW_NAME)
#undef RW_NAME
};

static int fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	if (errlen)
		vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -1;
}

static uint32_t gcd32(uint32_t a, uint32_t b)
{
	while (b) {
		uint32_t t = a % b;

		a = b;
		b = t;
	}
	return a;
}

/* Decimal digits only, saturating at 10^9 (so an absurd value is out of range, not a wrap);
 * 0 when s is not such a number. */
static int parse_digits(const char *s, size_t len, uint32_t *out)
{
	uint32_t v = 0;

	if (len == 0)
		return 0;
	for (size_t i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return 0;
		v = v >= 100000000u ? 1000000000u : v * 10 + (uint32_t)(s[i] - '0');
	}
	*out = v;
	return 1;
}

/* A non-negative percent with at most two decimals, in hundredths; 0 when unparsable, -1 when
 * it has more decimals than that. */
static int parse_hundredths(const char *s, size_t len, uint32_t *out)
{
	const char *dot = memchr(s, '.', len);
	size_t ilen = dot ? (size_t)(dot - s) : len;
	size_t flen = dot ? len - ilen - 1 : 0;
	uint32_t ip, fp = 0;

	if (!parse_digits(s, ilen, &ip))
		return 0;
	if (dot) {
		if (!parse_digits(dot + 1, flen, &fp))
			return 0;
		if (flen > 2)
			return -1;
		if (flen == 1)
			fp *= 10;
	}
	if (ip > 100)
		ip = 101; /* out of range either way; keeps the product below overflow */
	*out = ip * 100 + fp;
	return 1;
}

static void set_fraction(struct rw_ratio *r, uint32_t write, uint32_t total)
{
	uint32_t g = gcd32(write, total);

	r->write_parts = write / g;
	r->total_parts = total / g;
}

/* One list element into *r; el is not NUL-terminated. */
static int parse_one(const char *el, size_t len, struct rw_ratio *r, char *err, size_t errlen)
{
	const char *colon = memchr(el, ':', len);
	const int n = (int)len;
	uint32_t rd, wr, h;
	int ok;

	if (len >= RW_SPEC_MAX)
		return fail(err, errlen, "--rw: cannot parse '%.*s' (want a percent written 0..100 "
			    "or a read:write ratio like 3:1)", n, el);
	if (colon) {
		size_t rlen = (size_t)(colon - el);

		if (!parse_digits(el, rlen, &rd) || !parse_digits(colon + 1, len - rlen - 1, &wr))
			return fail(err, errlen, "--rw: cannot parse '%.*s' (a read:write ratio is two "
				    "whole numbers, like 3:1)", n, el);
		if (rd > RATIO_PART_MAX || wr > RATIO_PART_MAX)
			return fail(err, errlen, "--rw: '%.*s' is out of range (ratio parts are 0..%u)",
				    n, el, RATIO_PART_MAX);
		if (rd == 0 && wr == 0)
			return fail(err, errlen, "--rw: '%.*s' reads and writes nothing", n, el);
		set_fraction(r, wr, rd + wr);
	} else {
		size_t plen = len && el[len - 1] == '%' ? len - 1 : len;
		int neg = plen > 1 && el[0] == '-';

		ok = parse_hundredths(el + neg, plen - neg, &h);
		if (ok < 0)
			return fail(err, errlen, "--rw: '%.*s' has more than two decimals (write thirds "
				    "as the ratio 2:1)", n, el);
		if (!ok)
			return fail(err, errlen, "--rw: cannot parse '%.*s' (want a percent written 0..100 "
				    "or a read:write ratio like 3:1)", n, el);
		if (neg || h > 100 * 100)
			return fail(err, errlen, "--rw: '%.*s' is out of range (percent written is 0..100)",
				    n, el);
		set_fraction(r, h, PERCENT_PARTS);
	}
	memcpy(r->spec, el, len);
	r->spec[len] = '\0';
	return 0;
}

int rw_parse_list(const char *list, struct rw_ratio *out, size_t max, size_t *count,
		  char *err, size_t errlen)
{
	struct rw_ratio tmp[RW_MAX_RATIOS];
	size_t n = 0;
	const char *s = list;

	if (!*list)
		return fail(err, errlen, "--rw: empty list");
	if (max > RW_MAX_RATIOS)
		max = RW_MAX_RATIOS;
	for (;;) {
		const char *end = strchr(s, ',');
		size_t len = end ? (size_t)(end - s) : strlen(s);

		if (len == 0)
			return fail(err, errlen, "--rw: empty element in '%s'", list);
		if (n == max)
			return fail(err, errlen, "--rw: more than %zu ratios in one list", max);
		if (parse_one(s, len, &tmp[n], err, errlen))
			return -1;
		for (size_t i = 0; i < n; i++) {
			char pct[16], other[16];

			rw_ratio_format(&tmp[n], pct, sizeof pct);
			if (tmp[i].write_parts == tmp[n].write_parts &&
			    tmp[i].total_parts == tmp[n].total_parts)
				return fail(err, errlen, "--rw: '%s' repeats '%s' (both are %s%% written)",
					    tmp[n].spec, tmp[i].spec, pct);
			/* rows and benchmark names carry the printed percent: it must name one point */
			if (!strcmp(pct, rw_ratio_format(&tmp[i], other, sizeof other)))
				return fail(err, errlen, "--rw: '%s' and '%s' both print as %s%% written, "
					    "so their rows could not be told apart; keep one", tmp[i].spec,
					    tmp[n].spec, pct);
		}
		n++;
		if (!end)
			break;
		s = end + 1;
	}
	memcpy(out, tmp, n * sizeof tmp[0]);
	*count = n;
	return 0;
}

/* "a or b" from a name table, for error messages that list the choices. */
static const char *names_or(const char *const *names, size_t n, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < n && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s",
					 i == 0 ? "" : i + 1 == n ? " or " : ", ", names[i]);
	return buf;
}

/* The index of s in names, or -1 with the error. */
static int parse_name(const char *s, const char *const *names, size_t n, const char *option,
		      const char *what, char *err, size_t errlen)
{
	char choices[64];

	for (size_t i = 0; i < n; i++)
		if (strcmp(s, names[i]) == 0)
			return (int)i;
	return fail(err, errlen, "%s: unknown %s '%s' (%s)", option, what, s,
		    names_or(names, n, choices, sizeof choices));
}

int rw_parse_mode(const char *s, enum rw_mode *out, char *err, size_t errlen)
{
	int i = parse_name(s, mode_names, NELEM(mode_names), "--rw-mode", "mode", err, errlen);

	if (i < 0)
		return -1;
	*out = (enum rw_mode)i;
	return 0;
}

int rw_parse_layout(const char *s, enum rw_layout *out, char *err, size_t errlen)
{
	int i = parse_name(s, layout_names, NELEM(layout_names), "--rw-layout", "layout", err,
			   errlen);

	if (i < 0)
		return -1;
	*out = (enum rw_layout)i;
	return 0;
}

const char *rw_mode_name(enum rw_mode m)
{
	return mode_names[m];
}

const char *rw_layout_name(enum rw_layout l)
{
	return layout_names[l];
}

char *rw_ratio_format(const struct rw_ratio *r, char *buf, size_t len)
{
	/* hundredths of a percent, rounded half up */
	uint64_t h = ((uint64_t)r->write_parts * 20000 + r->total_parts) / (2 * (uint64_t)r->total_parts);
	unsigned ip = (unsigned)(h / 100), fp = (unsigned)(h % 100);

	if (fp == 0)
		snprintf(buf, len, "%u", ip);
	else if (fp % 10 == 0)
		snprintf(buf, len, "%u.%u", ip, fp / 10);
	else
		snprintf(buf, len, "%u.%02u", ip, fp);
	return buf;
}

bool rw_ratio_is_store_only(const struct rw_ratio *r)
{
	return r->write_parts == r->total_parts;
}

bool rw_ratio_is_read_only(const struct rw_ratio *r)
{
	return r->write_parts == 0;
}

int rw_check_chunk(size_t chunk_bytes, size_t region_bytes, char *err, size_t errlen)
{
	if (chunk_bytes == 0)
		return fail(err, errlen, "--chunk: must be at least %u bytes", RW_CHUNK_ALIGN);
	if (chunk_bytes % RW_CHUNK_ALIGN)
		return fail(err, errlen, "--chunk: %zu bytes is not a multiple of %u", chunk_bytes,
			    RW_CHUNK_ALIGN);
	if (chunk_bytes > region_bytes)
		return fail(err, errlen, "--chunk: %zu bytes is larger than the %zu-byte region each "
			    "thread walks", chunk_bytes, region_bytes);
	return 0;
}

/* ceil(a * n / b) without overflow for any size_t n. */
static size_t ceil_muldiv(uint32_t a, size_t n, uint32_t b)
{
	unsigned __int128 x = (unsigned __int128)a * n;

	return (size_t)((x + b - 1) / b);
}

int rw_plan_init(struct rw_plan *p, size_t region_bytes, size_t chunk_bytes,
		 const struct rw_ratio *r, enum rw_layout layout, char *err, size_t errlen)
{
	size_t nfull;

	if (rw_check_chunk(chunk_bytes, region_bytes, err, errlen))
		return -1;
	nfull = region_bytes / chunk_bytes;
	memset(p, 0, sizeof *p);
	p->region_bytes = region_bytes;
	p->chunk_bytes = chunk_bytes;
	p->layout = layout;
	p->write_parts = r->write_parts;
	p->total_parts = r->total_parts;
	p->nchunks = nfull + (region_bytes % chunk_bytes != 0);
	p->last_bytes = region_bytes - (p->nchunks - 1) * chunk_bytes;
	if (layout == RW_LAYOUT_contiguous) {
		/* The largest chunk boundary (or the region's end) not past the read share. */
		unsigned __int128 rd = (unsigned __int128)region_bytes * (r->total_parts - r->write_parts);

		p->read_prefix = r->write_parts == 0 ? region_bytes :
				 (size_t)(rd / ((unsigned __int128)r->total_parts * chunk_bytes)) * chunk_bytes;
	} else if (p->last_bytes != chunk_bytes) {
		/* Same rule as a full chunk, weighted by the short chunk's bytes. */
		unsigned __int128 written = (unsigned __int128)ceil_muldiv(r->write_parts, nfull,
									   r->total_parts) * chunk_bytes;

		p->last_write = (unsigned __int128)r->write_parts * region_bytes >
				written * r->total_parts;
	}
	return 0;
}

size_t rw_plan_write_calls(const struct rw_plan *p)
{
	size_t nfull = p->region_bytes / p->chunk_bytes;

	if (p->layout == RW_LAYOUT_contiguous)
		return p->nchunks - rw_plan_read_calls(p);
	return ceil_muldiv(p->write_parts, nfull, p->total_parts) + p->last_write;
}

size_t rw_plan_read_calls(const struct rw_plan *p)
{
	if (p->layout == RW_LAYOUT_contiguous)
		return (p->read_prefix + p->chunk_bytes - 1) / p->chunk_bytes;
	return p->nchunks - rw_plan_write_calls(p);
}

size_t rw_plan_write_bytes(const struct rw_plan *p)
{
	size_t nfull = p->region_bytes / p->chunk_bytes;

	if (p->layout == RW_LAYOUT_contiguous)
		return p->region_bytes - p->read_prefix;
	return ceil_muldiv(p->write_parts, nfull, p->total_parts) * p->chunk_bytes +
	       (p->last_write ? p->last_bytes : 0);
}

size_t rw_plan_read_bytes(const struct rw_plan *p)
{
	return p->region_bytes - rw_plan_write_bytes(p);
}

int rw_split_init(struct rw_split *s, unsigned threads, const struct rw_ratio *r,
		  char *err, size_t errlen)
{
	uint64_t w;

	if (threads == 0)
		return fail(err, errlen, "--rw-mode split: no threads");
	w = (2 * (uint64_t)threads * r->write_parts + r->total_parts) / (2 * (uint64_t)r->total_parts);
	if (!rw_ratio_is_store_only(r) && !rw_ratio_is_read_only(r)) {
		char pct[16];

		if (threads < 2)
			return fail(err, errlen, "--rw-mode split: rw %s needs at least 2 threads "
				    "(a reader and a writer), got %u",
				    rw_ratio_format(r, pct, sizeof pct), threads);
		if (w < 1)
			w = 1;
		if (w > threads - 1)
			w = threads - 1;
	}
	s->threads = threads;
	s->writers = (unsigned)w;
	s->readers = threads - (unsigned)w;
	return 0;
}

void rw_split_ratio(const struct rw_split *s, struct rw_ratio *out)
{
	set_fraction(out, s->writers, s->threads);
	rw_ratio_format(out, out->spec, sizeof out->spec);
}

/* Thread t writes when the writers among threads [0, t] reach ceil(writers*(t+1)/threads) only
 * by counting t: the spread rule of rw_plan_next over thread indices instead of chunks. */
enum rw_op rw_split_role(const struct rw_split *s, unsigned t)
{
	uint64_t before = ((uint64_t)s->writers * t + s->threads - 1) / s->threads;
	uint64_t after = ((uint64_t)s->writers * (t + 1) + s->threads - 1) / s->threads;

	return after > before ? RW_WRITE : RW_READ;
}
