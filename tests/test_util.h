/*
 * test_util.h — the CHECK macro and the exit status of the C unit tests (plans, rw rules, CPU).
 * Plain C, no ISA.  One report format ("FAIL file:line: why" on stderr) so CTest logs read alike,
 * and every failed check is counted, not only the first.
 */
#ifndef STOREBENCH_TEST_UTIL_H
#define STOREBENCH_TEST_UTIL_H

#include <stdarg.h>
#include <stdio.h>

static int failures;

#define CHECK(cond, ...)							\
	do {									\
		if (!(cond)) {							\
			failures++;						\
			fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);	\
			fprintf(stderr, __VA_ARGS__);				\
			fputc('\n', stderr);					\
		}								\
	} while (0)

/* main's return value: 1 with the failure count on stderr, else 0 with the ok line on stdout. */
static inline int test_result(const char *ok_fmt, ...)
{
	va_list ap;

	if (failures) {
		fprintf(stderr, "%d failures\n", failures);
		return 1;
	}
	va_start(ap, ok_fmt);
	vprintf(ok_fmt, ap);
	va_end(ap);
	putchar('\n');
	return 0;
}

#endif
