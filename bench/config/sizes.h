/*
 * sizes.h — the numeric grammar of the command line: size and integer lists ("4KiB..1GiB:x2,1536",
 * "L1d/4..4LLC:x1.19", "1..all:x2"), bytes, and the checked arithmetic every size goes through.
 * Plain C.  One grammar for every numeric axis, so all accept the same ranges, units and limits.
 */
#ifndef STOREBENCH_SIZES_H
#define STOREBENCH_SIZES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * The largest size any axis accepts: 2^47 bytes = 128 TiB, the whole user address space of an
 * x86-64 process with 4-level page tables, so no buffer can be larger.  Every product the sweep
 * forms from sizes (4 x call for cold, x threads, x 2 for misalignment) stays far below 2^64.
 */
#define SIZE_LIMIT (1ull << 47)
#define SIZE_LIMIT_TEXT "128TiB" /* size_format(SIZE_LIMIT), for help texts */

/* A list expands (ranges included, before duplicates are dropped) to at most this many values:
 * a sweep axis, not a data set.  Checked while expanding, so a typo costs no time or memory. */
#define LIST_MAX_VALUES 100000

/* A geometric step :xF has at most this many decimals (x1.1892 is 2^(1/4) to 4 digits). */
#define STEP_MAX_DECIMALS 4

struct u64_list {
	size_t n;              /* entries used */
	size_t cap;            /* entries allocated */
	unsigned long long *v; /* values in the order given, duplicates removed (first one kept) */
};

/* A named value a list may use: a cache ("L1d", "LLC") or a count ("all"). */
struct size_word {
	const char *word;
	unsigned long long value; /* 0: this machine has none, an error when used */
};

/* What one list accepts. */
struct list_grammar {
	bool units;                    /* K, KiB = 1024; KB, kB = 1000; M, G, T alike; B */
	const struct size_word *words; /* named values, or NULL */
	size_t nwords;
	bool scale_words;              /* a word takes a whole multiplier before and a divisor after:
					* 4LLC, L1d/4, 3L1d/2 */
	unsigned long long min, max;   /* every value, range ends included, in [min, max] */
};

/*
 * A comma-separated list of values and ranges into out (which must start empty).  Ranges:
 * A..B doubles, A..B:xF multiplies by F (F > 1, at most STEP_MAX_DECIMALS decimals), A..B:+S adds S;
 * a range always includes both A and B, on the step grid or not; of sizes (units), a geometric
 * step less than sqrt F below B gives way to B.  With a fractional F the k-th value is A x F^k
 * rounded to the nearest byte (halves up); values that round alike appear once.
 * A geometric range from 0 is 0 and B.  Duplicates are dropped keeping the first, in O(n log n).
 * On error returns false with one line in err naming the element at fault and what is accepted.
 */
bool u64_list_parse(const char *s, const struct list_grammar *g, struct u64_list *out,
		    char *err, size_t errlen);

void u64_list_free(struct u64_list *l);

/*
 * keep[] := the indices of the first occurrence of each distinct key, in their original order;
 * returns how many.  O(n log n).  keep must hold n entries.  false (keep untouched) only when
 * memory runs out.
 */
bool first_occurrences(const unsigned long long *key, size_t n, size_t *keep, size_t *nkeep);

/* A number in [lo, hi]: decimal digits, for !whole with a fraction and exponent (no hex, inf or
 * nan, which strtod alone would take).  false (out untouched) otherwise. */
bool number_parse(const char *s, double lo, double hi, bool whole, double *out);

/* One safe path component of 1..max characters from A-Z a-z 0-9 . _ -, neither . nor ..: a
 * results folder name (--machine) can never reach elsewhere. */
bool folder_name_ok(const char *name, size_t max);

/* A byte value: decimal 0..255 or hex 0x00..0xff; no octal, sign, space or empty string. */
bool byte_parse(const char *s, unsigned *out);

/* "128TiB", "48KiB", "1000": a size in the largest binary unit that divides it exactly. */
char *size_format(unsigned long long v, char *buf, size_t len);

/* Checked arithmetic: true when the exact result does not fit (then *out is unspecified). */
static inline bool mul_u64_overflows(uint64_t a, uint64_t b, uint64_t *out)
{
	return __builtin_mul_overflow(a, b, out);
}

static inline bool add_u64_overflows(uint64_t a, uint64_t b, uint64_t *out)
{
	return __builtin_add_overflow(a, b, out);
}

/* *out = a * b <= limit; false when the product overflows or exceeds limit. */
static inline bool mul_u64_within(uint64_t a, uint64_t b, uint64_t limit, uint64_t *out)
{
	return !mul_u64_overflows(a, b, out) && *out <= limit;
}

#endif
