/*
 * options.h — the one table of `storebench run` options and presets (options.def), and what is
 * generated from it: the argument parser, the preset cascade, --help and the preset listing.
 * Plain C.  A man page or completion generator walks the same table: option_at(), section_at().
 */
#ifndef STOREBENCH_OPTIONS_H
#define STOREBENCH_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "canary_rules.h"
#include "effective.h"
#include "plan_rules.h"
#include "quality.h"
#include "sizes.h"

/* Limits of single-valued options: enforced in run_config.c, stated in their help in
 * options.def. */
#define REPETITIONS_MAX 100000
#define ROUNDS_MAX 1000

/* Rounds of a run with its contests: a contest round may be a single duel, and the duels a
 * run's claims can use (COMPARE_LOOK_LAST for each open kernel) are its real bound; this one
 * only stops a runaway. */
#define CONTEST_ROUNDS_MAX 100000
#define TIE_BAND_DEFAULT 0.03        /* --tie-band: a paired ratio within 1 +- 3 % is a tie */
#define TIE_BAND_MAX 0.5
#define BUDGET_MAX_S 86400           /* --budget: a day */
#define MIN_TIME_MIN_S 0.000001
#define MIN_TIME_MAX_S 3600
#define SLOWDOWN_MAX_PCT 1000
#define STALL_MAX_MS 10000
#define SKEW_MAX_US 1000000
#define QUALITY_CV_LIMIT 10          /* --cv-max: beyond 1000% it would flag nothing */
#define QUALITY_BATCH_NS_LO 1000     /* --batch-ns-min: a microsecond to a second */
#define QUALITY_BATCH_NS_HI 1000000000
#define QUALITY_OUTLIER_LO 1         /* --outlier-mads */
#define QUALITY_OUTLIER_HI 1000
#define MACHINE_ID_MAX 100 /* characters of --machine, a single path component */

/* A number macro as help text: "1.." OPTIONS_STR(REPETITIONS_MAX). */
#define OPTIONS_STR(x) OPTIONS_STR_(x)
#define OPTIONS_STR_(x) #x

enum option_id {
#define OPTION(id, placeholder, section, preset, dflt, help) OPT_##id,
#include "options.def"
	OPT_COUNT
};

enum section_id {
#define SECTION(id, title, text) SECTION_##id,
#include "options.def"
	SECTION_COUNT
};

struct run_option {
	const char *name;        /* "min-time": the option without its leading "--" */
	const char *placeholder; /* the value's name in the help ("SEC"); NULL for a flag */
	enum section_id section; /* where the help lists it */
	bool preset_field;       /* presets may set it; a column of `list --presets` */
	const char *dflt;        /* value when neither command line nor preset gives one; NULL:
				  * derived from other options, or every preset gives it */
	const char *help;        /* one paragraph, without the default */
};

struct help_section {
	const char *title;       /* "" for the untitled introduction */
	const char *text;        /* paragraphs ("\n" between), "" when the options say it all */
};

struct preset {
	const char *name;
	const char *desc;
	const char *value[OPT_COUNT]; /* NULL where the option's default applies */
};

/* The tables, in options.def order; i < OPT_COUNT, SECTION_COUNT, presets_count(). */
const struct run_option *option_at(size_t i);
const struct help_section *section_at(size_t i);
size_t presets_count(void);
const struct preset *preset_at(size_t i);

/* Preset p's value of option i, as `storebench run` would use it ("" for none). */
const char *preset_value(const struct preset *p, size_t i);

/* The id of the option called name[0..len) (no leading "--"), or OPT_COUNT. */
enum option_id option_find(const char *name, size_t len);

/*
 * The command line (argv[0] is the subcommand): given[id] = the last value given for each option
 * ("" for a flag), NULL when absent; --benchmark_* flags (and --v=N) are left to the shim.
 * Both --opt=value and --opt value.  Returns 0; 2 after one stderr line on bad input; -1 after
 * printing the help for --help or -h.
 */
int options_collect(int argc, char **argv, const char *given[OPT_COUNT]);

/*
 * The cascade: value[id] = given[id], else the preset's value, else the option's default, but
 * for the preset's rounds and budget, which go with its repetitions: given --repetitions or
 * --rounds, the rounds and budget are the given ones or the defaults.  The preset is
 * given[OPT_preset] or the default one.  Returns 0, or 2 after one stderr line when the preset
 * does not exist.
 */
int options_resolve(const char *const given[OPT_COUNT], const char *value[OPT_COUNT],
		    const struct preset **preset);

/* `storebench run --help`: the sections in order, each option with its placeholder, help and
 * default, wrapped to HELP_WIDTH columns. */
#define HELP_WIDTH 80
void options_help(FILE *out);

/*
 * Print text word by word from column col (the cursor is there, after earlier words unless col
 * is indent), breaking lines before HELP_WIDTH and continuing at column indent; "\n" in text
 * starts a new paragraph.  Returns the column after the last word.  (`storebench help` too.)
 */
size_t help_wrap(FILE *out, const char *text, size_t col, size_t indent);

/* `storebench list --presets [--tsv]`: a header (name, then each preset field named as its
 * option) and one line per preset, tab-separated; or for people, each preset as the options it
 * stands for. */
void presets_print(FILE *out, bool tsv);

#endif
