/*
 * line_kinds_clzero.c — kernels/store_clzero.c with clzero and its movnti fallback recorded.
 * ISA: none needed once clzero is recorded (its edges are scalar stores).
 * Why: line_kinds_test checks the real loop of the clzero row for zero and non-zero fills.
 */
#include "line_kinds.h"

/* store_clzero is a plain function, not a STORE_KERNEL_NT wrapper: renamed and registered here. */
#define store_clzero recorded_clzero
#include "store_clzero.c"
#undef store_clzero

LINE_KINDS_REGISTER(clzero, recorded_clzero)
