/*
 * docgen.c — writes the man page storebench(1) and the bash completion from the tables storebench
 * itself is built from: commands.def, options.def (sections, options, presets) and kernels.def.
 * Plain C, build-time only (not installed).  Why: a page or a completion typed by hand drifts.
 */
#include <stdio.h>
#include <string.h>

#include "kernels.h"
#include "options.h"
#include "version.h"

struct command_option {
	const char *command;     /* "list" or "info" */
	const char *name;        /* without the leading "--" */
	const char *placeholder; /* the value's name, NULL for a flag */
	const char *help;        /* one sentence */
};

struct command {
	const char *name; /* the command word; "version" stands for --version */
	const char *args; /* synopsis after the word */
	const char *help; /* a paragraph */
};

static const struct command commands[] = {
#define COMMAND(id, args, help) { #id, args, help },
#include "commands.def"
};
#define COMMANDS (sizeof commands / sizeof commands[0])

static const struct command_option command_options[] = {
#define COMMAND_OPTION(command, name, placeholder, help) { #command, name, placeholder, help },
#include "commands.def"
};
#define COMMAND_OPTIONS (sizeof command_options / sizeof command_options[0])

/*
 * Text as roff: backslashes escaped, every hyphen of a word that starts with one (an option:
 * --min-time, -h) is a minus sign, so the rendered page shows what to type and a search for it
 * finds it (a plain hyphen renders as U+2010); all of them when literal (names, values), where a
 * long list may also break after a comma.  A line never starts with a control character, and
 * "\n" in the table's text (a new paragraph) is brk.
 */
static void roff_text(FILE *out, const char *text, const char *brk, bool literal)
{
	bool option = false;

	for (const char *p = text; *p; p++) {
		bool word_start = p == text || strchr(" \n(`", p[-1]);

		if (word_start)
			option = *p == '-';
		if ((p == text || p[-1] == '\n') && (*p == '.' || *p == '\''))
			fputs("\\&", out);
		if (*p == '\\')
			fputs("\\e", out);
		else if (*p == '-' && (option || literal))
			fputs("\\-", out);
		else if (*p == '\n')
			fprintf(out, "\n%s\n", brk);
		else if (*p == ',' && literal)
			fputs(",\\:", out); /* a list may break after its commas, never inside a name */
		else
			fputc(*p, out);
	}
}

static void roff(FILE *out, const char *text, const char *brk)
{
	roff_text(out, text, brk, false);
}

static void roff_literal(FILE *out, const char *text)
{
	roff_text(out, text, "", true);
}

/* "--name PLACEHOLDER" in bold and italics. */
static void roff_option(FILE *out, const char *name, const char *placeholder)
{
	fputs("\\fB\\-\\-", out);
	roff_literal(out, name);
	fputs("\\fR", out);
	if (placeholder) {
		fputs(" \\fI", out);
		roff(out, placeholder, "");
		fputs("\\fR", out);
	}
	fputc('\n', out);
}

static void man_presets(FILE *out)
{
	/* left-adjusted: a long list broken after its commas leaves lines with no space to stretch */
	fputs(".ad l\n", out);
	for (size_t p = 0; p < presets_count(); p++) {
		const struct preset *pr = preset_at(p);

		fprintf(out, ".TP\n.B %s\n", pr->name);
		roff(out, pr->desc, ".br");
		fputs(":\n.br\n", out);
		for (size_t i = 0; i < OPT_COUNT; i++) {
			const char *v = pr->value[i] ? pr->value[i] : option_at(i)->dflt;

			if (option_at(i)->preset_field && v) {
				fputs("\\fB\\-\\-", out);
				roff_literal(out, option_at(i)->name);
				fputs("\\fR ", out);
				roff_literal(out, v);
				fputc('\n', out);
			}
		}
	}
	fputs(".ad b\n", out);
}

static void man_run_options(FILE *out)
{
	for (size_t s = 0; s < SECTION_COUNT; s++) {
		const struct help_section *sec = section_at(s);

		if (sec->title[0]) {
			fputs(".SS ", out);
			roff(out, sec->title, "");
			fputc('\n', out);
		}
		if (sec->text[0] && s != SECTION_about) { /* DESCRIPTION has said it */
			fputs(".PP\n", out);
			roff(out, sec->text, ".PP");
			fputc('\n', out);
		}
		for (size_t i = 0; i < OPT_COUNT; i++) {
			const struct run_option *o = option_at(i);

			if (o->section != s)
				continue;
			fputs(".TP\n", out);
			roff_option(out, o->name, o->placeholder);
			roff(out, o->help, ".br");
			if (o->preset_field || o->dflt) {
				fprintf(out, " (%s%s", o->preset_field ? "preset" : "",
					o->preset_field && o->dflt ? "; " : "");
				if (o->dflt) {
					fputs("default ", out);
					roff_literal(out, o->dflt);
				}
				fputc(')', out);
			}
			fputc('\n', out);
			if (i == OPT_preset) {
				fputs(".RS\n", out);
				man_presets(out);
				fputs(".RE\n", out);
			}
		}
	}
}

static void man_command_options(FILE *out, const char *command)
{
	for (size_t i = 0; i < COMMAND_OPTIONS; i++) {
		const struct command_option *o = &command_options[i];

		if (strcmp(o->command, command))
			continue;
		fputs(".TP\n", out);
		roff_option(out, o->name, o->placeholder);
		roff(out, o->help, ".br");
		fputc('\n', out);
	}
}

/* The page; scripts: the names of the installed storebench-<name> commands (SEE ALSO). */
static void man(FILE *out, char **scripts, int nscripts)
{
	fputs(".\\\" storebench(1) — generated by docgen from bench/cli/commands.def,\n"
	      ".\\\" bench/config/options.def and kernels/kernels.def; edit those, not this file.\n",
	      out);
	fprintf(out, ".TH STOREBENCH 1 \"\" \"storebench %s\" \"User Commands\"\n", STOREBENCH_VERSION);
	fputs(".nh\n", out); /* no hyphenation: an option name is never split across lines */
	fputs(".SH NAME\nstorebench \\- which way of storing bytes to memory is fastest on this "
	      "machine\n.SH SYNOPSIS\n", out);
	for (size_t c = 0; c < COMMANDS; c++) {
		fputs(".B storebench\n", out);
		if (strcmp(commands[c].name, "version"))
			fprintf(out, ".B %s\n", commands[c].name);
		else
			fputs(".B \\-\\-version\n", out);
		if (commands[c].args[0]) {
			roff(out, commands[c].args, "");
			fputc('\n', out);
		}
		fputs(".br\n", out);
	}
	fputs(".SH DESCRIPTION\n", out);
	roff(out, section_at(SECTION_about)->text, ".PP");
	fputs("\n.PP\nEvery kernel is run only where CPUID and XGETBV say this CPU and OS can run it; "
	      "a buffer is verified after each measurement, and a failed check is an error, not a "
	      "number.  Without a command, \\fBstorebench\\fR runs the quick preset.\n"
	      ".SH COMMANDS\n", out);
	for (size_t c = 0; c < COMMANDS; c++) {
		fputs(".TP\n", out);
		if (strcmp(commands[c].name, "version"))
			fprintf(out, ".B %s\n", commands[c].name);
		else
			fputs(".B \\-\\-version\n", out);
		roff(out, commands[c].help, ".br");
		fputc('\n', out);
	}
	fputs(".SH RUN OPTIONS\n", out);
	man_run_options(out);
	fputs(".SH LIST OPTIONS\n", out);
	man_command_options(out, "list");
	fputs(".SH INFO OPTIONS\n", out);
	man_command_options(out, "info");
	fputs(".SH KERNELS\nThe store kernels (\\fBstorebench list\\fR says which this CPU runs, "
	      "and why not):\n", out);
	for (size_t k = 0; k < kernel_count; k++) {
		fputs(".TP\n.B ", out);
		roff_literal(out, kernel_table[k].name);
		fputc('\n', out);
		roff(out, kernel_table[k].desc, ".br");
		fputc('\n', out);
	}
	fputs(".SH ENVIRONMENT\n"
	      ".TP\n.B HWLOC_XMLFILE\nreplay this hwloc XML topology (\\fBinfo\\fR and \\fBlist\\fR; "
	      "\\fBrun\\fR refuses it)\n"
	      ".TP\n.B HWLOC_SYNTHETIC, HWLOC_FSROOT, HWLOC_CPUID_PATH, HWLOC_COMPONENTS, "
	      "HWLOC_THISSYSTEM\nother ways hwloc loads a topology that is not this machine's: "
	      "\\fBrun\\fR refuses each\n"
	      ".TP\n.B GLIBC_TUNABLES\nrecorded in every CSV: it changes what libc's memset does\n"
	      ".TP\n.B STOREBENCH_BIN\nthe binary the storebench\\-* scripts run (the installed "
	      "wrappers set it to their own storebench)\n"
	      ".SH FILES\n"
	      ".TP\n.I results/<machine>/<UTC time>.csv\nthe default CSV, relative to the current "
	      "directory, with the Google Benchmark JSON beside it; never overwritten\n"
	      ".TP\n.I share/storebench/\nthe plot, table, compare\\-cpus, trend, nightly and history "
	      "scripts (run as \\fBstorebench\\-plot\\fR, ...) and their gnuplot files\n"
	      ".TP\n.I share/doc/storebench/\nREADME.md, docs/ and results/README.md (every CSV "
	      "column)\n"
	      ".SH SEE ALSO\n", out);
	for (int i = 0; i < nscripts; i++)
		fprintf(out, ".BR storebench\\-%s (1),\n", scripts[i]);
	fputs(".BR gnuplot (1),\n.BR lstopo (1)\n", out);
}

/* Words of a bash array assignment: name=(w1 w2 ...). */
static void bash_words_begin(FILE *out, const char *name)
{
	fprintf(out, "\tlocal %s=(", name);
}

static void bash_run_options(FILE *out, bool valued)
{
	bash_words_begin(out, valued ? "run_valued" : "run_opts");
	for (size_t i = 0; i < OPT_COUNT; i++)
		if (!valued || option_at(i)->placeholder)
			fprintf(out, " --%s", option_at(i)->name);
	fputs(valued ? " )\n" : " -h )\n", out);
}

static void bash_command_options(FILE *out, const char *command, bool valued)
{
	fprintf(out, "\tlocal %s_%s=(", command, valued ? "valued" : "opts");
	for (size_t i = 0; i < COMMAND_OPTIONS; i++)
		if (!strcmp(command_options[i].command, command) &&
		    (!valued || command_options[i].placeholder))
			fprintf(out, " --%s", command_options[i].name);
	fputs(valued ? " )\n" : " --help )\n", out);
}

/* "all", then each family (the name up to its first '_', as --kernels takes "avx2"), once. */
static void bash_kernel_words(FILE *out)
{
	fputs("\tlocal kernels=( all", out);
	for (size_t k = 0; k < kernel_count; k++) {
		const char *name = kernel_table[k].name, *us = strchr(name, '_');
		bool seen = false;

		if (!us)
			continue;
		for (size_t j = 0; j < k && !seen; j++)
			seen = !strncmp(kernel_table[j].name, name, (size_t)(us - name + 1));
		if (!seen)
			fprintf(out, " %.*s", (int)(us - name), name);
	}
	for (size_t k = 0; k < kernel_count; k++)
		fprintf(out, " %s", kernel_table[k].name);
	fputs(" )\n", out);
}

static void bash(FILE *out)
{
	fputs("# storebench(1) bash completion — generated by docgen from bench/cli/commands.def,\n"
	      "# bench/config/options.def and kernels/kernels.def; edit those, not this file.\n"
	      "# Commands, options of each command, kernel names and families for --kernels (a comma\n"
	      "# list: the last element is completed), presets for --preset, files for file options.\n"
	      "_storebench()\n{\n"
	      "\tlocal cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]} cmd= i\n", out);
	fputs("\tlocal commands=(", out);
	for (size_t c = 0; c < COMMANDS; c++)
		fprintf(out, " %s%s", strcmp(commands[c].name, "version") ? "" : "--",
			commands[c].name);
	fputs(" )\n", out); /* -h and --help: in run_opts, offered with the commands */
	bash_run_options(out, false);
	bash_run_options(out, true);
	bash_command_options(out, "list", false);
	bash_command_options(out, "list", true);
	bash_command_options(out, "info", false);
	bash_command_options(out, "info", true);
	fputs("\tlocal presets=(", out);
	for (size_t p = 0; p < presets_count(); p++)
		fprintf(out, " %s", preset_at(p)->name);
	fputs(" )\n", out);
	bash_kernel_words(out);
	fputs("\t# --opt=value: bash splits at '=', so the option is the word before the '='.\n"
	      "\tif [[ $cur == = ]]; then prev=${COMP_WORDS[COMP_CWORD-1]}; cur=\n"
	      "\telif [[ $prev == = ]]; then prev=${COMP_WORDS[COMP_CWORD-2]}; fi\n"
	      "\tfor ((i = 1; i < COMP_CWORD; i++)); do\n"
	      "\t\tcase ${COMP_WORDS[i]} in\n"
	      "\t\trun|list|info|help) cmd=${COMP_WORDS[i]}; break ;;\n"
	      "\t\t-*) cmd=run; break ;;  # options alone imply run\n"
	      "\t\tesac\n"
	      "\tdone\n"
	      "\tif [[ -z $cmd ]]; then\n"
	      "\t\tCOMPREPLY=( $(compgen -W \"${commands[*]} ${run_opts[*]}\" -- \"$cur\") )\n"
	      "\t\treturn\n"
	      "\tfi\n"
	      "\tlocal -n opts=${cmd}_opts valued=${cmd}_valued 2>/dev/null || return\n"
	      "\tif [[ \" ${valued[*]} \" == *\" $prev \"* ]]; then\n"
	      "\t\tcase $prev in\n"
	      "\t\t--preset) COMPREPLY=( $(compgen -W \"${presets[*]}\" -- \"$cur\") ) ;;\n"
	      "\t\t--kernels)\n"
	      "\t\t\tlocal head=\n"
	      "\t\t\t[[ $cur == *,* ]] && head=${cur%,*},\n"
	      "\t\t\tCOMPREPLY=( $(compgen -P \"$head\" -W \"${kernels[*]}\" -- \"${cur##*,}\") )\n"
	      "\t\t\tcompopt -o nospace 2>/dev/null ;;\n"
	      "\t\t--csv|--json|--topology|--cpuid) COMPREPLY=( $(compgen -f -- \"$cur\") ) ;;\n"
	      "\t\tesac\n"
	      "\t\treturn\n"
	      "\tfi\n"
	      "\t[[ $cmd == help ]] && return\n"
	      "\tCOMPREPLY=( $(compgen -W \"${opts[*]}\" -- \"$cur\") )\n"
	      "}\n"
	      "complete -F _storebench storebench\n", out);
}

int main(int argc, char **argv)
{
	if (argc >= 2 && !strcmp(argv[1], "man")) {
		man(stdout, argv + 2, argc - 2);
	} else if (argc == 2 && !strcmp(argv[1], "bash")) {
		bash(stdout);
	} else {
		fputs("usage: docgen man [SCRIPT...] | bash\n", stderr);
		return 2;
	}
	return fflush(stdout) ? 1 : 0;
}
