/*
 * options_help.c — `storebench run --help` and `storebench list --presets`, printed from the
 * options table.  Plain C.  Nothing here is typed twice: names, placeholders, defaults and preset
 * values all come from options.def, wrapped to HELP_WIDTH columns.
 */
#include <string.h>

#include "options.h"

/* Column where option help starts; a longer option label puts its help on the next line. */
#define HELP_COLUMN 24

size_t help_wrap(FILE *out, const char *text, size_t col, size_t indent)
{
	bool line_start = col == indent;

	while (*text) {
		size_t len;

		if (*text == '\n') {
			fprintf(out, "\n%*s", (int)indent, "");
			col = indent;
			line_start = true;
			text++;
			continue;
		}
		if (*text == ' ') {
			text++;
			continue;
		}
		len = strcspn(text, " \n");
		/* an option name stays on the line of the word before it, so no prose line starts
		 * with "--", which reads as an option of its own (and did to the tests) */
		while (text[len] == ' ' && !strncmp(text + len + 1, "--", 2))
			len += 1 + strcspn(text + len + 1, " \n");
		if (!line_start && col + 1 + len > HELP_WIDTH) {
			fprintf(out, "\n%*s", (int)indent, "");
			col = indent;
			line_start = true;
		}
		if (!line_start) {
			fputc(' ', out);
			col++;
		}
		fwrite(text, 1, len, out);
		col += len;
		text += len;
		line_start = false;
	}
	return col;
}

/* "(preset; default 4KiB)" or "(default 0)" as one unbreakable unit after the help text, on the
 * next line when it does not fit. */
static void put_default(FILE *out, const struct run_option *o, size_t col)
{
	const char *head = o->preset_field ? o->dflt ? "(preset; default " : "(preset" : "(default ";
	const char *value = o->dflt ? o->dflt : "";
	size_t len = strlen(head) + strlen(value) + 1;

	if (!o->preset_field && !o->dflt)
		return;
	if (col + 1 + len > HELP_WIDTH)
		fprintf(out, "\n%*s", HELP_COLUMN, "");
	else
		fputc(' ', out);
	fprintf(out, "%s%s)", head, value);
}

static void print_presets_brief(FILE *out)
{
	size_t w = 0;

	for (size_t i = 0; i < presets_count(); i++)
		if (strlen(preset_at(i)->name) > w)
			w = strlen(preset_at(i)->name);
	for (size_t i = 0; i < presets_count(); i++) {
		const struct preset *p = preset_at(i);

		fprintf(out, "%*s%-*s  ", HELP_COLUMN + 2, "", (int)w, p->name);
		help_wrap(out, p->desc, HELP_COLUMN + 4 + w, HELP_COLUMN + 4 + w);
		fputc('\n', out);
	}
}

static void print_option(FILE *out, const struct run_option *o, enum option_id id)
{
	int n = fprintf(out, "  --%s%s%s", o->name, o->placeholder ? " " : "",
			o->placeholder ? o->placeholder : "");

	if (n + 2 > HELP_COLUMN)
		fprintf(out, "\n%*s", HELP_COLUMN, "");
	else
		fprintf(out, "%*s", HELP_COLUMN - n, "");
	put_default(out, o, help_wrap(out, o->help, HELP_COLUMN, HELP_COLUMN));
	fputc('\n', out);
	if (id == OPT_preset)
		print_presets_brief(out);
}

void options_help(FILE *out)
{
	fputs("usage: storebench run [OPTIONS] [--benchmark_* FLAGS]\n", out);
	for (size_t s = 0; s < SECTION_COUNT; s++) {
		const struct help_section *sec = section_at(s);

		if (sec->title[0])
			fprintf(out, "\n%s:\n", sec->title);
		if (sec->text[0]) {
			fputs(sec->title[0] ? "  " : "", out);
			help_wrap(out, sec->text, sec->title[0] ? 2 : 0, sec->title[0] ? 2 : 0);
			fputc('\n', out);
		}
		for (size_t i = 0; i < OPT_COUNT; i++)
			if (option_at(i)->section == s)
				print_option(out, option_at(i), (enum option_id)i);
	}
}

const char *preset_value(const struct preset *p, size_t i)
{
	return p->value[i] ? p->value[i] : option_at(i)->dflt ? option_at(i)->dflt : "";
}

void presets_print(FILE *out, bool tsv)
{
	size_t w = 0;

	if (tsv) {
		fputs("name", out);
		for (size_t i = 0; i < OPT_COUNT; i++)
			if (option_at(i)->preset_field)
				fprintf(out, "\t%s", option_at(i)->name);
		fputc('\n', out);
		for (size_t p = 0; p < presets_count(); p++) {
			fputs(preset_at(p)->name, out);
			for (size_t i = 0; i < OPT_COUNT; i++)
				if (option_at(i)->preset_field)
					fprintf(out, "\t%s", preset_value(preset_at(p), i));
			fputc('\n', out);
		}
		return;
	}
	for (size_t p = 0; p < presets_count(); p++)
		if (strlen(preset_at(p)->name) > w)
			w = strlen(preset_at(p)->name);
	for (size_t p = 0; p < presets_count(); p++) {
		const struct preset *pr = preset_at(p);
		size_t col;

		fprintf(out, "%-*s  ", (int)w, pr->name);
		help_wrap(out, pr->desc, w + 2, w + 2);
		fprintf(out, "\n%*s", (int)w + 2, "");
		col = w + 2;
		for (size_t i = 0; i < OPT_COUNT; i++) {
			const char *name = option_at(i)->name, *value = preset_value(pr, i);
			size_t len = 3 + strlen(name) + strlen(value);

			if (!option_at(i)->preset_field)
				continue;
			/* an option and its value stay on one line */
			if (col > w + 2 && col + 1 + len > HELP_WIDTH) {
				fprintf(out, "\n%*s", (int)w + 2, "");
				col = w + 2;
			} else if (col > w + 2) {
				fputc(' ', out);
				col++;
			}
			fprintf(out, "--%s %s", name, value);
			col += len;
		}
		fputc('\n', out);
	}
}
