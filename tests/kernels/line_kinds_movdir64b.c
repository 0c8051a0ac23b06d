/*
 * line_kinds_movdir64b.c — kernels/store_movdir64b.c with movdir64b recorded.
 * ISA: none: the instruction is recorded and the edges are scalar stores.
 * Why: line_kinds_test checks the line rules on the file's own loops, edges and unrolls.
 */
#include "line_kinds.h"
#include "store_movdir64b.c"
