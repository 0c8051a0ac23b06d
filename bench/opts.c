/*
 * opts.c — command-line parsing for `storebench run`: presets, axes, policies, outputs.
 * Plain C.  Presets come from presets.def; options on the command line replace a preset's
 * field.  Every error is one line naming the option and the value, then exit status 2.
 */
#include "opts.h"

#include <ctype.h>
#include <numa.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct preset {
	const char *name, *kernels, *call, *ws, *threads;
	int repetitions;
	double min_time;
	const char *rw, *rw_mode, *rw_layout, *chunk;
	const char *desc;
};

static const struct preset presets[] = {
#define PRESET(name, kernels, call, ws, threads, reps, min_time, rw, rw_mode, rw_layout, chunk, \
	       desc) \
	{ #name, kernels, call, ws, threads, reps, min_time, rw, rw_mode, rw_layout, chunk, desc },
#include "presets.def"
#undef PRESET
};

#define DEFAULT_FILL 0xa5

static void opts_usage(FILE *out)
{
	fputs("usage: storebench run [OPTIONS] [--benchmark_* FLAGS]\n"
	      "Sweeps store kernels over call size, working set, threads and alignment; writes one\n"
	      "CSV row per point (with # key=value provenance) and Google Benchmark JSON beside it.\n"
	      "\n"
	      "what to measure (lists: a,b,c, at most 100000 values, duplicates dropped; ranges:\n"
	      "A..B doubles, A..B:xF (F > 1, up to 4 decimals: x1.19 is 4 steps per octave, each\n"
	      "A x F^k rounded to the nearest byte), A..B:+S, both ends included; sizes: 64,\n"
	      "4K = 4KiB = 4096, 4KB = 4000 (dd's units), M/G/T alike, at most 128TiB, and\n"
	      "cache-relative L1d, L2, L3, LLC with a whole factor before or divisor after:\n"
	      "L1d/4..4LLC:x2, 3L1d/2):\n"
	      "  --preset NAME       a whole sweep (default quick); options below override its fields\n",
	      out);
	for (size_t i = 0; i < sizeof presets / sizeof presets[0]; i++)
		fprintf(out, "      %-8s %s\n", presets[i].name, presets[i].desc);
	fputs("  --kernels LIST      names, globs or families: memset,avx2_*,sse2 (all); kernels the CPU\n"
	      "                      cannot run are skipped with a note, or an error when named exactly\n"
	      "  --call LIST         bytes per kernel call\n"
	      "  --ws LIST           working set per thread: call (= call size, default), hot (same\n"
	      "                      destination every call), cold (random line-aligned offsets in\n"
	      "                      max(4 x LLC, 4 x call) bytes), or sizes, walked seq (default) or\n"
	      "                      random after a prefix: --ws 1GiB,random:64KiB..1GiB:x4\n"
	      "  --threads LIST      thread counts, 'all' = every allowed CPU (default 1,all)\n"
	      "  --placement P       compact | spread (over NUMA nodes and L3 domains) | cpus:0,2,4-7\n"
	      "  --membind M         local (each thread's node, default) | interleave | NODE\n"
	      "  --pages P           4k (default) | thp | hugetlb (needs reserved huge pages)\n"
	      "  --fill BYTE         byte stored, decimal or 0x hex, no octal (default 0xa5; 0 also\n"
	      "                      admits zero-only kernels: clzero)\n"
	      "  --prefill BYTE      byte written before each point (default fill ^ 0xff), so a kernel\n"
	      "                      that stores nothing fails verification\n"
	      "  --misalign LIST     destination offsets from a 64-byte boundary, 0..63 (default 0)\n"
	      "  --repetitions N     Google Benchmark repetitions per point (statistics over them)\n"
	      "  --min-time SEC      minimum timed seconds per repetition\n"
	      "\n"
	      "read/write mixes (docs/rw.md; below rw 100 --call/--ws set the region each thread\n"
	      "walks and the chunk is the call size of reads and writes):\n", out);
	fputs(rw_help, out);
	fputs("\n"
	      "output:\n"
	      "  --csv FILE          default results/<machine>/<UTC time>.csv; never overwritten\n"
	      "  --json FILE         Google Benchmark JSON (default: beside the CSV, .json)\n"
	      "  --machine ID        results folder name (default CPU codename or family-model + host)\n"
	      "  --benchmark_*       passed to Google Benchmark (filter, repetitions, format, color...);\n"
	      "                      --benchmark_out is refused: use --json\n"
	      "\n"
	      "diagnostics:\n"
	      "  --inject-slowdown PCT  every thread busy-waits PCT% of its batch's work time inside\n"
	      "                      the timed window: a real, known regression for testing CI gates\n"
	      "\n"
	      "Progress goes to stderr. SIGINT/SIGTERM finish the current point, complete the CSV and\n"
	      "JSON and exit 130/143; a second signal kills at once. Exit 0 = all points measured and\n"
	      "verified, 1 = a point failed verification or a run error, 2 = bad input.\n", out);
}

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
 * (a one-element list), so each says what was given once. */
static int list_fail(const char *opt, const char *spec, const char *err)
{
	size_t n = strlen(spec);

	if (err[0] == '\'' && !strncmp(err + 1, spec, n) && err[n + 1] == '\'')
		return fail("%s: %s", opt, err);
	return fail("%s '%s': %s", opt, spec, err);
}

/* The cache words a size may use, with this machine's sizes (0 = not reported). */
#define NCACHE_WORDS 5

static void cache_words(const struct cpu_info *cpu, struct size_word w[NCACHE_WORDS])
{
	w[0] = (struct size_word){ "L1d", cpu_cache_bytes(cpu, 1) };
	w[1] = (struct size_word){ "L1", cpu_cache_bytes(cpu, 1) };
	w[2] = (struct size_word){ "L2", cpu_cache_bytes(cpu, 2) };
	w[3] = (struct size_word){ "L3", cpu_cache_bytes(cpu, 3) };
	w[4] = (struct size_word){ "LLC", cpu_llc_bytes(cpu) };
}

static bool parse_sizes(const char *opt, const char *spec, const struct size_word *caches,
			struct u64_list *out)
{
	const struct list_grammar g = { .units = true, .words = caches, .nwords = NCACHE_WORDS,
					.scale_words = true, .min = 1, .max = SIZE_LIMIT };
	char err[512];

	if (!u64_list_parse(spec, &g, out, err, sizeof err)) {
		list_fail(opt, spec, err);
		return false;
	}
	return true;
}

static int ws_push(struct run_opts *o, size_t *cap, struct ws_item item)
{
	if (o->nws >= LIST_MAX_VALUES)
		return fail("--ws '%s': the list expands to more than %d values, the most one list "
			    "may have", o->ws_spec, LIST_MAX_VALUES);
	if (o->nws == *cap) {
		size_t n = *cap ? 2 * *cap : 16;
		struct ws_item *w = realloc(o->ws, n * sizeof *w);

		if (!w)
			return fail("--ws: out of memory");
		o->ws = w;
		*cap = n;
	}
	o->ws[o->nws++] = item;
	return 0;
}

/* Working sets in the order given, duplicates dropped; bytes <= SIZE_LIMIT leaves 3 key bits. */
static int ws_dedup(struct run_opts *o)
{
	unsigned long long *key = malloc((o->nws + 1) * sizeof *key);
	size_t *keep = malloc((o->nws + 1) * sizeof *keep), n;
	bool ok = key && keep;

	for (size_t i = 0; ok && i < o->nws; i++)
		key[i] = o->ws[i].bytes << 3 | (unsigned)o->ws[i].mode;
	ok = ok && first_occurrences(key, o->nws, keep, &n);
	for (size_t i = 0; ok && i < n; i++)
		o->ws[i] = o->ws[keep[i]];
	if (ok)
		o->nws = n;
	free(key);
	free(keep);
	return ok ? 0 : fail("--ws: out of memory");
}

/* The sizes of one --ws element, walked in order. */
static int ws_sizes(struct run_opts *o, size_t *cap, const char *item, size_t len,
		    enum ws_mode order, const struct size_word *caches)
{
	char *text = strndup(item, len);
	struct u64_list sizes = { 0 };
	int rc = text ? 0 : fail("--ws: out of memory");

	if (!rc && !parse_sizes("--ws", text, caches, &sizes))
		rc = 2;
	for (size_t i = 0; !rc && i < sizes.n; i++)
		rc = ws_push(o, cap, (struct ws_item){ .mode = order, .bytes = sizes.v[i] });
	free(text);
	u64_list_free(&sizes);
	return rc;
}

/* "call,hot,cold,1GiB,random:64KiB..1GiB:x4": a seq: or random: prefix holds for later sizes. */
static int parse_ws(const char *spec, const struct size_word *caches, struct run_opts *o)
{
	static const char *const modes[] = { [WS_CALL] = "call", [WS_HOT] = "hot",
					     [WS_COLD] = "cold" };
	static const char want[] = "want call, hot, cold or sizes, e.g. "
				   "call,cold,1GiB,random:64KiB..1GiB:x4";
	enum ws_mode order = WS_SEQ;
	const char *item = spec;
	size_t cap = 0;
	int rc = 0;

	o->nws = 0;
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
			rc = ws_push(o, &cap, (struct ws_item){ .mode = (enum ws_mode)m });
		else
			rc = ws_sizes(o, &cap, item + plen, len - plen, order, caches);
		if (rc)
			return rc;
		if (!item[len])
			break;
		item += len + 1;
	}
	return ws_dedup(o);
}

static int parse_membind(const char *s, struct run_opts *o)
{
	const char *num = !strncmp(s, "node:", 5) ? s + 5 : s;
	char *end;
	long node;

	snprintf(o->membind_name, sizeof o->membind_name, "%s", s);
	if (!strcmp(s, "local")) {
		o->bind.kind = MEMBIND_LOCAL;
		return 0;
	}
	if (!strcmp(s, "interleave")) {
		o->bind.kind = MEMBIND_INTERLEAVE;
		return 0;
	}
	node = strtol(num, &end, 10);
	if (!isdigit((unsigned char)*num) || *end)
		return fail("--membind '%s': want local, interleave or a node number", s);
	if (numa_available() < 0 ? node != 0
				 : node > numa_max_node() ||
					   !numa_bitmask_isbitset(numa_get_mems_allowed(), (unsigned)node))
		return fail("--membind '%s': NUMA node %ld does not exist or is not allowed here", s,
			    node);
	o->bind.kind = MEMBIND_NODE;
	o->bind.node = (int)node;
	snprintf(o->membind_name, sizeof o->membind_name, "node:%ld", node);
	return 0;
}

static int parse_pages(const char *s, struct run_opts *o)
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

enum opt_id {
	O_PRESET, O_KERNELS, O_CALL, O_WS, O_THREADS, O_PLACEMENT, O_MEMBIND, O_PAGES, O_FILL,
	O_PREFILL, O_MISALIGN, O_REPETITIONS, O_MIN_TIME, O_CSV, O_JSON, O_MACHINE, O_SLOWDOWN,
	O_RW, O_RW_MODE, O_RW_LAYOUT, O_CHUNK, O_COUNT
};

static const char *const opt_names[O_COUNT] = {
	[O_PRESET] = "--preset", [O_KERNELS] = "--kernels", [O_CALL] = "--call", [O_WS] = "--ws",
	[O_THREADS] = "--threads", [O_PLACEMENT] = "--placement", [O_MEMBIND] = "--membind",
	[O_PAGES] = "--pages", [O_FILL] = "--fill", [O_PREFILL] = "--prefill",
	[O_MISALIGN] = "--misalign", [O_REPETITIONS] = "--repetitions",
	[O_MIN_TIME] = "--min-time", [O_CSV] = "--csv", [O_JSON] = "--json",
	[O_MACHINE] = "--machine", [O_SLOWDOWN] = "--inject-slowdown", [O_RW] = "--rw",
	[O_RW_MODE] = "--rw-mode", [O_RW_LAYOUT] = "--rw-layout", [O_CHUNK] = "--chunk",
};

/* Collect option values by id; the last one given wins. */
static int collect(int argc, char **argv, const char **val)
{
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *eq = strchr(a, '=');
		size_t nlen = eq ? (size_t)(eq - a) : strlen(a);
		int id;

		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			opts_usage(stdout);
			return -1;
		}
		if (!strncmp(a, "--benchmark_out", 15) && strncmp(a, "--benchmark_out_format", 22))
			return fail("%s: use --json FILE (storebench writes the JSON itself)", a);
		if (!strncmp(a, "--benchmark_display_aggregates_only", 35))
			return fail("%s: the console already shows one line (the median) per point, "
				    "and the JSON must keep every repetition", a);
		if (!strncmp(a, "--benchmark_", 12) || !strncmp(a, "--v=", 4))
			continue;
		for (id = 0; id < O_COUNT; id++)
			if (strlen(opt_names[id]) == nlen && !strncmp(a, opt_names[id], nlen))
				break;
		if (id == O_COUNT)
			return fail("unknown option '%s' (see storebench run --help)", a);
		if (eq) {
			val[id] = eq + 1;
		} else if (i + 1 < argc) {
			val[id] = argv[++i];
		} else {
			return fail("%s needs a value", a);
		}
	}
	return 0;
}

static bool parse_number(const char *s, double lo, double hi, double *out)
{
	char *end;
	double v = strtod(s, &end);

	if (!*s || *end || !(v >= lo && v <= hi))
		return false;
	*out = v;
	return true;
}

/* "quick, nightly or full", from presets.def. */
static const char *preset_names(void)
{
	static char buf[256];
	size_t n = sizeof presets / sizeof presets[0], used = 0;

	for (size_t i = 0; i < n && used < sizeof buf; i++)
		used += (size_t)snprintf(buf + used, sizeof buf - used, "%s%s",
					 i == 0 ? "" : i + 1 == n ? " or " : ", ", presets[i].name);
	return buf;
}

/* A comma list of mode or layout names into out[], each at most once. */
static int parse_names(const char *opt, const char *spec, int (*one)(const char *, int *, char *,
								       size_t),
		       int *out, size_t max, size_t *n)
{
	char item[32], err[200];
	const char *s = spec;

	*n = 0;
	for (;;) {
		size_t len = strcspn(s, ",");
		int v;

		if (len == 0 || len >= sizeof item)
			return fail("%s '%s': empty or overlong element", opt, spec);
		memcpy(item, s, len);
		item[len] = '\0';
		if (one(item, &v, err, sizeof err))
			return fail("%s", err);
		for (size_t i = 0; i < *n; i++)
			if (out[i] == v)
				return fail("%s '%s': '%s' given twice", opt, spec, item);
		if (*n == max)
			return fail("%s '%s': too many elements", opt, spec);
		out[(*n)++] = v;
		if (!s[len])
			return 0;
		s += len + 1;
	}
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

/* --rw, --rw-mode, --rw-layout, --chunk; the chunk against each region is checked per point. */
static int parse_rw(struct run_opts *o, const struct cpu_info *cpu, const struct size_word *caches)
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
	if (!parse_sizes("--chunk", o->chunk_spec, caches, &o->chunk))
		return 2;
	for (size_t i = 0; i < o->chunk.n; i++)
		if (rw_check_chunk(o->chunk.v[i], SIZE_MAX, err, sizeof err))
			return fail("%s", err);
	o->load = load_kernel_best(cpu);
	return 0;
}

int opts_parse(int argc, char **argv, const struct cpu_info *cpu, struct run_opts *o)
{
	const char *val[O_COUNT] = { 0 };
	const struct preset *pr = NULL;
	const struct list_grammar offsets = { .min = 0, .max = 63 };
	struct list_grammar threads = { .nwords = 1, .min = 1, .max = ~0ull };
	struct size_word caches[NCACHE_WORDS], all;
	uint64_t cold;
	char err[512];
	double num;
	int rc;

	memset(o, 0, sizeof *o);
	rc = collect(argc, argv, val);
	if (rc)
		return rc;
	o->preset = val[O_PRESET] ? val[O_PRESET] : "quick";
	for (size_t i = 0; i < sizeof presets / sizeof presets[0]; i++)
		if (!strcmp(presets[i].name, o->preset))
			pr = &presets[i];
	if (!pr)
		return fail("--preset '%s': want %s", o->preset, preset_names());
	o->kernels_spec = val[O_KERNELS] ? val[O_KERNELS] : pr->kernels;
	o->call_spec = val[O_CALL] ? val[O_CALL] : pr->call;
	o->ws_spec = val[O_WS] ? val[O_WS] : pr->ws;
	o->threads_spec = val[O_THREADS] ? val[O_THREADS] : pr->threads;
	o->misalign_spec = val[O_MISALIGN] ? val[O_MISALIGN] : "0";
	o->rw_spec = val[O_RW] ? val[O_RW] : pr->rw;
	o->rw_mode_spec = val[O_RW_MODE] ? val[O_RW_MODE] : pr->rw_mode;
	o->rw_layout_spec = val[O_RW_LAYOUT] ? val[O_RW_LAYOUT] : pr->rw_layout;
	o->chunk_spec = val[O_CHUNK] ? val[O_CHUNK] : pr->chunk;
	o->repetitions = pr->repetitions;
	o->min_time = pr->min_time;
	o->csv = val[O_CSV];
	o->json = val[O_JSON];
	o->machine = val[O_MACHINE];

	o->fill = DEFAULT_FILL;
	if (val[O_FILL] && !byte_parse(val[O_FILL], &o->fill))
		return fail("--fill '%s': want a byte, decimal 0..255 or hex 0x00..0xff (a leading 0 "
			    "is not octal: write 8 or 0x08, not 010)", val[O_FILL]);
	o->prefill = o->fill ^ 0xff;
	if (val[O_PREFILL] && !byte_parse(val[O_PREFILL], &o->prefill))
		return fail("--prefill '%s': want a byte, decimal 0..255 or hex 0x00..0xff (a leading "
			    "0 is not octal: write 8 or 0x08, not 010)", val[O_PREFILL]);
	if (o->prefill == o->fill)
		return fail("--prefill %u equals --fill: verification could not see a missing store",
			    o->fill);
	if (val[O_REPETITIONS]) {
		if (!parse_number(val[O_REPETITIONS], 1, 100000, &num) || num != (int)num)
			return fail("--repetitions '%s': want a whole number >= 1", val[O_REPETITIONS]);
		o->repetitions = (int)num;
	}
	if (val[O_MIN_TIME] && !parse_number(val[O_MIN_TIME], 1e-6, 3600, &o->min_time))
		return fail("--min-time '%s': want seconds, e.g. 0.05", val[O_MIN_TIME]);
	if (val[O_SLOWDOWN] && !parse_number(val[O_SLOWDOWN], 0, 1000, &o->slowdown_pct))
		return fail("--inject-slowdown '%s': want a percentage, 0..1000", val[O_SLOWDOWN]);
	if (o->machine && (!*o->machine || strchr(o->machine, '/')))
		return fail("--machine '%s': want a plain folder name", o->machine);

	if (!kernel_select(o->kernels_spec, cpu, o->fill, &o->sel))
		return 2;
	cache_words(cpu, caches);
	if (!parse_sizes("--call", o->call_spec, caches, &o->call))
		return 2;
	rc = parse_ws(o->ws_spec, caches, o);
	if (rc)
		return rc;
	if (parse_rw(o, cpu, caches))
		return 2;
	if (!u64_list_parse(o->misalign_spec, &offsets, &o->misalign, err, sizeof err))
		return list_fail("--misalign", o->misalign_spec, err);

	if (!placement_build(val[O_PLACEMENT] ? val[O_PLACEMENT] : "compact", &o->placement, err,
			     sizeof err))
		return fail("--placement '%s': %s", val[O_PLACEMENT], err);
	all = (struct size_word){ "all", o->placement.ncpus };
	threads.words = &all;
	if (!u64_list_parse(o->threads_spec, &threads, &o->threads, err, sizeof err))
		return list_fail("--threads", o->threads_spec, err);
	for (size_t i = 0; i < o->threads.n; i++)
		if (o->threads.v[i] > o->placement.ncpus)
			return fail("--threads '%s': %llu threads but only %zu CPUs are allowed here",
				    o->threads_spec, o->threads.v[i], o->placement.ncpus);
	if (parse_membind(val[O_MEMBIND] ? val[O_MEMBIND] : "local", o))
		return 2;
	if (val[O_PAGES] && parse_pages(val[O_PAGES], o))
		return 2;
	if (!val[O_PAGES])
		o->pages = PAGES_4K;
	/* cold cycles through 4 x LLC (an LLC of 64 MiB when unknown), at least 4 x call */
	if (!mul_u64_within(4, cpu_llc_bytes(cpu) ? cpu_llc_bytes(cpu) : 64ull << 20, SIZE_LIMIT,
			    &cold))
		return fail("--ws cold: 4 x LLC (LLC = %zu bytes) is more than %s", cpu_llc_bytes(cpu),
			    SIZE_LIMIT_TEXT);
	o->cold_bytes = cold;
	return 0;
}

void opts_free(struct run_opts *o)
{
	free(o->sel.k);
	free(o->sel.skipped);
	free(o->ws);
	free(o->placement.cpu);
	free(o->placement.node);
	u64_list_free(&o->call);
	u64_list_free(&o->threads);
	u64_list_free(&o->misalign);
	u64_list_free(&o->chunk);
}
