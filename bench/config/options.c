/*
 * options.c — the options table of `storebench run` (expanded from options.def), the argument
 * parser it generates and the preset cascade.  Plain C.  The parser only collects strings; what
 * each value means is run_config.c's job, so presets and command line go through the same checks.
 */
#include "options.h"

#include <stdio.h>
#include <string.h>

#include "gbflags.h"
#include "suggest.h"

#define PRESET_FIELD true
#define CMDLINE_ONLY false

/* Long enough for every id (checked per row below); names are derived from ids, never typed. */
#define OPTION_NAME_MAX 32

static struct run_option table[OPT_COUNT] = {
#define OPTION(id, placeholder, section, preset, dflt, help) \
	[OPT_##id] = { NULL, placeholder, SECTION_##section, preset, dflt, help },
#include "options.def"
};

#define OPTION(id, placeholder, section, preset, dflt, help) \
	_Static_assert(sizeof #id <= OPTION_NAME_MAX, "option id too long: " #id);
#include "options.def"

static const char *const ids[OPT_COUNT] = {
#define OPTION(id, placeholder, section, preset, dflt, help) [OPT_##id] = #id,
#include "options.def"
};

static const struct help_section sections[SECTION_COUNT] = {
#define SECTION(id, title, text) [SECTION_##id] = { title, text },
#include "options.def"
};

static const struct preset presets[] = {
#define SET(id, v) [OPT_##id] = v,
#define PRESET(name, desc, values) { #name, desc, { values } },
#include "options.def"
#undef SET
};

/* "min_time" -> "min-time", once: the C identifier and the option name are one spelling. */
static void names_init(void)
{
	static char names[OPT_COUNT][OPTION_NAME_MAX];

	if (table[0].name)
		return;
	for (size_t i = 0; i < OPT_COUNT; i++) {
		for (size_t c = 0; ids[i][c]; c++)
			names[i][c] = ids[i][c] == '_' ? '-' : ids[i][c];
		table[i].name = names[i];
	}
}

const struct run_option *option_at(size_t i)
{
	names_init();
	return &table[i];
}

const struct help_section *section_at(size_t i)
{
	return &sections[i];
}

size_t presets_count(void)
{
	return sizeof presets / sizeof presets[0];
}

const struct preset *preset_at(size_t i)
{
	return &presets[i];
}

enum option_id option_find(const char *name, size_t len)
{
	names_init();
	for (size_t i = 0; i < OPT_COUNT; i++)
		if (strlen(table[i].name) == len && !strncmp(table[i].name, name, len))
			return (enum option_id)i;
	return OPT_COUNT;
}

static const char *option_name(size_t i)
{
	return option_at(i)->name;
}

static const char *preset_name(size_t i)
{
	return presets[i].name;
}

static int unknown_option(const char *arg)
{
	size_t nlen = strcspn(arg + 2, "=");
	char word[OPTION_NAME_MAX * 2], hint[256];

	snprintf(word, sizeof word, "%.*s", (int)nlen, arg + 2);
	suggest_names(word, option_name, OPT_COUNT, "--", hint, sizeof hint);
	if (hint[0])
		fprintf(stderr, "storebench run: unknown option '%s' (did you mean %s?)\n", arg, hint);
	else
		fprintf(stderr, "storebench run: unknown option '%s' (see storebench run --help)\n",
			arg);
	return 2;
}

int options_collect(int argc, char **argv, const char *given[OPT_COUNT])
{
	for (size_t i = 0; i < OPT_COUNT; i++)
		given[i] = NULL;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *eq;
		enum option_id id;

		if (!strcmp(a, "-h")) {
			options_help(stdout);
			return -1;
		}
		if (gbflag_is(a)) {
			if (gbflag_check(a))
				return 2;
			continue;
		}
		if (strncmp(a, "--", 2)) {
			fprintf(stderr, "storebench run: unexpected argument '%s' (options start with --; "
				"see storebench run --help)\n", a);
			return 2;
		}
		eq = strchr(a, '=');
		id = option_find(a + 2, eq ? (size_t)(eq - a - 2) : strlen(a + 2));
		if (id == OPT_COUNT)
			return unknown_option(a);
		if (!table[id].placeholder) {
			if (eq) {
				fprintf(stderr, "storebench run: --%s takes no value, got '%s'\n",
					table[id].name, eq + 1);
				return 2;
			}
			if (id == OPT_help) {
				options_help(stdout);
				return -1;
			}
			given[id] = "";
		} else if (eq) {
			given[id] = eq + 1;
		} else if (i + 1 < argc && strncmp(argv[i + 1], "--", 2)) {
			given[id] = argv[++i];
		} else {
			if (i + 1 < argc)
				fprintf(stderr, "storebench run: --%s needs a value (%s), got the option "
					"'%s'; for a value that starts with --, write --%s=VALUE\n",
					table[id].name, table[id].placeholder, argv[i + 1],
					table[id].name);
			else
				fprintf(stderr, "storebench run: --%s needs a value (%s)\n",
					table[id].name, table[id].placeholder);
			return 2;
		}
	}
	return 0;
}

int options_resolve(const char *const given[OPT_COUNT], const char *value[OPT_COUNT],
		    const struct preset **preset)
{
	const char *name = given[OPT_preset] ? given[OPT_preset] : table[OPT_preset].dflt;

	*preset = NULL;
	for (size_t i = 0; i < presets_count(); i++)
		if (!strcmp(presets[i].name, name))
			*preset = &presets[i];
	if (!*preset) {
		char hint[256];

		suggest_names(name, preset_name, presets_count(), "", hint, sizeof hint);
		fprintf(stderr, "storebench run: --preset '%s': no such preset; want one of", name);
		for (size_t i = 0; i < presets_count(); i++)
			fprintf(stderr, "%s %s", i ? "," : "", presets[i].name);
		fprintf(stderr, "%s%s%s\n", hint[0] ? " (did you mean " : "", hint, hint[0] ? "?)" : "");
		return 2;
	}
	for (size_t i = 0; i < OPT_COUNT; i++) {
		value[i] = given[i];
		if (!value[i] && table[i].preset_field)
			value[i] = (*preset)->value[i];
		if (!value[i])
			value[i] = table[i].dflt;
	}
	/* a preset's rounds and budget are its plan for its own repetitions: a command line that
	 * sets the repetitions or the rounds gets the rounds and budget it says (default 1 and 0) */
	if (given[OPT_repetitions] || given[OPT_rounds]) {
		value[OPT_rounds] = given[OPT_rounds] ? given[OPT_rounds] : table[OPT_rounds].dflt;
		value[OPT_budget] = given[OPT_budget] ? given[OPT_budget] : table[OPT_budget].dflt;
	}
	value[OPT_preset] = name;
	return 0;
}
