/*
 * line_kinds_test.c — which kind of store writes each 64-byte line, for one nt or flush row.
 * No ISA flags here: the recorded rows (line_kinds_<file>.c) run only after cpu.c cleared their
 * vector ISA.  Why: byte-exact tests cannot see a line written twice with the same byte.
 *
 * The rules: an nt row writes every whole line inside [d, d+n) with streaming stores only, and
 * the partial lines at the two ends with temporal stores only (so no line gets both kinds); a
 * flush row writes every byte temporally and flushes each line it wrote once, after its last
 * store.  The recorded row is the kernel file itself with only those instructions replaced: a
 * streaming store paints its bytes STREAMED (and must find them untouched), a flush paints the
 * line's bytes FLUSHED (and must find them all written); temporal stores write the fill for real.
 * Afterwards every whole line must read STREAMED, every partial line the fill, every flushed
 * byte FLUSHED, and the guards untouched.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu.h"
#include "kernels.h"
#include "line_kinds.h"

#define SKIP_STATUS 77   /* CTest SKIP_RETURN_CODE */
#define LINE_BYTES 64    /* the line the rule is about */
#define GUARD 256        /* sentinel bytes checked on each side of the range */
#define MAX_SMALL_N 1024 /* every n 0..MAX_SMALL_N at every misalignment 0..63 */
#define SHOWN 3          /* failures printed in full; the rest are counted */

enum { SENTINEL = 0xcc, STREAMED = 0x5a, FLUSHED = 0x3c };

/* 0x00 takes clzero's own path, 0xa5 its movnti fallback; both differ from the markers. */
static const int fills[] = { 0x00, 0xa5 };
static const size_t large_sizes[] = { 4095, 4096, 4097, 65536, 65536 + 13, 100003 };
static const unsigned large_misalign[] = { 0, 1, 31, 32, 63 };
#define MAX_N 100003

static struct recorded_kernel *registry;

void line_kinds_register(struct recorded_kernel *r)
{
	r->next = registry;
	registry = r;
}

/* The call in progress, for the recorders; the first wrong instruction is kept in why. */
static struct {
	unsigned char *d, *e;       /* the range [d, e) */
	unsigned char fill;         /* the byte the temporal stores write */
	bool flush_row;             /* kind flush: flushes expected, no streaming stores */
	char why[160];              /* first recorder complaint, "" when none */
	unsigned long streamed;     /* bytes streamed over the whole run */
	unsigned long flushes;      /* flush instructions over the whole run */
} call;

#define COMPLAIN(...)									\
	do {										\
		if (!call.why[0])							\
			snprintf(call.why, sizeof call.why, __VA_ARGS__);		\
	} while (0)

void line_kinds_stream(const void *p, unsigned width)
{
	unsigned char *q = (unsigned char *)p;

	call.streamed += width;
	if (call.flush_row)
		COMPLAIN("a flush row made a streaming store at d%+td", q - call.d);
	else if ((uintptr_t)q % width)
		COMPLAIN("%u-byte streaming store at d%+td is not %u-byte aligned", width,
			 q - call.d, width);
	else if (q < call.d || q + width > call.e)
		COMPLAIN("%u-byte streaming store at d%+td reaches outside [d, d+n)", width,
			 q - call.d);
	if (call.why[0])
		return;
	for (unsigned i = 0; i < width; i++)
		if (q[i] != SENTINEL) {
			COMPLAIN("streaming store over d+%td, which a %s store already wrote",
				 q + i - call.d, q[i] == STREAMED ? "streaming" : "temporal");
			return;
		}
	memset(q, STREAMED, width);
}

void line_kinds_flush(const void *p)
{
	unsigned char *line = (unsigned char *)((uintptr_t)p & ~(uintptr_t)(LINE_BYTES - 1));
	unsigned char *lo = line < call.d ? call.d : line;
	unsigned char *hi = line + LINE_BYTES > call.e ? call.e : line + LINE_BYTES;

	call.flushes++;
	if (!call.flush_row) {
		COMPLAIN("an nt row flushed the line at d%+td", line - call.d);
		return;
	}
	if (lo >= hi) {
		COMPLAIN("flushed the line at d%+td, which holds no byte of [d, d+n)",
			 line - call.d);
		return;
	}
	for (unsigned char *b = lo; b < hi; b++)
		if (*b != call.fill) {
			COMPLAIN("flushed the line at d%+td %s", line - call.d,
				 *b == FLUSHED ? "twice" : "before its last store");
			return;
		}
	memset(lo, FLUSHED, (size_t)(hi - lo));
}

/* What the byte at b must hold after the call; sets *what to the rule it follows. */
static unsigned char expected(const unsigned char *b, const char **what)
{
	const uintptr_t line = (uintptr_t)b & ~(uintptr_t)(LINE_BYTES - 1);
	const bool whole = line >= (uintptr_t)call.d && line + LINE_BYTES <= (uintptr_t)call.e;

	if (call.flush_row) {
		*what = "a written line flushed after its last store";
		return FLUSHED;
	}
	*what = whole ? "a whole line, streamed only" : "a partial line, temporal stores only";
	return whole ? STREAMED : call.fill;
}

static const char *byte_name(unsigned char v)
{
	if (v == STREAMED)
		return "streamed";
	if (v == FLUSHED)
		return "flushed";
	if (v == SENTINEL)
		return "never written";
	return "written by a temporal store";
}

static unsigned long calls, failed;

/* One call of the recorded row; 0 when every line got the kinds the rules demand. */
static int check(const struct recorded_kernel *r, unsigned char *arena, size_t n,
		 unsigned misalign, int c)
{
	unsigned char *d = arena + GUARD + misalign;
	char why[200] = "";

	memset(d - GUARD, SENTINEL, n + 2 * GUARD);
	call.d = d;
	call.e = d + n;
	call.fill = (unsigned char)c;
	call.why[0] = '\0';
	r->fn(d, c, n);
	calls++;
	if (call.why[0])
		snprintf(why, sizeof why, "%s", call.why);
	for (unsigned char *b = d - GUARD; !why[0] && b < d + n + GUARD; b++) {
		const char *what = "outside [d, d+n), untouched";
		const unsigned char want = (b < d || b >= d + n) ? SENTINEL : expected(b, &what);

		if (*b != want)
			snprintf(why, sizeof why, "byte d%+td is %s, in %s", b - d, byte_name(*b),
				 what);
	}
	if (!why[0])
		return 0;
	if (failed++ < SHOWN)
		fprintf(stderr, "FAIL %s: n=%zu misalign=%u c=0x%02x: %s\n", r->name, n, misalign,
			(unsigned char)c, why);
	return -1;
}

static void run_all(const struct recorded_kernel *r, unsigned char *arena)
{
	for (size_t f = 0; f < sizeof fills / sizeof fills[0]; f++) {
		for (unsigned m = 0; m < LINE_BYTES; m++)
			for (size_t n = 0; n <= MAX_SMALL_N; n++)
				check(r, arena, n, m, fills[f]);
		for (size_t i = 0; i < sizeof large_sizes / sizeof large_sizes[0]; i++)
			for (size_t j = 0; j < sizeof large_misalign / sizeof large_misalign[0]; j++)
				check(r, arena, large_sizes[i], large_misalign[j], fills[f]);
	}
}

int main(int argc, char **argv)
{
	const struct recorded_kernel *r;
	const struct kernel *row;
	struct kernel needs;
	struct cpu_info info;
	unsigned char *arena;
	const char *why;

	if (argc != 2) {
		fprintf(stderr, "usage: %s KERNEL (an nt or flush row of kernels.def)\n", argv[0]);
		return 2;
	}
	row = kernel_find(argv[1]);
	if (!row || (row->kind != KIND_nt && row->kind != KIND_flush)) {
		fprintf(stderr, "line_kinds_test: '%s' is not an nt or flush row of kernels.def\n",
			argv[1]);
		return 2;
	}
	for (r = registry; r && strcmp(r->name, row->name); r = r->next)
		;
	if (!r) {
		fprintf(stderr, "FAIL %s: no recorded form; compile its kernel file into "
			"line_kinds_test (tests/kernels/line_kinds_<file>.c)\n", row->name);
		return 1;
	}
	needs = *row;
	needs.isa &= ~(unsigned)LINE_KINDS_REPLACED_ISA;
	cpu_detect(&info);
	why = cpu_isa_unavailable(needs.isa, &info);
	if (why) {
		printf("SKIP %s: %s\n", row->name, why);
		return SKIP_STATUS;
	}
	arena = aligned_alloc(4096, (2 * GUARD + LINE_BYTES + MAX_N + 4095) & ~(size_t)4095);
	if (!arena) {
		fprintf(stderr, "line_kinds_test: out of memory\n");
		return 1;
	}
	call.flush_row = row->kind == KIND_flush;
	run_all(r, arena);
	free(arena);
	if (failed) {
		fprintf(stderr, "FAIL %s: %lu of %lu calls break the line rules\n", row->name, failed,
			calls);
		return 1;
	}
	if (call.flush_row)
		printf("ok %s: %lu calls, every written line flushed once after its last store "
		       "(%lu flushes)\n", row->name, calls, call.flushes);
	else
		printf("ok %s: %lu calls, whole lines streamed only, partial lines temporal only "
		       "(%lu bytes streamed)\n", row->name, calls, call.streamed);
	return 0;
}
