/*
 * cmd_list.c — `storebench list`: every kernel of kernels.def and load.def, its shape and whether
 * it runs here.  Plain C.  Derived fields (granule) are computed from the tables, never typed;
 * --tsv is the stable form for scripts (store kernels only, --loads for the read side,
 * --presets for the sweeps of `run --preset`).
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "cpu.h"
#include "kernels.h"
#include "load.h"
#include "machine.h"
#include "options.h"
#include "run_metadata.h"
#include "size_dist.h"

static void print_tsv(const struct cpu_info *cpu)
{
	puts("name\tkind\twidth_bytes\tunroll\tgranule_bytes\tisa\tfill\tavailable\treason\tdesc");
	for (size_t i = 0; i < kernel_count; i++) {
		const struct kernel *k = &kernel_table[i];
		const char *why = kernel_unavailable(k, cpu);
		char isa[128];

		cpu_isa_names(k->isa, isa, sizeof isa);
		printf("%s\t%s\t%u\t%u\t%zu\t%s\t%s\t%s\t%s\t%s\n", k->name, kernel_kind_name(k->kind),
		       k->width, k->unroll, kernel_granule(k), isa,
		       k->fill == FILL_ZERO ? "zero" : "any", why ? "no" : "yes", why ? why : "",
		       k->desc);
	}
}

/* Name column wide enough for both lists, so the store and read tables line up. */
static int name_width(void)
{
	size_t w = strlen("name");

	for (size_t i = 0; i < kernel_count; i++)
		if (strlen(kernel_table[i].name) > w)
			w = strlen(kernel_table[i].name);
	for (size_t i = 0; i < load_count; i++)
		if (strlen(load_table[i].name) > w)
			w = strlen(load_table[i].name);
	return (int)w;
}

static void print_header(int w)
{
	printf("%-*s  %-5s  %5s  %6s  %7s  %-22s  %s\n", w, "name", "kind", "width", "unroll",
	       "granule", "isa", "available");
}

/* One row of either table; why is NULL when this CPU can run it. */
static void print_row(int w, const char *name, const char *kind, unsigned width, unsigned unroll,
		      size_t granule, unsigned isa_mask, const char *why)
{
	char isa[128];

	cpu_isa_names(isa_mask, isa, sizeof isa);
	printf("%-*s  %-5s  %5u  %6u  %7zu  %-22s  %s%s\n", w, name, kind, width, unroll, granule,
	       isa[0] ? isa : "-", why ? "no: " : "yes", why ? why : "");
}

static void print_table(const struct cpu_info *cpu, bool replayed)
{
	int w = name_width();
	size_t avail = 0;

	print_header(w);
	for (size_t i = 0; i < kernel_count; i++) {
		const struct kernel *k = &kernel_table[i];
		const char *why = kernel_unavailable(k, cpu);

		print_row(w, k->name, kernel_kind_name(k->kind), k->width, k->unroll,
			  kernel_granule(k), k->isa, why);
		avail += !why;
	}
	printf("%zu kernels, %zu available on %s CPU (%s, %s)\n", kernel_count, avail,
	       replayed ? "the replayed" : "this", cpu->brand, cpu->codename);
}

/* The read side of rw mixes, kind "read": only the widest available one is ever used. */
static void print_loads_table(const struct cpu_info *cpu, bool header)
{
	const struct load_kernel *best = load_kernel_best(cpu);
	int w = name_width();

	if (header)
		print_header(w);
	for (size_t i = 0; i < load_count; i++) {
		const struct load_kernel *lk = &load_table[i];

		print_row(w, lk->name, "read", lk->width, lk->unroll,
			  (size_t)lk->width * lk->unroll, lk->isa, load_kernel_unavailable(lk, cpu));
	}
	printf("%zu read kernels; rw mixes read with %s, the widest available (CSV read_kernel)\n",
	       load_count, best ? best->name : "none");
}

/* The read side of rw mixes: the columns of the store TSV that apply to a load. */
static void print_loads_tsv(const struct cpu_info *cpu)
{
	puts("name\twidth_bytes\tunroll\tgranule_bytes\tisa\tavailable\treason\tdesc");
	for (size_t i = 0; i < load_count; i++) {
		const struct load_kernel *lk = &load_table[i];
		const char *why = load_kernel_unavailable(lk, cpu);
		char isa[128];

		cpu_isa_names(lk->isa, isa, sizeof isa);
		printf("%s\t%u\t%u\t%u\t%s\t%s\t%s\t%s\n", lk->name, lk->width, lk->unroll,
		       lk->width * lk->unroll, isa, why ? "no" : "yes", why ? why : "", lk->desc);
	}
}

/* Every option of `storebench run`: its value's name, its default, the metadata key that records
 * it as a setting, and each preset's value (PRESET_FIELD options); the facts scripts read. */
static void print_options(bool tsv)
{
	if (tsv) {
		fputs("name\tvalue\tdefault\tsetting_key", stdout);
		for (size_t p = 0; p < presets_count(); p++)
			printf("\t%s", preset_at(p)->name);
		putchar('\n');
	}
	for (size_t i = 0; i < OPT_COUNT; i++) {
		const struct run_option *op = option_at(i);
		const char *key = run_metadata_setting_key((enum option_id)i);

		if (tsv) {
			printf("%s\t%s\t%s\t%s", op->name, op->placeholder ? op->placeholder : "",
			       op->dflt ? op->dflt : "", key ? key : "");
			for (size_t p = 0; p < presets_count(); p++)
				printf("\t%s", op->preset_field ? preset_value(preset_at(p), i) : "");
			putchar('\n');
			continue;
		}
		printf("--%s%s%s", op->name, op->placeholder ? " " : "",
		       op->placeholder ? op->placeholder : "");
		if (op->dflt)
			printf("  default %s", op->dflt[0] ? op->dflt : "\"\"");
		if (key)
			printf("  (the setting %s)", key);
		putchar('\n');
		for (size_t p = 0; op->preset_field && p < presets_count(); p++)
			printf("%s%s %s", p ? ", " : "    presets: ", preset_at(p)->name,
			       preset_value(preset_at(p), i));
		if (op->preset_field)
			putchar('\n');
	}
}

/*
 * The bundled size distributions: name, the sizes' quantiles and mean, and where each comes
 * from (--tsv: one header line, the same columns).  1 when one does not parse (a build fault).
 */
static int print_distributions(bool tsv)
{
	static const double q[] = { 0.5, 0.9, 0.99 };

	if (tsv)
		puts("name	p50_bytes	p90_bytes	p99_bytes	max_bytes	mean_bytes	source");
	else if (!bundled_dist_count)
		puts("no bundled size distribution (bench/distributions/ had none at build time)");
	else
		printf("%-12s %8s %8s %8s %10s %10s  %s\n", "name", "p50", "p90", "p99", "max",
		       "mean", "source");
	for (size_t i = 0; i < bundled_dist_count; i++) {
		struct size_dist d;
		char err[256];
		unsigned long long v[3];

		if (!size_dist_load(bundled_dists[i].name, &d, err, sizeof err)) {
			fprintf(stderr, "storebench list: %s\n", err);
			return 1;
		}
		for (size_t k = 0; k < 3; k++)
			v[k] = (unsigned long long)size_dist_quantile(&d, q[k]);
		printf(tsv ? "%s\t%llu\t%llu\t%llu\t%llu\t%.1f\t%s\n" :
			     "%-12s %8llu %8llu %8llu %10llu %10.1f  %s\n",
		       d.name, v[0], v[1], v[2], (unsigned long long)d.size[d.n - 1],
		       size_dist_mean(&d), d.source);
		size_dist_free(&d);
	}
	return 0;
}

int cmd_list(int argc, char **argv)
{
	struct machine m = { 0 };
	const struct cpu_info *cpu = &m.cpu;
	int tsv = 0, loads = 0, presets = 0, options = 0, dists = 0, rc;

	for (int i = 1; i < argc; i++) {
		int r = machine_option("storebench list", argc, argv, &i, &m);

		if (r < 0)
			return 2;
		if (r)
			continue;
		if (!strcmp(argv[i], "--tsv")) {
			tsv = 1;
		} else if (!strcmp(argv[i], "--loads")) {
			loads = 1;
		} else if (!strcmp(argv[i], "--presets")) {
			presets = 1;
		} else if (!strcmp(argv[i], "--options")) {
			options = 1;
		} else if (!strcmp(argv[i], "--distributions")) {
			dists = 1;
		} else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			puts("usage: storebench list [--loads | --presets | --options | "
			     "--distributions] [--tsv]\n"
			     "                       [--topology FILE.xml] [--cpuid FILE]\n"
			     "Lists every store kernel: kind, bytes per store, unroll, bytes per loop\n"
			     "iteration (granule), required ISA, and whether this CPU can run it (and why\n"
			     "not), then the read kernels of rw mixes.  --tsv: the store kernels\n"
			     "tab-separated with one header line, plus fill and description.  --loads: the\n"
			     "read kernels only (with --tsv: tab-separated, the same column names).\n"
			     "--presets: the presets of `storebench run --preset`, each as the options it\n"
			     "sets (with --tsv: a name column and one column per preset field, named as\n"
			     "its run option without the leading --).\n"
			     "--options: every option of `storebench run`: its value's name, its\n"
			     "default (empty: derived from other options), the metadata key that records\n"
			     "it as a setting (settings_keys, default_<key>), and each preset's value.\n"
			     "--distributions: the bundled size distributions (what `storebench capture`\n"
			     "writes, built in): the median, 90th and 99th percentile, largest and mean\n"
			     "size of a call, and where each comes from.\n"
			     "--cpuid FILE: availability on a replayed CPU (a raw CPUID dump, libcpuid's\n"
			     "format; the OS is taken to save every vector state the CPU has).\n"
			     "--topology FILE.xml: a replayed machine's hwloc XML topology (with --cpuid\n"
			     "for its ISA).");
			return 0;
		} else {
			fprintf(stderr, "storebench list: unknown option '%s' (try --help)\n", argv[i]);
			return 2;
		}
	}
	if (loads + presets + options + dists > 1) {
		fputs("storebench list: --loads, --presets, --options and --distributions: want one "
		      "of them\n", stderr);
		return 2;
	}
	if (dists) {
		rc = print_distributions(tsv);
		return fflush(stdout) || rc ? 1 : 0;
	}
	if (presets || options) {
		if (presets)
			presets_print(stdout, tsv);
		else
			print_options(tsv);
		return fflush(stdout) ? 1 : 0;
	}
	rc = machine_load(&m, "storebench list");
	if (rc)
		return rc;
	if (!cpu->cpuid_known) {
		fprintf(stderr, "storebench list: the replayed topology '%s' has no ISA: give the "
				"machine's CPUID dump too (--cpuid FILE)\n", m.topology_file);
		machine_free(&m);
		return 2;
	}
	if (tsv)
		(loads ? print_loads_tsv : print_tsv)(cpu);
	else if (loads)
		print_loads_table(cpu, true);
	else {
		print_table(cpu, m.topology_file || m.cpuid_file);
		putchar('\n');
		print_loads_table(cpu, false);
	}
	machine_free(&m);
	return fflush(stdout) ? 1 : 0;
}
