/*
 * main.c — storebench entry point: picks the subcommand (list, info, run, help, --version).
 * Plain C, no ISA flags.  No subcommand means `run` with its default (quick) preset, so the bare
 * command does the product's main job.  The command list is bench/cli/commands.def.
 */
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "metadata.h"
#include "options.h"
#include "version.h"

static void usage(FILE *out)
{
	static const struct {
		const char *name; /* the command word; "version" is spelled --version */
		const char *help; /* its line of commands.def */
	} rows[] = {
#define COMMAND(id, args, help) { #id, help },
#include "commands.def"
	};

	fputs("usage: storebench [COMMAND] [OPTIONS]\n"
	      "Measures which way of storing bytes to memory is fastest on this machine.\n"
	      "\ncommands:\n", out);
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		int n = fprintf(out, "  %s%s", strcmp(rows[i].name, "version") ? "" : "--",
				rows[i].name);

		fprintf(out, "%*s", n < 14 ? 14 - n : 1, "");
		help_wrap(out, rows[i].help, 14, 14);
		fputc('\n', out);
	}
	fputs("\n`storebench <command> --help` tells more; man storebench tells all.\n", out);
}

int main(int argc, char **argv)
{
	static const struct {
		const char *name;
		int (*fn)(int argc, char **argv);
	} cmds[] = {
		{ "run", cmd_run }, { "list", cmd_list }, { "info", cmd_info }, { "load", cmd_load },
		{ "class", cmd_class }, { "capture", cmd_capture },
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
		/* The CSV's own keys, from the same writer, so a result and a binary compare by eye. */
		printf("storebench %s\n", STOREBENCH_VERSION);
		metadata_build_id(stdout, "");
		metadata_build_flags(stdout, "");
		return fflush(stdout) ? 1 : 0;
	}
	fprintf(stderr, "storebench: unknown command '%s' (try 'storebench help')\n", argv[1]);
	return 2;
}
