/*
 * kernel_check.h — the byte-exact check of one store kernel, shared by the kernel tests.
 * Plain C, no ISA flags: calls k->fn, so the caller must know the CPU can run it.
 */
#ifndef STOREBENCH_KERNEL_CHECK_H
#define STOREBENCH_KERNEL_CHECK_H

#include "kernels.h"

/* 0 when every call wrote exactly [dst, dst+n); else -1 after one FAIL line on stderr. */
int kernel_check(const struct kernel *k);

#endif
