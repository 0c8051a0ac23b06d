/*
 * line_kinds_flush.c — kernels/store_flush.c with clflushopt and clwb recorded.
 * ISA: -mavx2 like the kernel file's stores; the recorded flushes need no flag.
 * Why: line_kinds_test checks the line rules on the file's own loops, edges and unrolls.
 */
#include "line_kinds.h"
#include "store_flush.c"
