/*
 * tsc.h — time stamps: the TSC for ticks, CLOCK_MONOTONIC_RAW for seconds.
 * x86-64 only (rdtsc, lfence are baseline).  Ticks are what the DPDK and likwid tables quote;
 * seconds come from the kernel clock so a wrong TSC calibration can never bend a GB/s number.
 */
#ifndef STOREBENCH_TSC_H
#define STOREBENCH_TSC_H

#include <stdint.h>
#include <time.h>
#include <x86intrin.h>

/* lfence on both sides: no earlier store-issuing work leaks past the read, no later work before. */
static inline uint64_t tsc_read(void)
{
	uint64_t t;

	_mm_lfence();
	t = __rdtsc();
	_mm_lfence();
	return t;
}

static inline uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* TSC frequency in Hz measured against CLOCK_MONOTONIC_RAW (median of a few 20 ms windows). */
double tsc_calibrate(void);

#endif
