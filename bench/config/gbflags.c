/*
 * gbflags.c — the allow-list of Google Benchmark flags and the values each takes.  Plain C.
 * Only flags that leave storebench's files as documented pass: those that drop per-repetition
 * JSON entries (compare.py needs them), write other files or reorder points are refused.
 */
#include "gbflags.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "options.h"

enum kind {
	K_STRING,   /* anything (the filter regex is checked by the shim) */
	K_BOOL,     /* true/false/yes/no/on/off/1/0, or bare (true) */
	K_COUNT,    /* a whole number 1..REPETITIONS_MAX */
	K_LEVEL,    /* a whole number 0..99 (--v) */
	K_SECONDS,  /* a decimal number of seconds, MIN_TIME_MIN_S..MIN_TIME_MAX_S */
	K_SECONDS0, /* the same, or 0 */
	K_CHOICE,   /* one of choices */
	K_REFUSED,  /* never: why says what to use instead */
};

struct gbflag {
	const char *name;    /* after the leading "--" */
	enum kind kind;      /* what its value may be */
	const char *choices; /* K_CHOICE: the words, space-separated */
	const char *why;     /* K_REFUSED: the reason; K_BOOL: set if true is refused */
};

static const struct gbflag flags[] = {
	{ "benchmark_filter", K_STRING, NULL, NULL },
	{ "benchmark_list_tests", K_BOOL, NULL, NULL },
	{ "benchmark_repetitions", K_COUNT, NULL, NULL },
	{ "benchmark_min_time", K_SECONDS, NULL, NULL },
	{ "benchmark_min_warmup_time", K_SECONDS0, NULL, NULL },
	{ "benchmark_format", K_CHOICE, "console json csv", NULL },
	{ "benchmark_color", K_CHOICE, "auto true false yes no on off 1 0", NULL },
	{ "benchmark_counters_tabular", K_BOOL, NULL, NULL },
	{ "benchmark_time_unit", K_CHOICE, "ns us ms s", NULL },
	{ "benchmark_report_aggregates_only", K_BOOL, NULL,
	  "true drops the per-repetition JSON entries compare.py needs" },
	{ "benchmark_display_aggregates_only", K_BOOL, NULL,
	  "true drops the per-repetition JSON entries compare.py needs (the table already shows "
	  "one line, the median, per point)" },
	{ "benchmark_out", K_REFUSED, NULL, "use --json FILE (storebench writes the JSON itself)" },
	{ "benchmark_out_format", K_REFUSED, NULL, "the JSON is always JSON (--json FILE)" },
	{ "benchmark_enable_random_interleaving", K_REFUSED, NULL,
	  "storebench runs its points one at a time in sweep order" },
	{ "benchmark_perf_counters", K_REFUSED, NULL,
	  "the cycles column reads perf itself (CSV cycles_per_call)" },
	{ "v", K_LEVEL, NULL, NULL },
};

const char gbflag_names[] = "--benchmark_filter, --benchmark_list_tests, --benchmark_repetitions, "
			    "--benchmark_min_time, --benchmark_min_warmup_time, --benchmark_format, "
			    "--benchmark_color, --benchmark_counters_tabular, --benchmark_time_unit, "
			    "--benchmark_report_aggregates_only=false, "
			    "--benchmark_display_aggregates_only=false, --v";

bool gbflag_is(const char *arg)
{
	return !strncmp(arg, "--benchmark_", 12) || !strncmp(arg, "--v=", 4) || !strcmp(arg, "--v");
}

static const struct gbflag *find(const char *arg, const char **value)
{
	size_t n = strcspn(arg + 2, "=");

	*value = arg[2 + n] ? arg + 3 + n : NULL;
	for (size_t i = 0; i < sizeof flags / sizeof flags[0]; i++)
		if (strlen(flags[i].name) == n && !strncmp(flags[i].name, arg + 2, n))
			return &flags[i];
	return NULL;
}

/* 1 true, 0 false, -1 neither; a bare flag (NULL) is true. */
static int truth(const char *v)
{
	static const char *const yes[] = { "true", "yes", "on", "1" }, *const no[] = { "false", "no",
										     "off", "0" };

	if (!v)
		return 1;
	for (size_t i = 0; i < 4; i++) {
		if (!strcasecmp(v, yes[i]))
			return 1;
		if (!strcasecmp(v, no[i]))
			return 0;
	}
	return -1;
}

static bool whole(const char *v, long lo, long hi)
{
	char *end;
	long n;

	if (!v || !*v || strspn(v, "0123456789") != strlen(v) || strlen(v) > 9)
		return false;
	n = strtol(v, &end, 10);
	return n >= lo && n <= hi;
}

static bool seconds(const char *v, double lo)
{
	char *end;
	double s;

	if (!v || !*v || strspn(v, "0123456789.") != strlen(v))
		return false;
	s = strtod(v, &end);
	return !*end && isfinite(s) && (s == 0 ? lo == 0 : s >= MIN_TIME_MIN_S) && s <= MIN_TIME_MAX_S;
}

static bool one_of(const char *v, const char *choices)
{
	size_t n = v ? strlen(v) : 0;

	for (const char *c = choices; n && *c; c += strcspn(c, " "), c += *c == ' ') {
		if (strcspn(c, " ") == n && !strncmp(c, v, n))
			return true;
	}
	return false;
}

int gbflag_check(const char *arg)
{
	const char *v;
	const struct gbflag *f = find(arg, &v);
	int t;

	if (!f) {
		fprintf(stderr, "storebench run: %s: not a Google Benchmark flag storebench passes on "
				"(accepted: %s)\n", arg, gbflag_names);
		return 2;
	}
	switch (f->kind) {
	case K_STRING:
		if (v)
			return 0;
		fprintf(stderr, "storebench run: %s: want --%s=VALUE\n", arg, f->name);
		return 2;
	case K_BOOL:
		t = truth(v);
		if (t < 0) {
			fprintf(stderr, "storebench run: %s: want true or false (also yes/no, on/off, "
					"1/0)\n", arg);
			return 2;
		}
		if (t && f->why) {
			fprintf(stderr, "storebench run: %s: refused, %s; only =false is accepted\n", arg,
				f->why);
			return 2;
		}
		return 0;
	case K_COUNT:
		if (whole(v, 1, REPETITIONS_MAX))
			return 0;
		fprintf(stderr, "storebench run: %s: want a whole number of repetitions, 1..%d\n",
			arg, REPETITIONS_MAX);
		return 2;
	case K_LEVEL:
		if (whole(v, 0, 99))
			return 0;
		fprintf(stderr, "storebench run: %s: want a verbosity level, 0..99\n", arg);
		return 2;
	case K_SECONDS:
	case K_SECONDS0:
		if (seconds(v, f->kind == K_SECONDS0 ? 0 : MIN_TIME_MIN_S))
			return 0;
		fprintf(stderr, "storebench run: %s: want seconds as a decimal number, %s%g..%d\n", arg,
			f->kind == K_SECONDS0 ? "0 or " : "", MIN_TIME_MIN_S, MIN_TIME_MAX_S);
		return 2;
	case K_CHOICE:
		if (one_of(v, f->choices))
			return 0;
		fprintf(stderr, "storebench run: %s: want one of: %s\n", arg, f->choices);
		return 2;
	case K_REFUSED:
		break;
	}
	fprintf(stderr, "storebench run: %s: refused, %s\n", arg, f->why);
	return 2;
}

bool gbflag_given(const char *const *flags, int n, const char *name)
{
	size_t len = strlen(name);

	for (int i = 0; i < n; i++)
		if (!strncmp(flags[i], "--", 2) && !strncmp(flags[i] + 2, name, len) &&
		    (!flags[i][2 + len] || flags[i][2 + len] == '='))
			return true;
	return false;
}

bool gbflag_bool(const char *const *flags, int n, const char *name, bool dflt)
{
	size_t len = strlen(name);

	for (int i = 0; i < n; i++)
		if (!strncmp(flags[i], "--", 2) && !strncmp(flags[i] + 2, name, len)) {
			const char *rest = flags[i] + 2 + len;

			if (!*rest)
				dflt = true;
			else if (*rest == '=')
				dflt = truth(rest + 1) == 1;
		}
	return dflt;
}
