/*
 * options_test.c — the one options table (bench/config/options.def) and what it generates: the
 * parser (--opt=value and --opt value, last wins, unknown or valueless options refused), the preset
 * cascade (command line over preset over default), the help and `list --presets --tsv`.  Plain C.
 */
#include <stdlib.h>
#include <string.h>

#include "options.h"
#include "test_util.h"

/* What print wrote, as one string (the caller frees it). */
static char *capture(void (*print)(FILE *, bool), bool arg)
{
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);

	print(m, arg);
	fclose(m);
	return text;
}

static void help_print(FILE *out, bool unused)
{
	(void)unused;
	options_help(out);
}

static void table(void)
{
	for (size_t i = 0; i < OPT_COUNT; i++) {
		const struct run_option *o = option_at(i);

		CHECK(o->name && o->name[0] && !strchr(o->name, '_') && !strchr(o->name, '='),
		      "option %zu: name '%s' (ids use _, names -)", i, o->name);
		CHECK(strncmp(o->name, "benchmark", 9), "--%s would shadow Google Benchmark's flags",
		      o->name);
		CHECK(o->help && o->help[0], "--%s has no help", o->name);
		CHECK(option_find(o->name, strlen(o->name)) == i, "--%s not found by name", o->name);
		for (size_t j = 0; j < i; j++)
			CHECK(strcmp(o->name, option_at(j)->name), "--%s twice", o->name);
	}
	CHECK(option_find("min-time", 8) == OPT_min_time && option_find("min_time", 8) == OPT_COUNT,
	      "names are ids with - for _");
	CHECK(option_find("call", 3) == OPT_COUNT, "a prefix is not an option");
	CHECK(option_at(OPT_help)->placeholder == NULL, "--help is a flag");
	for (size_t p = 0; p < presets_count(); p++) {
		const struct preset *pr = preset_at(p);

		for (size_t j = 0; j < p; j++)
			CHECK(strcmp(pr->name, preset_at(j)->name), "preset %s twice", pr->name);
		for (size_t i = 0; i < OPT_COUNT; i++) {
			const struct run_option *o = option_at(i);

			CHECK(!pr->value[i] || o->preset_field,
			      "preset %s sets --%s, which is not a preset field", pr->name, o->name);
			CHECK(!o->preset_field || pr->value[i] || o->dflt,
			      "preset %s leaves --%s without a value (no default either)", pr->name,
			      o->name);
		}
	}
	CHECK(option_at(OPT_preset)->dflt && !strcmp(option_at(OPT_preset)->dflt,
						      preset_at(0)->name),
	      "the default preset is the first row");
}

static int collect(const char *const *args, const char *given[OPT_COUNT])
{
	char *argv[16];
	int argc = 0;

	argv[argc++] = "run";
	while (*args)
		argv[argc++] = (char *)*args++;
	argv[argc] = NULL;
	return options_collect(argc, argv, given);
}

static void parser(void)
{
	const char *given[OPT_COUNT], *value[OPT_COUNT];
	const struct preset *pr;

	CHECK(collect((const char *[]){ "--call=64", "--ws", "hot", "--rw-mode=split", NULL },
		      given) == 0, "valid line refused");
	CHECK(given[OPT_call] && !strcmp(given[OPT_call], "64") && !strcmp(given[OPT_ws], "hot") &&
	      !strcmp(given[OPT_rw_mode], "split") && !given[OPT_threads], "values collected");
	CHECK(collect((const char *[]){ "--call", "64", "--call=128", "--ws=", NULL }, given) == 0 &&
	      !strcmp(given[OPT_call], "128") && !strcmp(given[OPT_ws], ""),
	      "the last value wins; --ws= is the empty value");
	CHECK(collect((const char *[]){ "--benchmark_filter=x", "--v=2", "--rw", "-5", NULL },
		      given) == 0 && !strcmp(given[OPT_rw], "-5"),
	      "--benchmark_* and --v= left to the shim; a value may start with one -");
	CHECK(collect((const char *[]){ "--thread", "2", NULL }, given) == 2, "unknown option");
	CHECK(collect((const char *[]){ "--call", NULL }, given) == 2, "missing value");
	CHECK(collect((const char *[]){ "--call", "--ws", "hot", NULL }, given) == 2,
	      "an option as a value");
	CHECK(collect((const char *[]){ "--help=yes", NULL }, given) == 2, "flag with a value");
	CHECK(collect((const char *[]){ "64", NULL }, given) == 2, "bare argument");
	CHECK(collect((const char *[]){ "-x", NULL }, given) == 2, "short option");
	CHECK(collect((const char *[]){ "--benchmark_out=x.json", NULL }, given) == 2,
	      "--benchmark_out refused");

	/* cascade: command line, then the preset, then the option's default */
	CHECK(collect((const char *[]){ "--preset", "memtouch", "--rw", "75", "--misalign", "8",
					NULL }, given) == 0, "memtouch line");
	CHECK(options_resolve(given, value, &pr) == 0 && !strcmp(pr->name, "memtouch"), "resolve");
	CHECK(!strcmp(value[OPT_rw], "75"), "command line over preset: rw %s", value[OPT_rw]);
	CHECK(!strcmp(value[OPT_rw_layout], pr->value[OPT_rw_layout]), "preset over default");
	CHECK(!strcmp(value[OPT_misalign], "8") && !strcmp(value[OPT_fill],
							     option_at(OPT_fill)->dflt),
	      "defaults of options no preset sets");
	CHECK(value[OPT_csv] == NULL, "derived default stays NULL");
	CHECK(collect((const char *[]){ NULL }, given) == 0 && options_resolve(given, value, &pr) == 0 &&
	      !strcmp(pr->name, option_at(OPT_preset)->dflt) && !strcmp(value[OPT_rw],
									option_at(OPT_rw)->dflt),
	      "no options: the default preset; a field it leaves out takes the default");
	CHECK(collect((const char *[]){ "--preset=bogus", NULL }, given) == 0 &&
	      options_resolve(given, value, &pr) == 2, "unknown preset");
}

static void help(void)
{
	char *text = capture(help_print, false), *line, *save = NULL;
	size_t labels[OPT_COUNT] = { 0 };

	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		CHECK(strlen(line) <= HELP_WIDTH, "help line of %zu columns: %s", strlen(line), line);
		for (size_t i = 0; i < OPT_COUNT; i++) {
			size_t n = strlen(option_at(i)->name);

			if (!strncmp(line, "  --", 4) && !strncmp(line + 4, option_at(i)->name, n) &&
			    (line[4 + n] == ' ' || !line[4 + n]))
				labels[i]++;
		}
	}
	free(text);
	for (size_t i = 0; i < OPT_COUNT; i++)
		CHECK(labels[i] == 1, "--%s listed %zu times in the help", option_at(i)->name, labels[i]);
	text = capture(help_print, false);
	for (size_t s = 0; s < SECTION_COUNT; s++)
		CHECK(!section_at(s)->title[0] || strstr(text, section_at(s)->title),
		      "section '%s' missing", section_at(s)->title);
	for (size_t p = 0; p < presets_count(); p++)
		CHECK(strstr(text, preset_at(p)->name), "preset %s missing", preset_at(p)->name);
	CHECK(strstr(text, "(default 0xa5)") && strstr(text, "(preset; default 4KiB)"),
	      "defaults not shown from the table");
	free(text);
}

static void presets_tsv(void)
{
	char *text = capture(presets_print, true), *line, *save = NULL;
	size_t lines = 0, fields = 1;

	for (size_t i = 0; i < OPT_COUNT; i++)
		fields += option_at(i)->preset_field;
	line = strtok_r(text, "\n", &save);
	CHECK(line && !strncmp(line, "name\tkernels\tcall\tws\tthreads\trepetitions\tmin-time\t"
				    "rounds\tbudget\trw\trw-mode\trw-layout\tchunk", 90), "header: %s",
	      line ? line : "none");
	for (; line; line = strtok_r(NULL, "\n", &save), lines++) {
		size_t cols = 1;

		for (char *c = line; *c; c++)
			cols += *c == '\t';
		CHECK(cols == fields, "%zu columns, want %zu: %s", cols, fields, line);
		CHECK(lines == 0 || !strncmp(line, preset_at(lines - 1)->name,
					     strlen(preset_at(lines - 1)->name)), "row %s", line);
	}
	CHECK(lines == presets_count() + 1, "%zu lines for %zu presets", lines, presets_count());
	free(text);
	text = capture(presets_print, false);
	CHECK(strstr(text, "--call L1d/4..DRAM:x2") && strstr(text, "--rw-layout contiguous"),
	      "people's listing lacks a preset value");
	free(text);
}

int main(void)
{
	table();
	parser();
	help();
	presets_tsv();
	return test_result("ok: options table, parser, cascade, help, presets");
}
