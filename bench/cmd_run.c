/*
 * cmd_run.c — placeholder for `storebench run` until the sweep lands.
 * Plain C.  Fails loudly rather than pretending to measure anything.
 */
#include <stdio.h>

#include "commands.h"

int cmd_run(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fputs("storebench run: not built yet\n", stderr);
	return 1;
}
