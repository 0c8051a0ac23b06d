/*
 * main.c — storebench entry point: picks the subcommand (list, info, run, help, --version).
 * Plain C, no ISA flags.  No subcommand means `run` with its default (quick) preset, so the bare
 * command does the product's main job.
 */
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "version.h"

static void usage(FILE *out)
{
	fputs("usage: storebench [COMMAND] [OPTIONS]\n"
	      "Measures which way of storing bytes to memory is fastest on this machine.\n"
	      "\n"
	      "commands:\n"
	      "  run [OPTIONS]   sweep kernels over sizes, threads and mixes; write CSV and JSON\n"
	      "                  (the default command; `storebench run --help` lists its options)\n"
	      "  list [--tsv]    every store kernel, its shape and whether this CPU can run it\n"
	      "  info [--json]   this machine as key=value lines (CPU, caches, NUMA, OS, build);\n"
	      "                  --topology FILE.xml / --cpuid FILE replay another (info, list)\n"
	      "  help, -h        this text\n"
	      "  --version       version and git sha\n", out);
}

int main(int argc, char **argv)
{
	static const struct {
		const char *name;
		int (*fn)(int argc, char **argv);
	} cmds[] = {
		{ "run", cmd_run }, { "list", cmd_list }, { "info", cmd_info },
	};

	if (argc < 2)
		return cmd_run(1, (char *[]){ "run", NULL });
	if (argv[1][0] == '-' && strcmp(argv[1], "-h") && strcmp(argv[1], "--help") &&
	    strcmp(argv[1], "--version"))
		return cmd_run(argc, argv); /* options alone imply run: `storebench --preset nightly` */
	for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++)
		if (strcmp(argv[1], cmds[i].name) == 0)
			return cmds[i].fn(argc - 1, argv + 1);
	if (!strcmp(argv[1], "help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("storebench %s (%s)\n", STOREBENCH_VERSION, STOREBENCH_GIT_SHA);
		return 0;
	}
	fprintf(stderr, "storebench: unknown command '%s' (try 'storebench help')\n", argv[1]);
	return 2;
}
