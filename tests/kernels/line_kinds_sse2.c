/*
 * line_kinds_sse2.c — kernels/store_sse2.c with movntdq and movnti recorded.
 * ISA: SSE2, baseline like the kernel file; its edges and splat run for real.
 * Why: line_kinds_test checks the line rules on the file's own loops, edges and unrolls.
 */
#include "line_kinds.h"
#include "store_sse2.c"
