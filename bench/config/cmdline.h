/*
 * cmdline.h — the command line of `storebench run`, read once.  Plain C.
 * Every later stage asks this, never argv: the options as typed (for the parser, the metadata's
 * defaults and --dry-run's replayed machine), Google Benchmark's own flags (for the shim, and
 * which of them were given), and the line itself (the command_line key).
 */
#ifndef STOREBENCH_CMDLINE_H
#define STOREBENCH_CMDLINE_H

#include "options.h"

struct cmdline {
	const char *given[OPT_COUNT]; /* each option's last value as typed ("" for a flag); NULL:
				       * not given (options_collect) */
	const char **gb;              /* Google Benchmark's flags (--benchmark_*, --v), in order */
	int ngb;                      /* how many */
	char *text;                   /* "storebench run <arguments>", as typed */
};

/*
 * Read argv (argv[0] is the subcommand) into cl.  0; 2 after one stderr line on bad input (an
 * unknown option, a refused Google Benchmark flag); -1 after printing the help; 1 out of memory.
 * cmdline_free after any of them.  The strings point into argv: keep it alive.
 */
int cmdline_read(int argc, char **argv, struct cmdline *cl);

void cmdline_free(struct cmdline *cl);

#endif
