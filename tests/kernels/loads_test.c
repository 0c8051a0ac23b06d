/*
 * loads_test.c — proves each load.def row reads exactly [src, src+n) and ORs every byte of it.
 * ISA: whatever the row needs; a row this CPU cannot run exits 77 (skipped) with the reason.
 * Why: a read kernel that skips a head byte or strays past the tail would make rw numbers lie.
 *
 * Usage: loads_test ROW      one row (name with or without "load_"), every n/alignment below
 *        loads_test --table  the table itself: names, shapes, the choice of load_kernel_best
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "cpu.h"
#include "load.h"

/* Bytes outside the range carry OUTSIDE; bytes inside never have that bit, so a stray read that
 * reaches the result shows up as that bit.  Reads that fault are caught by the guard pages. */
#define OUTSIDE 0x80u
#define DATA_BYTES (64u * 4096u)

static unsigned char *lo, *hi; /* the readable window, PROT_NONE pages on both sides */
static const struct load_kernel *lk;
static volatile size_t cur_n, cur_off; /* the case in flight, for the fault report */
static int failures;

static void on_fault(int sig)
{
	char msg[160];
	int len = snprintf(msg, sizeof msg, "FAIL %s: fault (signal %d) reading n=%zu at window+%zu: "
			   "a load left [src, src+n)\n", lk->name, sig, (size_t)cur_n, (size_t)cur_off);

	if (write(2, msg, (size_t)len) < 0)
		_exit(1);
	_exit(1);
}

static void guarded_window(void)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	unsigned char *m = mmap(NULL, DATA_BYTES + 2 * page, PROT_NONE,
				MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (m == MAP_FAILED || mprotect(m + page, DATA_BYTES, PROT_READ | PROT_WRITE)) {
		perror("loads_test: mmap/mprotect");
		exit(1);
	}
	lo = m + page;
	hi = lo + DATA_BYTES;
	memset(lo, OUTSIDE, DATA_BYTES);
}

static uint64_t call(const unsigned char *src, size_t n)
{
	cur_n = n;
	cur_off = (size_t)(src - lo);
	return lk->fn(src, n);
}

static void expect(uint64_t got, uint64_t want, const char *what, size_t n, size_t off, size_t k)
{
	if (got == want)
		return;
	if (failures++ < 20)
		fprintf(stderr, "FAIL %s: %s: n=%zu at window+%zu (byte %zu): got 0x%llx, want 0x%llx\n",
			lk->name, what, n, off, k, (unsigned long long)got, (unsigned long long)want);
}

/* Every byte position that can expose a head/tail/body boundary bug, or all when n is small. */
static int probe_position(size_t k, size_t n)
{
	return n <= 320 || k < 160 || n - k <= 160 || k % (n <= 8192 ? 61 : 4099) == 0;
}

/* One range: all-zero reads 0; each probed byte alone is seen; random contents OR as a bytewise
 * reference says.  The window is restored to OUTSIDE afterwards. */
static void check_range(unsigned char *src, size_t n, unsigned *seed)
{
	const size_t off = (size_t)(src - lo);
	uint64_t ref = 0;

	memset(src, 0, n);
	expect(call(src, n), 0, "zeros", n, off, 0);
	for (size_t k = 0; k < n; k++) {
		if (!probe_position(k, n))
			continue;
		src[k] = (unsigned char)(1u << (k % 7));
		expect(call(src, n), src[k], "single byte", n, off, k);
		src[k] = 0;
	}
	for (size_t k = 0; k < n; k++) {
		src[k] = (unsigned char)(rand_r(seed) & 0x7f & rand_r(seed) & rand_r(seed));
		ref |= src[k];
	}
	expect(call(src, n), ref, "random bytes", n, off, 0);
	memset(src, OUTSIDE, n);
}

static int test_row(const char *name, const struct cpu_info *info)
{
	static const size_t big[] = { 511, 512, 513, 1000, 1023, 1024, 1025, 4095, 4096, 4097,
				      65536 + 13, DATA_BYTES - 64, DATA_BYTES };
	unsigned seed = 1;
	const char *why;

	lk = load_kernel_find(name);
	if (!lk) {
		fprintf(stderr, "loads_test: no load kernel '%s'\n", name);
		return 2;
	}
	why = load_kernel_unavailable(lk, info);
	if (why) {
		printf("SKIP %s: %s\n", lk->name, why);
		return 77;
	}
	guarded_window();
	signal(SIGSEGV, on_fault);
	signal(SIGBUS, on_fault);

	/* Start flush with the low guard at every alignment, end flush with the high guard (which
	 * runs through every alignment as n varies): a load before src or past src+n faults. */
	for (size_t n = 0; n <= 400; n++) {
		for (size_t a = 0; a < 128; a++)
			check_range(lo + a, n, &seed);
		check_range(hi - n, n, &seed);
	}
	for (size_t i = 0; i < sizeof big / sizeof big[0]; i++) {
		size_t n = big[i];

		for (size_t a = 0; a < 64 && a + n <= DATA_BYTES; a += 21)
			check_range(lo + a, n, &seed);
		check_range(hi - n, n, &seed);
	}
	if (failures) {
		fprintf(stderr, "FAIL %s: %d mismatches\n", lk->name, failures);
		return 1;
	}
	printf("ok %s: n 0..400 at 128 alignments and up to %u bytes, flush with guard pages\n",
	       lk->name, DATA_BYTES);
	return 0;
}

static int test_table(const struct cpu_info *info)
{
	const struct load_kernel *best = load_kernel_best(info);
	unsigned widest = 0;

	for (size_t i = 0; i < load_count; i++) {
		const struct load_kernel *k = &load_table[i];

		if (strncmp(k->name, "load_", 5) || load_kernel_find(k->name) != k ||
		    load_kernel_find(k->name + 5) != k) {
			fprintf(stderr, "FAIL %s: name is not load_<row> or not found by it\n", k->name);
			return 1;
		}
		if (k->width < 16 || (k->width & (k->width - 1)) || k->unroll < 1 || !k->desc[0]) {
			fprintf(stderr, "FAIL %s: width %u / unroll %u / desc\n", k->name, k->width,
				k->unroll);
			return 1;
		}
		if (!load_kernel_unavailable(k, info) && k->width > widest)
			widest = k->width;
	}
	if (load_kernel_find("store_memset") || load_kernel_find("")) {
		fprintf(stderr, "FAIL: load_kernel_find matched a name that is not a load row\n");
		return 1;
	}
	if (!best || best->width != widest || load_kernel_unavailable(best, info)) {
		fprintf(stderr, "FAIL: load_kernel_best is %s, want the widest available (%u bytes)\n",
			best ? best->name : "NULL", widest);
		return 1;
	}
	printf("ok load table: %zu rows, best here %s\n", load_count, best->name);
	return 0;
}

int main(int argc, char **argv)
{
	struct cpu_info info;

	if (argc != 2) {
		fprintf(stderr, "usage: loads_test ROW|--table\n");
		return 2;
	}
	cpu_detect(&info);
	return strcmp(argv[1], "--table") ? test_row(argv[1], &info) : test_table(&info);
}
