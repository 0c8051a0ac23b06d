/*
 * line_kinds_avx512.c — kernels/store_avx512.c with vmovntdq zmm recorded.
 * ISA: -mavx512f like the kernel file; its edges and splat run for real.
 * Why: line_kinds_test checks the line rules on the file's own loops, edges and unrolls.
 */
#include "line_kinds.h"
#include "store_avx512.c"
