/*
 * size_dist.h — a distribution of call sizes: the bundled ones (bench/distributions/), files in
 * the same formats, and what `storebench capture` writes.
 * Plain C.  Sizes are drawn before timing (size_dist_draw), so drawing costs nothing inside the
 * timed loop.
 *
 * Two text formats, told apart by their first data line:
 *   probabilities  llvm-libc's: one line of comma-separated weights, the i-th (from 0) that of
 *                  a call of i bytes ("0,0.5,0.5": 1 and 2 bytes, equally often);
 *   pairs          one "SIZE WEIGHT" per line (a space, a tab or a comma between), SIZE a whole
 *                  number of bytes, WEIGHT a count or any non-negative number; a size given twice
 *                  adds up.  What `storebench capture` writes.
 * Lines starting with '#' are comments in both.  Weights are normalised; sizes of weight 0 are
 * dropped.  Anything else (a negative or non-finite weight, a size that is no whole number or
 * above SIZE_DIST_MAX, no weight above 0, a byte that is not text) is refused with one line.
 */
#ifndef STOREBENCH_SIZE_DIST_H
#define STOREBENCH_SIZE_DIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The largest call a distribution may hold: 1 GiB, a working set's worth; a size past the
 * working set of a point is refused by the sweep. */
#define SIZE_DIST_MAX (1ull << 30)

/* A distribution file is read whole; past this it is no size distribution. */
#define SIZE_DIST_FILE_MAX (64u << 20)

struct size_dist {
	char name[64];     /* the bundled name ("GoogleA") or the file's base name */
	char source[256];  /* where it comes from: the bundled one's provenance, or the file */
	size_t n;          /* distinct sizes of weight above 0 */
	uint64_t *size;    /* those sizes, ascending */
	double *cum;       /* probability of a call of size[i] bytes or fewer; cum[n - 1] = 1 */
};

/* One bundled distribution: its name, provenance and text (in one of the formats above). */
struct bundled_dist {
	const char *name;
	const char *source;
	const char *text;
};

extern const struct bundled_dist bundled_dists[];
extern const size_t bundled_dist_count;

/*
 * Parse len bytes of text (either format) into d, named name, from source.  false with one
 * line in err (what is wrong and on which line) on anything the formats refuse or when out of
 * memory.
 */
bool size_dist_parse(const char *text, size_t len, const char *name, const char *source,
		     struct size_dist *d, char *err, size_t errlen);

/* spec: a bundled distribution's name, else a file's path.  false with one line in err. */
bool size_dist_load(const char *spec, struct size_dist *d, char *err, size_t errlen);

/* The smallest size s with P(size <= s) >= q, q in [0, 1]. */
uint64_t size_dist_quantile(const struct size_dist *d, double q);

/* The mean size in bytes. */
double size_dist_mean(const struct size_dist *d);

/* n sizes drawn from d into out, by the inverse of its distribution, from seed (prng.h). */
void size_dist_draw(const struct size_dist *d, uint64_t seed, uint64_t *out, size_t n);

void size_dist_free(struct size_dist *d);

#endif
