/*
 * line_kinds_avx2.c — kernels/store_avx2.c with vmovntdq ymm recorded.
 * ISA: -mavx2 like the kernel file; its edges and splat run for real.
 * Why: line_kinds_test checks the line rules on the file's own loops, edges and unrolls.
 */
#include "line_kinds.h"
#include "store_avx2.c"
