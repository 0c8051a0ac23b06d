/*
 * store_rows.h — the kernels.def rows whose loop this file defines, each made the function
 * store_<name> calling that loop with the row's unroll.  Plain C, preprocessor only.  A kernel
 * file includes it last, after naming each loop it defines:
 *	#define STORE_LOOP_HERE_<loop>() ~, 1
 * so a row's name and unroll are typed in kernels.def alone.  Why a probe: the preprocessor
 * cannot compare two tokens, but it can tell a defined function-like macro from a name:
 * STORE_LOOP_HERE_<loop>() becomes "~, 1" only where the file defined it, and the second word
 * of what it became is then 1, otherwise the 0 appended after it.  Rows whose loop is "none"
 * (libc, rep, clzero's own function) are written by hand.  No include guard: like a .def, it
 * expands where it is included, once per kernel file.
 */
#include "store_loop.h"

#define STORE_ROWS_CAT_(a, b) a##b
#define STORE_ROWS_CAT(a, b) STORE_ROWS_CAT_(a, b)
#define STORE_ROWS_SECOND_(a, b, ...) b
#define STORE_ROWS_SECOND(...) STORE_ROWS_SECOND_(__VA_ARGS__, 0, )
#define STORE_ROWS_HERE(loop) STORE_ROWS_SECOND(STORE_ROWS_CAT(STORE_LOOP_HERE_, loop)())
#define STORE_ROWS_IF_0(...)
#define STORE_ROWS_IF_1(...) __VA_ARGS__
#define STORE_ROWS_IF(bit) STORE_ROWS_CAT(STORE_ROWS_IF_, bit)

/* By kind: temporal rows return as they are; non-temporal and flush rows end with sfence.  A
 * flush row's unroll counts the stores of one line, and its loop writes one line a turn. */
#define STORE_ROWS_t(name, loop, unroll) STORE_KERNEL(name, loop, unroll)
#define STORE_ROWS_nt(name, loop, unroll) STORE_KERNEL_NT(name, loop, unroll)
#define STORE_ROWS_flush(name, loop, unroll) STORE_KERNEL_NT(name, loop, 1)

#define KERNEL(name, loop, isa, kind, width, unroll, fill, desc)                               \
	STORE_ROWS_IF(STORE_ROWS_HERE(loop))(STORE_ROWS_CAT(STORE_ROWS_, kind)(name, loop, unroll))
#include "kernels.def"
#undef KERNEL
