/*
 * kernels_test.c — byte-exact check of the one store kernel named on the command line.
 * No ISA flags: the kernel is called only after kernel_unavailable() cleared it (else exit 77,
 * which CTest reports as skipped).  Checks every small size, odd large sizes, every misalignment.
 */
#include <stdio.h>

#include "cpu.h"
#include "kernel_check.h"
#include "kernels.h"

#define SKIP_STATUS 77 /* CTest SKIP_RETURN_CODE: reported skipped, never passed */

int main(int argc, char **argv)
{
	struct cpu_info info;
	const struct kernel *k;
	const char *why;

	if (argc != 2) {
		fprintf(stderr, "usage: %s KERNEL (a name from kernels.def)\n", argv[0]);
		return 2;
	}
	k = kernel_find(argv[1]);
	if (!k) {
		fprintf(stderr, "kernels_test: unknown kernel '%s'\n", argv[1]);
		return 2;
	}
	cpu_detect(&info);
	why = kernel_unavailable(k, &info);
	if (why) {
		printf("SKIP %s: %s\n", k->name, why);
		return SKIP_STATUS;
	}
	return kernel_check(k) ? 1 : 0;
}
