/*
 * run_config.c — what each `storebench run` option means: the strings options.c collected (command
 * line over preset over default) become a struct run_config.  Plain C.  Every error is one line
 * naming the option, the value given and what is accepted, then exit status 2.
 */
#include "run_config.h"

#include <ctype.h>
#include <errno.h>
#include <numa.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "options.h"

static int fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static int fail(const char *fmt, ...)
{
	va_list ap;

	fputs("storebench run: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return 2;
}

/* A list error: the option, and the value unless the grammar's message already starts with it
 * (a one-element list), so each says what was given once; at says at which thread count the
 * cache words failed ("" when the same at every count). */
static int list_fail_at(const char *opt, const char *spec, const char *err, const char *at)
{
	size_t n = strlen(spec);

	if (err[0] == '\'' && !strncmp(err + 1, spec, n) && err[n + 1] == '\'')
		return fail("%s: %s%s", opt, err, at);
	return fail("%s '%s': %s%s", opt, spec, err, at);
}

static int list_fail(const char *opt, const char *spec, const char *err)
{
	return list_fail_at(opt, spec, err, "");
}

/* "" at 1 thread (the words are the whole caches), else " (at 8 threads: L1d 48KiB, ...)". */
static const char *words_note(const struct scaled_axes *a, char *buf, size_t len)
{
	size_t used;

	buf[0] = '\0';
	if (a->threads == 1)
		return buf;
	used = (size_t)snprintf(buf, len, " (at %u threads a thread's share:", a->threads);
	for (int w = 0; w < SW_COUNT && used < len; w++) {
		char v[32];

		if (w == SW_L1)
			continue; /* the same as L1d */
		used += (size_t)snprintf(buf + used, len - used, "%s %s %s", w ? "," : "",
					 a->words[w].word, size_format(a->words[w].value, v, sizeof v));
	}
	if (used < len)
		snprintf(buf + used, len - used, ")");
	return buf;
}

static bool parse_sizes(const char *opt, const char *spec, const struct scaled_axes *a,
			struct u64_list *out)
{
	const struct list_grammar g = { .units = true, .words = a->words, .nwords = SW_COUNT,
					.scale_words = true, .min = 1, .max = SIZE_LIMIT };
	char err[512], note[256];

	if (!u64_list_parse(spec, &g, out, err, sizeof err)) {
		list_fail_at(opt, spec, err, words_note(a, note, sizeof note));
		return false;
	}
	return true;
}

static int ws_push(struct scaled_axes *a, const char *spec, size_t *cap, struct ws_item item)
{
	if (a->nws >= LIST_MAX_VALUES)
		return fail("--ws '%s': the list expands to more than %d values, the most one list "
			    "may have", spec, LIST_MAX_VALUES);
	if (a->nws == *cap) {
		size_t n = *cap ? 2 * *cap : 16;
		struct ws_item *w = realloc(a->ws, n * sizeof *w);

		if (!w)
			return fail("--ws: out of memory");
		a->ws = w;
		*cap = n;
	}
	a->ws[a->nws++] = item;
	return 0;
}

/* Working sets in the order given, duplicates dropped; bytes <= SIZE_LIMIT leaves 3 key bits. */
static int ws_dedup(struct scaled_axes *a)
{
	unsigned long long *key = malloc((a->nws + 1) * sizeof *key);
	size_t *keep = malloc((a->nws + 1) * sizeof *keep), n;
	bool ok = key && keep;

	for (size_t i = 0; ok && i < a->nws; i++)
		key[i] = a->ws[i].bytes << 3 | (unsigned)a->ws[i].mode;
	ok = ok && first_occurrences(key, a->nws, keep, &n);
	for (size_t i = 0; ok && i < n; i++)
		a->ws[i] = a->ws[keep[i]];
	if (ok)
		a->nws = n;
	free(key);
	free(keep);
	return ok ? 0 : fail("--ws: out of memory");
}

/* The sizes of one --ws element, walked in order. */
static int ws_sizes(struct scaled_axes *a, const char *spec, size_t *cap, const char *item,
		    size_t len, enum ws_mode order)
{
	char *text = strndup(item, len);
	struct u64_list sizes = { 0 };
	int rc = text ? 0 : fail("--ws: out of memory");

	if (!rc && !parse_sizes("--ws", text, a, &sizes))
		rc = 2;
	for (size_t i = 0; !rc && i < sizes.n; i++)
		rc = ws_push(a, spec, cap, (struct ws_item){ .mode = order, .bytes = sizes.v[i] });
	free(text);
	u64_list_free(&sizes);
	return rc;
}

/* "call,hot,cold,1GiB,random:64KiB..1GiB:x4": a seq: or random: prefix holds for later sizes. */
static int parse_ws(const char *spec, struct scaled_axes *a)
{
	static const char *const modes[] = { [WS_CALL] = "call", [WS_HOT] = "hot",
					     [WS_COLD] = "cold" };
	static const char want[] = "want call, hot, cold or sizes, e.g. "
				   "call,cold,1GiB,random:64KiB..1GiB:x4";
	enum ws_mode order = WS_SEQ;
	const char *item = spec;
	size_t cap = 0;
	int rc = 0;

	a->nws = 0;
	if (!*spec)
		return fail("--ws '': an empty list; %s", want);
	for (;;) {
		size_t len = strcspn(item, ","), m, plen = 0;

		if (!strncmp(item, "seq:", 4) || !strncmp(item, "random:", 7)) {
			order = item[0] == 's' ? WS_SEQ : WS_RANDOM;
			plen = strlen(item[0] == 's' ? "seq:" : "random:");
		}
		for (m = 0; m <= WS_COLD; m++)
			if (strlen(modes[m]) == len - plen && !strncmp(item + plen, modes[m], len - plen))
				break;
		if (m <= WS_COLD && plen)
			return fail("--ws '%s': seq: and random: only apply to sizes, not to %s (it has "
				    "its own walk); %s", spec, modes[m], want);
		if (len == plen)
			return fail("--ws '%s': an empty element%s; %s", spec,
				    plen ? " after its seq: or random: prefix" : "", want);
		if (m <= WS_COLD)
			rc = ws_push(a, spec, &cap, (struct ws_item){ .mode = (enum ws_mode)m });
		else
			rc = ws_sizes(a, spec, &cap, item + plen, len - plen, order);
		if (rc)
			return rc;
		if (!item[len])
			break;
		item += len + 1;
	}
	return ws_dedup(a);
}

/* "none,own:L2/2,chase:LLC/2..4LLC:x8": a mode, and for all but none the sizes after it. */
static int parse_victim(const char *spec, struct scaled_axes *a)
{
	static const char want[] = "want none or MODE:SIZE with MODE own, shared, remote, socket or "
				   "chase, e.g. own:L2/2,chase:4LLC";
	const char *item = spec;
	unsigned long long *key = NULL;
	size_t cap = 0, *keep = NULL, n;
	int rc = 0;

	a->nvictim = 0;
	if (!*spec)
		return fail("--victim '': an empty list; %s", want);
	for (bool more = true; more && !rc; item += strcspn(item, ",") + 1) {
		size_t len = strcspn(item, ","), m = 0, plen;
		struct u64_list sizes = { 0 };
		char *text = NULL;

		more = item[len] != '\0';
		if (len == 4 && !strncmp(item, "none", 4)) {
			sizes = (struct u64_list){ .n = 1, .cap = 1, .v = calloc(1, sizeof *sizes.v) };
			rc = sizes.v ? 0 : fail("--victim: out of memory");
		} else {
			for (m = VICTIM_OWN; m < VICTIM_MODES; m++) {
				plen = strlen(victim_mode_name[m]);
				if (len > plen && !strncmp(item, victim_mode_name[m], plen) &&
				    item[plen] == ':')
					break;
			}
			if (m == VICTIM_MODES)
				return fail("--victim '%s': '%.*s' %s; %s", spec, (int)len, item,
					    len ? "is no victim" : "is empty", want);
			text = strndup(item + plen + 1, len - plen - 1);
			rc = !text ? fail("--victim: out of memory")
			     : !parse_sizes("--victim", text, a, &sizes) ? 2 : 0;
		}
		for (size_t i = 0; !rc && i < sizes.n; i++) {
			struct victim_item it = { (enum victim_mode)m, sizes.v[i] / 64 * 64 };
			struct victim_item *grown;

			if (m != VICTIM_NONE && !it.bytes)
				rc = fail("--victim '%s': %s of %llu bytes is less than one 64-byte line",
					  spec, victim_mode_name[m], sizes.v[i]);
			else if (a->nvictim >= LIST_MAX_VALUES)
				rc = fail("--victim '%s': the list expands to more than %d values",
					  spec, LIST_MAX_VALUES);
			if (rc)
				break;
			if (a->nvictim == cap) {
				cap = cap ? 2 * cap : 8;
				grown = realloc(a->victim, cap * sizeof *grown);
				if (!grown) {
					rc = fail("--victim: out of memory");
					break;
				}
				a->victim = grown;
			}
			a->victim[a->nvictim++] = it;
		}
		free(text);
		u64_list_free(&sizes);
	}
	/* duplicates dropped, the first kept (bytes <= SIZE_LIMIT leaves 3 key bits) */
	key = malloc((a->nvictim + 1) * sizeof *key);
	keep = malloc((a->nvictim + 1) * sizeof *keep);
	for (size_t i = 0; !rc && key && i < a->nvictim; i++)
		key[i] = a->victim[i].bytes << 3 | (unsigned)a->victim[i].mode;
	if (!rc && (!key || !keep || !first_occurrences(key, a->nvictim, keep, &n)))
		rc = fail("--victim: out of memory");
	for (size_t i = 0; !rc && i < n; i++)
		a->victim[i] = a->victim[keep[i]];
	if (!rc)
		a->nvictim = n;
	free(key);
	free(keep);
	return rc;
}

static int parse_membind(const char *s, struct run_config *o)
{
	const char *num = !strncmp(s, "node:", 5) ? s + 5 : s;
	char *end;
	long node;

	if (!strcmp(s, "local") || !strcmp(s, "interleave")) {
		o->bind.kind = s[0] == 'l' ? MEMBIND_LOCAL : MEMBIND_INTERLEAVE;
		snprintf(o->membind_name, sizeof o->membind_name, "%s", s);
		return 0;
	}
	node = strtol(num, &end, 10);
	if (!isdigit((unsigned char)*num) || *end || node > INT32_MAX)
		return fail("--membind '%s': want local, interleave or a NUMA node number", s);
	/* a replayed machine's nodes are its topology's; this machine's, those libnuma allows */
	if (o->topo->source ? !topology_node(o->topo, (unsigned)node)
	    : numa_available() < 0 ? node != 0
				 : node > numa_max_node() ||
					   !numa_bitmask_isbitset(numa_get_mems_allowed(), (unsigned)node))
		return fail("--membind '%s': NUMA node %ld does not exist or is not allowed here", s,
			    node);
	o->bind.kind = MEMBIND_NODE;
	o->bind.node = (int)node;
	snprintf(o->membind_name, sizeof o->membind_name, "node:%ld", node);
	return 0;
}

static int parse_pages(const char *s, struct run_config *o)
{
	for (int p = PAGES_4K; p <= PAGES_HUGETLB; p++)
		if (!strcmp(s, page_policy_name[p])) {
			o->pages = (enum page_policy)p;
			if (p == PAGES_HUGETLB && meminfo("HugePages_Total") == 0)
				return fail("--pages hugetlb: no huge pages are reserved (HugePages_Total "
					    "is 0; see /proc/sys/vm/nr_hugepages)");
			return 0;
		}
	return fail("--pages '%s': want 4k, thp or hugetlb", s);
}

/* One safe path component: the results folder can never be . or .. or reach elsewhere. */
static int check_machine(const char *m)
{
	size_t len = strlen(m);

	if (!folder_name_ok(m, MACHINE_ID_MAX))
		return fail("--machine '%s': want a folder name of 1..%d characters from A-Z a-z 0-9 "
			    ". _ -, not . or ..%s", m, MACHINE_ID_MAX,
			    len > MACHINE_ID_MAX ? " (this one is longer)" : "");
	return 0;
}

/* A comma list of mode or layout names into out[], each at most once. */
static int parse_names(const char *opt, const char *spec,
		       int (*one)(const char *, int *, char *, size_t), int *out, size_t max,
		       size_t *n)
{
	char *copy = strdup(spec), *item, *save = NULL, err[256];
	int rc = 0;

	*n = 0;
	if (!copy)
		return fail("%s: out of memory", opt);
	if (!*spec || spec[strlen(spec) - 1] == ',' || strstr(spec, ",,") || spec[0] == ',')
		rc = fail("%s '%s': an empty element", opt, spec);
	for (item = strtok_r(copy, ",", &save); !rc && item; item = strtok_r(NULL, ",", &save)) {
		int v;

		if (one(item, &v, err, sizeof err)) {
			rc = fail("%s", err);
			break;
		}
		for (size_t i = 0; i < *n && !rc; i++)
			if (out[i] == v)
				rc = fail("%s '%s': '%s' given twice", opt, spec, item);
		if (!rc && *n == max)
			rc = fail("%s '%s': more than %zu elements", opt, spec, max);
		if (!rc)
			out[(*n)++] = v;
	}
	free(copy);
	return rc;
}

static int one_mode(const char *s, int *v, char *err, size_t errlen)
{
	enum rw_mode m;
	int rc = rw_parse_mode(s, &m, err, errlen);

	*v = (int)m;
	return rc;
}

static int one_layout(const char *s, int *v, char *err, size_t errlen)
{
	enum rw_layout l;
	int rc = rw_parse_layout(s, &l, err, errlen);

	*v = (int)l;
	return rc;
}

/* --chunk at one thread count; the chunk against each region is checked per point. */
static int parse_chunk(const char *spec, struct scaled_axes *a)
{
	char err[256];

	if (!parse_sizes("--chunk", spec, a, &a->chunk))
		return 2;
	for (size_t i = 0; i < a->chunk.n; i++)
		if (rw_check_chunk(a->chunk.v[i], SIZE_MAX, err, sizeof err))
			return fail("%s (in '%s')", err, spec);
	return 0;
}

/* --rw, --rw-mode, --rw-layout. */
static int parse_rw(struct run_config *o, const struct cpu_info *cpu)
{
	int modes[2], layouts[2];
	char err[256];

	if (rw_parse_list(o->rw_spec, o->rw, RW_MAX_RATIOS, &o->nrw, err, sizeof err))
		return fail("%s", err);
	if (parse_names("--rw-mode", o->rw_mode_spec, one_mode, modes, 2, &o->nrw_mode) ||
	    parse_names("--rw-layout", o->rw_layout_spec, one_layout, layouts, 2, &o->nrw_layout))
		return 2;
	for (size_t i = 0; i < o->nrw_mode; i++)
		o->rw_mode[i] = (enum rw_mode)modes[i];
	for (size_t i = 0; i < o->nrw_layout; i++)
		o->rw_layout[i] = (enum rw_layout)layouts[i];
	o->load = load_kernel_best(cpu);
	return 0;
}

/*
 * --seed: decimal 0..2^64-1; without it the clock's nanoseconds, so two runs differ unless asked
 * to repeat an order (the seed is in the metadata either way).
 */
static int parse_seed(const char *s, unsigned long long *seed)
{
	struct timespec ts;
	char *end;

	if (!s) {
		clock_gettime(CLOCK_REALTIME, &ts);
		*seed = (unsigned long long)ts.tv_sec * 1000000000ull + (unsigned long long)ts.tv_nsec;
		return 0;
	}
	errno = 0;
	*seed = strtoull(s, &end, 10);
	if (!isdigit((unsigned char)*s) || *end || errno)
		return fail("--seed '%s': want a whole number 0..18446744073709551615", s);
	return 0;
}

/* Fill, prefill, repetitions, rounds, budget, tie band, seed, min time, slowdown, output names:
 * single values. */
static int parse_scalars(const char *const *v, struct run_config *o)
{
	double num;

	if (!byte_parse(v[OPT_fill], &o->fill))
		return fail("--fill '%s': want a byte, decimal 0..255 or hex 0x00..0xff (a leading 0 "
			    "is not octal: write 8 or 0x08, not 010)", v[OPT_fill]);
	o->prefill = o->fill ^ 0xff;
	if (v[OPT_prefill] && !byte_parse(v[OPT_prefill], &o->prefill))
		return fail("--prefill '%s': want a byte, decimal 0..255 or hex 0x00..0xff (a leading "
			    "0 is not octal: write 8 or 0x08, not 010)", v[OPT_prefill]);
	if (o->prefill == o->fill)
		return fail("--prefill '%s' equals --fill %u: verification could not see a missing "
			    "store; want any other byte", v[OPT_prefill], o->fill);
	if (!number_parse(v[OPT_repetitions], 1, REPETITIONS_MAX, true, &num))
		return fail("--repetitions '%s': want a whole number 1..%d", v[OPT_repetitions],
			    REPETITIONS_MAX);
	o->repetitions = (int)num;
	if (!number_parse(v[OPT_min_time], MIN_TIME_MIN_S, MIN_TIME_MAX_S, false, &o->min_time))
		return fail("--min-time '%s': want seconds, %s..%d", v[OPT_min_time],
			    OPTIONS_STR(MIN_TIME_MIN_S), MIN_TIME_MAX_S);
	if (!number_parse(v[OPT_rounds], 1, ROUNDS_MAX, true, &num))
		return fail("--rounds '%s': want a whole number 1..%d", v[OPT_rounds], ROUNDS_MAX);
	o->rounds = (int)num;
	if (!number_parse(v[OPT_budget], 0, BUDGET_MAX_S, false, &o->budget_s))
		return fail("--budget '%s': want seconds, 0..%d", v[OPT_budget], BUDGET_MAX_S);
	if (!number_parse(v[OPT_tie_band], 0, TIE_BAND_MAX, false, &o->tie_band))
		return fail("--tie-band '%s': want a ratio, 0..%s", v[OPT_tie_band],
			    OPTIONS_STR(TIE_BAND_MAX));
	if (parse_seed(v[OPT_seed], &o->seed))
		return 2;
	if (strcmp(v[OPT_canary], "on") && strcmp(v[OPT_canary], "off"))
		return fail("--canary '%s': want on or off", v[OPT_canary]);
	o->canary = !strcmp(v[OPT_canary], "on");
	if (!number_parse(v[OPT_canary_period], CANARY_PERIOD_MIN_S, CANARY_PERIOD_MAX_S, false,
			  &o->canary_period_s))
		return fail("--canary-period '%s': want seconds, %d..%d", v[OPT_canary_period],
			    CANARY_PERIOD_MIN_S, CANARY_PERIOD_MAX_S);
	if (!number_parse(v[OPT_inject_slowdown], 0, SLOWDOWN_MAX_PCT, false, &o->slowdown_pct))
		return fail("--inject-slowdown '%s': want a percentage, 0..%d",
			    v[OPT_inject_slowdown], SLOWDOWN_MAX_PCT);
	if (!number_parse(v[OPT_inject_drift], 0, SLOWDOWN_MAX_PCT, false, &o->drift_pct))
		return fail("--inject-drift '%s': want a percentage, 0..%d", v[OPT_inject_drift],
			    SLOWDOWN_MAX_PCT);
	if (!number_parse(v[OPT_inject_skew], 0, SKEW_MAX_US, false, &o->skew_us))
		return fail("--inject-skew '%s': want microseconds, 0..%d", v[OPT_inject_skew],
			    SKEW_MAX_US);
	if (!number_parse(v[OPT_inject_stall], 0, STALL_MAX_MS, false, &o->stall_ms))
		return fail("--inject-stall '%s': want milliseconds, 0..%d", v[OPT_inject_stall],
			    STALL_MAX_MS);
	o->csv = v[OPT_csv];
	o->json = v[OPT_json];
	o->machine = v[OPT_machine];
	if (o->csv && o->json && !strcmp(o->csv, o->json))
		return fail("--json '%s': the same file as --csv; want two different files", o->json);
	return o->machine ? check_machine(o->machine) : 0;
}

/* --profile (default from CPUID's hypervisor bit), then each threshold given over its default. */
static int parse_quality(const char *const *v, const struct cpu_info *cpu, struct run_config *o)
{
	struct quality_limits *l = &o->quality;
	const struct {
		enum option_id id;
		double *field, lo, hi;
		const char *want;
	} limit[] = {
		{ OPT_cpu_share_min, &l->cpu_share_min, 0, 1, "a ratio, 0..1" },
		{ OPT_cv_max, &l->cv_max, 0, QUALITY_CV_LIMIT,
		  "a ratio, 0.." OPTIONS_STR(QUALITY_CV_LIMIT) },
		{ OPT_batch_ns_min, &l->batch_ns_min, QUALITY_BATCH_NS_LO, QUALITY_BATCH_NS_HI,
		  "nanoseconds, " OPTIONS_STR(QUALITY_BATCH_NS_LO) ".." OPTIONS_STR(QUALITY_BATCH_NS_HI) },
		{ OPT_skew_max, &l->skew_max, 0, 1, "a ratio, 0..1" },
		{ OPT_outlier_mads, &l->outlier_mads, QUALITY_OUTLIER_LO, QUALITY_OUTLIER_HI,
		  "a number, " OPTIONS_STR(QUALITY_OUTLIER_LO) ".." OPTIONS_STR(QUALITY_OUTLIER_HI) },
		{ OPT_drift_band, &l->drift_band, 0, 1, "a ratio, 0..1" },
	};
	const char *profile = v[OPT_profile] ? v[OPT_profile] : cpu->hypervisor ? "vm" : "metal";

	if (!quality_profile(profile, l))
		return fail("--profile '%s': want metal or vm", profile);
	for (size_t i = 0; i < sizeof limit / sizeof *limit; i++) {
		const char *s = v[limit[i].id];

		if (s && !number_parse(s, limit[i].lo, limit[i].hi, false, limit[i].field))
			return fail("--%s '%s': want %s", option_at(limit[i].id)->name, s,
				    limit[i].want);
	}
	return 0;
}

/* --placement, then --threads against the CPUs it allows, --membind and --pages. */
static int parse_where(const char *const *v, struct run_config *o)
{
	struct size_word all;
	struct list_grammar g = { .words = &all, .nwords = 1, .min = 1, .max = ~0ull };
	char err[512];

	if (strlen(v[OPT_placement]) >= sizeof o->placement.spec)
		return fail("--placement '%s': longer than %zu characters; want compact, spread or "
			    "cpus: with ranges (cpus:0-383)", v[OPT_placement],
			    sizeof o->placement.spec - 1);
	if (!placement_order(o->topo, v[OPT_placement], &o->placement, err, sizeof err))
		return fail("--placement '%s': %s", v[OPT_placement], err);
	all = (struct size_word){ "all", o->placement.ncpus };
	if (!u64_list_parse(o->threads_spec, &g, &o->threads, err, sizeof err))
		return list_fail("--threads", o->threads_spec, err);
	for (size_t i = 0; i < o->threads.n; i++)
		if (o->threads.v[i] > o->placement.ncpus)
			return fail("--threads '%s': %llu threads but only %zu CPUs are allowed here "
				    "(want 1..%zu or all)", o->threads_spec, o->threads.v[i],
				    o->placement.ncpus, o->placement.ncpus);
	if (parse_membind(v[OPT_membind], o))
		return 2;
	return parse_pages(v[OPT_pages], o);
}

/*
 * --call, --ws, --chunk and cold's region at a's thread count, with its words.  The first count's
 * are also checked for the words' meaning at 1 thread (the whole caches), so an expression that
 * is wrong everywhere is reported without a thread count.
 */
static int parse_axes(const struct run_config *o, const struct cpu_info *cpu,
		      struct scaled_axes *a)
{
	char err[512];
	uint64_t cold;
	int rc;

	if (!scaled_words(o->topo, cpu, &o->placement, a->threads, o->levels, &a->ts, a->words,
			  &a->levels, err, sizeof err))
		return fail("--threads '%s': %s", o->threads_spec, err);
	if ((o->call_sizes_spec[0] || !o->ndists) &&
	    !parse_sizes("--call", o->call_sizes_spec, a, &a->call))
		return 2;
	rc = parse_ws(o->ws_spec, a);
	if (rc)
		return rc;
	rc = parse_chunk(o->chunk_spec, a);
	if (rc)
		return rc;
	rc = parse_victim(o->victim_spec, a);
	if (rc)
		return rc;
	/* cold cycles through 4 x LLC (an LLC of 64 MiB when unknown), at least 4 x call */
	if (!mul_u64_within(4, a->words[SW_LLC].value ? a->words[SW_LLC].value : 64ull << 20,
			    SIZE_LIMIT, &cold))
		return fail("--ws cold: 4 x LLC (LLC = %llu bytes) is more than %s",
			    a->words[SW_LLC].value, SIZE_LIMIT_TEXT);
	a->cold_bytes = cold;
	return 0;
}

static void axes_free(struct scaled_axes *a)
{
	u64_list_free(&a->call);
	u64_list_free(&a->chunk);
	free(a->ws);
	free(a->victim);
	memset(a, 0, sizeof *a);
}

/* The seed of every distribution's draws: the same calls in every run, whatever --seed says,
 * so two runs of one command measure the same sizes at the same offsets. */
#define DIST_SEED 0xd157d157ull

/* Distribution spec (a bundled name or a file) loaded and drawn into the next slot of o. */
static int add_dist(struct run_config *o, const char *spec)
{
	struct size_dist *d = &o->dists[o->ndists];
	char err[512];

	if (!size_dist_load(spec, d, err, sizeof err))
		return fail("--call 'dist:%s': %s", spec, err);
	o->dist_draws[o->ndists] = malloc(DIST_CALLS * sizeof **o->dist_draws);
	if (!o->dist_draws[o->ndists]) {
		size_dist_free(d);
		return fail("--call 'dist:%s': out of memory", spec);
	}
	size_dist_draw(d, DIST_SEED, o->dist_draws[o->ndists++], DIST_CALLS);
	return 0;
}

/*
 * --call's dist:NAME and dist:FILE elements (dist:all: every bundled one) loaded (size_dist.h)
 * and drawn DIST_CALLS times each, in the order given; the rest of the list into
 * o->call_sizes_spec for the size grammar.
 */
static int split_dists(struct run_config *o)
{
	const char *item = o->call_spec;
	/* an element is at least 6 characters ("dist:x,") and dist:all adds every bundled one */
	size_t len = strlen(o->call_spec), used = 0,
	       room = (len / 6 + 1) * (bundled_dist_count + 1);

	o->call_sizes_spec = calloc(len + 1, 1);
	o->dists = calloc(room, sizeof *o->dists);
	o->dist_draws = calloc(room, sizeof *o->dist_draws);
	if (!o->call_sizes_spec || !o->dists || !o->dist_draws)
		return fail("--call: out of memory");
	for (;;) {
		size_t n = strcspn(item, ",");
		char name[4096];
		int rc = 0;

		if (n > 5 && !strncmp(item, "dist:", 5) && n - 5 < sizeof name) {
			memcpy(name, item + 5, n - 5);
			name[n - 5] = '\0';
			if (strcmp(name, "all"))
				rc = add_dist(o, name);
			for (size_t i = 0; !rc && !strcmp(name, "all") && i < bundled_dist_count; i++)
				rc = add_dist(o, bundled_dists[i].name);
			if (rc)
				return rc;
		} else if (!strncmp(item, "dist:", 5)) {
			return fail("--call '%.*s': want dist:NAME (storebench list --distributions) or "
				    "dist:FILE", (int)n, item);
		} else {
			if (used)
				o->call_sizes_spec[used++] = ',';
			memcpy(o->call_sizes_spec + used, item, n);
			used += n;
		}
		if (!item[n])
			break;
		item += n + 1;
	}
	return 0;
}

/* The sizes at 1 thread (metadata, and errors that hold at every count), then at each count. */
static int parse_all_axes(struct run_config *o, const struct cpu_info *cpu)
{
	struct scaled_axes one = { .threads = 1 };
	int rc = split_dists(o);

	if (rc)
		return rc;
	rc = parse_axes(o, cpu, &one);

	if (rc) {
		axes_free(&one);
		return rc;
	}
	o->call = one.call;
	o->ws = one.ws;
	o->nws = one.nws;
	o->chunk = one.chunk;
	o->victim = one.victim;
	o->nvictim = one.nvictim;
	o->cold_bytes = one.cold_bytes;
	o->l2_bytes = one.words[SW_L2].value;
	o->llc_bytes = one.words[SW_LLC].value;
	o->at = calloc(o->threads.n ? o->threads.n : 1, sizeof *o->at);
	if (!o->at)
		return fail("--threads: out of memory");
	for (size_t i = 0; i < o->threads.n; i++) {
		o->at[i].threads = (unsigned)o->threads.v[i];
		rc = parse_axes(o, cpu, &o->at[i]);
		if (rc)
			return rc;
	}
	return 0;
}

/* The options of the values given on the command line (NULL where absent). */
static int parse_given(const char *const *given, const struct machine *m, struct run_config *o)
{
	const char *v[OPT_COUNT];
	const struct cpu_info *cpu = &m->cpu;
	const struct preset *preset;
	const struct list_grammar offsets = { .min = 0, .max = 63 };
	const struct list_grammar delays = { .min = 0, .max = VICTIM_DELAY_MAX_NS };
	char err[512];
	int rc;

	memset(o, 0, sizeof *o);
	o->topo = m->topo;
	o->levels = &m->levels;
	if (options_resolve(given, v, &preset))
		return 2;
	o->preset = preset->name;
	o->kernels_spec = v[OPT_kernels];
	o->call_spec = v[OPT_call];
	o->ws_spec = v[OPT_ws];
	o->threads_spec = v[OPT_threads];
	o->misalign_spec = v[OPT_misalign];
	o->rw_spec = v[OPT_rw];
	o->rw_mode_spec = v[OPT_rw_mode];
	o->rw_layout_spec = v[OPT_rw_layout];
	o->chunk_spec = v[OPT_chunk];
	o->victim_spec = v[OPT_victim];
	o->victim_delay_spec = v[OPT_victim_delay];
	rc = parse_scalars(v, o);
	if (rc)
		return rc;

	rc = parse_quality(v, cpu, o);
	if (rc)
		return rc;
	o->dry_run = v[OPT_dry_run] != NULL;
	o->levels_spec = v[OPT_levels];
	o->verbose = v[OPT_verbose] != NULL;
	if (!kernel_select("--kernels", o->kernels_spec, cpu, o->fill, &o->sel))
		return 2;
	o->slowed_spec = v[OPT_inject_slowdown_kernels];
	if (o->slowed_spec && !kernel_select("--inject-slowdown-kernels", o->slowed_spec, cpu,
					     o->fill, &o->slowed))
		return 2;
	if (parse_rw(o, cpu))
		return 2;
	if (!u64_list_parse(o->misalign_spec, &offsets, &o->misalign, err, sizeof err))
		return list_fail("--misalign", o->misalign_spec, err);
	if (!u64_list_parse(o->victim_delay_spec, &delays, &o->victim_delay, err, sizeof err))
		return list_fail("--victim-delay", o->victim_delay_spec, err);
	rc = parse_where(v, o);
	if (rc)
		return rc;
	return parse_all_axes(o, cpu);
}

int run_config_parse_without(const struct cmdline *cl, const struct machine *m,
			     enum option_id skip, struct run_config *o)
{
	const char *given[OPT_COUNT];

	memcpy(given, cl->given, sizeof given);
	if (skip < OPT_COUNT)
		given[skip] = NULL;
	return parse_given(given, m, o);
}

int run_config_parse(const struct cmdline *cl, const struct machine *m, struct run_config *o)
{
	return run_config_parse_without(cl, m, OPT_COUNT, o);
}

void run_config_free(struct run_config *o)
{
	free(o->sel.k);
	free(o->sel.skipped);
	free(o->slowed.k);
	free(o->slowed.skipped);
	free(o->ws);
	free(o->victim);
	for (size_t i = 0; o->at && i < o->threads.n; i++)
		axes_free(&o->at[i]);
	free(o->at);
	free(o->placement.cpu);
	free(o->placement.node);
	u64_list_free(&o->call);
	for (size_t i = 0; i < o->ndists; i++) {
		size_dist_free(&o->dists[i]);
		free(o->dist_draws[i]);
	}
	free(o->dists);
	free(o->dist_draws);
	free(o->call_sizes_spec);
	u64_list_free(&o->threads);
	u64_list_free(&o->misalign);
	u64_list_free(&o->victim_delay);
	u64_list_free(&o->chunk);
}
