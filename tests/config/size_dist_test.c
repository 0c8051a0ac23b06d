/*
 * size_dist_test.c — call-size distributions: both formats read, their sizes drawn in their
 * proportions and quantiles, and every hostile file refused with one line.
 * Plain C.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "size_dist.h"
#include "test_util.h"

static bool parse(const char *text, size_t len, struct size_dist *d, char *err, size_t errlen)
{
	return size_dist_parse(text, len, "t", "test", d, err, errlen);
}

/* The text is refused, with want in its one line. */
static void refused(const char *what, const char *text, size_t len, const char *want)
{
	struct size_dist d;
	char err[256] = "";

	CHECK(!parse(text, len, &d, err, sizeof err), "%s: accepted", what);
	CHECK(strstr(err, want) && !strchr(err, '\n'), "%s: '%s', want one line with '%s'", what,
	      err, want);
}

/* llvm-libc's format: weights by size from 0; zero weights dropped, the rest normalised. */
static void probabilities(void)
{
	static const char text[] = "# a comment\n0,0.25,0,0.5,0.25\n";
	struct size_dist d;
	char err[256] = "";

	CHECK(parse(text, strlen(text), &d, err, sizeof err), "%s", err);
	CHECK(d.n == 3 && d.size[0] == 1 && d.size[1] == 3 && d.size[2] == 4,
	      "sizes 1, 3, 4 (%zu)", d.n);
	CHECK(fabs(d.cum[0] - 0.25) < 1e-12 && fabs(d.cum[1] - 0.75) < 1e-12 && d.cum[2] == 1,
	      "cumulative 0.25 0.75 1: %g %g %g", d.cum[0], d.cum[1], d.cum[2]);
	CHECK(size_dist_quantile(&d, 0.25) == 1 && size_dist_quantile(&d, 0.5) == 3 &&
	      size_dist_quantile(&d, 0.76) == 4 && size_dist_quantile(&d, 0) == 1,
	      "quantiles 0.25 -> 1, 0.5 -> 3, 0.76 -> 4, 0 -> 1");
	CHECK(fabs(size_dist_mean(&d) - (0.25 * 1 + 0.5 * 3 + 0.25 * 4)) < 1e-12, "mean %g",
	      size_dist_mean(&d));
	size_dist_free(&d);
}

/* Pairs: any order, duplicates add up, weights any non-negative number; CRLF line ends. */
static void pairs(void)
{
	static const char text[] = "# SIZE COUNT\r\n4096 1\r\n8 2.5\r\n\r\n  8\t0.5 \r\n0 0\r\n";
	struct size_dist d;
	char err[256] = "";

	CHECK(parse(text, strlen(text), &d, err, sizeof err), "%s", err);
	CHECK(d.n == 2 && d.size[0] == 8 && d.size[1] == 4096 && fabs(d.cum[0] - 0.75) < 1e-12,
	      "8 (3 of 4) and 4096: %zu sizes, cum %g", d.n, d.n ? d.cum[0] : 0);
	size_dist_free(&d);
}

/* Drawn sizes: each as often as its weight says (within 1 % of 10^6 draws), the same for a seed,
 * and their empirical quantiles the distribution's. */
static void draws(void)
{
	static const char text[] = "16 1\n64 2\n256 6\n4096 1\n";
	enum { N = 1000000 };
	uint64_t *a = malloc(N * sizeof *a), *b = malloc(N * sizeof *b);
	size_t seen[4] = { 0 };
	struct size_dist d;
	char err[256] = "";

	CHECK(a && b && parse(text, strlen(text), &d, err, sizeof err), "%s", err);
	if (!a || !b || !d.n) {
		free(a);
		free(b);
		return;
	}
	size_dist_draw(&d, 42, a, N);
	size_dist_draw(&d, 42, b, N);
	CHECK(!memcmp(a, b, N * sizeof *a), "one seed, one sequence");
	for (size_t i = 0; i < N; i++)
		seen[a[i] == 16 ? 0 : a[i] == 64 ? 1 : a[i] == 256 ? 2 : 3]++;
	CHECK(seen[0] + seen[1] + seen[2] + seen[3] == N, "only the four sizes are drawn");
	for (size_t k = 0; k < 4; k++) {
		double want = (k == 1 ? 0.2 : k == 2 ? 0.6 : 0.1) * N;

		CHECK(fabs((double)seen[k] - want) < 0.01 * N, "size %zu drawn %zu times, want ~%.0f",
		      k, seen[k], want);
	}
	size_dist_draw(&d, 43, b, N);
	CHECK(memcmp(a, b, N * sizeof *a), "another seed, another sequence");
	/* the draws' median and 95th percentile, by counting: 256 and 4096 */
	CHECK(seen[0] + seen[1] < N / 2 && seen[0] + seen[1] + seen[2] >= N / 2 &&
	      size_dist_quantile(&d, 0.5) == 256, "median 256");
	CHECK(seen[0] + seen[1] + seen[2] < N * 95 / 100 && size_dist_quantile(&d, 0.95) == 4096,
	      "95th percentile 4096");
	size_dist_free(&d);
	free(a);
	free(b);
}

static void hostile(void)
{
	static const char binary[] = "16 1\n\0\x01\x02";

	refused("negative", "16 -1\n", 6, "not a finite number of at least 0");
	refused("negative probability", "0,0.5,-0.5\n", 11, "not a finite number of at least 0");
	refused("NaN", "16 nan\n", 7, "not a finite number");
	refused("inf", "0,inf\n", 6, "not a finite number");
	refused("a fraction of a byte", "16.5 1\n", 7, "not a whole number of bytes");
	refused("a negative size", "-16 1\n", 6, "not a whole number of bytes");
	refused("past the largest", "2147483648 1\n", 13, "not a whole number of bytes from 0");
	refused("empty", "", 0, "no sizes");
	refused("comments only", "# nothing\n\n", 11, "no sizes");
	refused("all zero", "16 0\n32 0\n", 10, "no size has a weight above 0");
	refused("binary", binary, sizeof binary - 1, "not a text file");
	refused("one number", "16\n", 3, "want SIZE WEIGHT");
	refused("two lines of probabilities", "0,1\n0,1\n", 8, "one line");
	refused("not a number", "16 many\n", 8, "is not a number");
}

/* A file: loaded by its path, named by its base name; a missing one says so. */
static void files(void)
{
	char path[] = "/tmp/size_dist_test.XXXXXX", err[256] = "";
	struct size_dist d;
	FILE *f;
	int fd = mkstemp(path);

	CHECK(fd >= 0 && (f = fdopen(fd, "w")) && fputs("8 1\n", f) >= 0 && !fclose(f),
	      "a temporary file");
	CHECK(size_dist_load(path, &d, err, sizeof err) && d.n == 1 && !strcmp(d.source, path) &&
	      !strncmp(d.name, "size_dist_test", 14), "%s", err);
	size_dist_free(&d);
	remove(path);
	CHECK(!size_dist_load(path, &d, err, sizeof err) && strstr(err, "No such file") &&
	      strstr(err, "not a bundled distribution"), "a missing file: %s", err);
	for (size_t i = 0; i < bundled_dist_count; i++) {
		CHECK(size_dist_load(bundled_dists[i].name, &d, err, sizeof err) && d.n > 0 &&
		      d.source[0], "bundled %s: %s", bundled_dists[i].name, err);
		size_dist_free(&d);
	}
}

int main(void)
{
	probabilities();
	pairs();
	draws();
	hostile();
	files();
	return test_result("size_dist: both formats, draws, quantiles, hostile files, %zu bundled",
			   bundled_dist_count);
}
