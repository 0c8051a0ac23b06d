/*
 * cmd_info.c — `storebench info`: this machine and build as key=value lines.
 * Plain C.  The same lines head every CSV (with "# "), so what info shows is what a result records.
 */
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "cpu.h"
#include "metadata.h"

int cmd_info(int argc, char **argv)
{
	struct cpu_info cpu;

	if (argc > 1 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		puts("usage: storebench info\n"
		     "Prints this machine and build as key=value lines (the metadata every CSV carries).");
		return 0;
	}
	if (argc > 1) {
		fprintf(stderr, "storebench info: unexpected argument '%s'\n", argv[1]);
		return 2;
	}
	cpu_detect(&cpu);
	metadata_machine(stdout, "", &cpu);
	return fflush(stdout) ? 1 : 0;
}
