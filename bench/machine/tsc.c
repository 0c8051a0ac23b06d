/*
 * tsc.c — TSC frequency calibration against CLOCK_MONOTONIC_RAW.
 * x86-64 only.  Measured rather than read from CPUID leaf 0x15, which AMD parts and most
 * hypervisors leave empty; the value lands in the CSV metadata as tsc_hz.
 */
#include "tsc.h"

#include "stats.h"

#define WINDOWS 5
#define WINDOW_NS 20000000ull

double tsc_calibrate(void)
{
	double hz[WINDOWS];

	for (int i = 0; i < WINDOWS; i++) {
		uint64_t t0 = mono_ns(), c0 = tsc_read(), t1, c1;

		do
			t1 = mono_ns();
		while (t1 - t0 < WINDOW_NS);
		c1 = tsc_read();
		t1 = mono_ns();
		hz[i] = (double)(c1 - c0) * 1e9 / (double)(t1 - t0);
	}
	return stats_median(hz, WINDOWS);
}
