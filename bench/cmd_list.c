/*
 * cmd_list.c — `storebench list`: every kernel of kernels.def, its shape and whether it runs here.
 * Plain C.  Derived fields (granule) are computed from the table, never typed; --tsv is the stable
 * form for scripts and tests, the default is a table for people.
 */
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "cpu.h"
#include "kernels.h"

static void print_tsv(const struct cpu_info *cpu)
{
	puts("name\tkind\twidth_bytes\tunroll\tgranule_bytes\tisa\tfill\tavailable\treason\tdesc");
	for (size_t i = 0; i < kernel_count; i++) {
		const struct kernel *k = &kernel_table[i];
		const char *why = cpu_kernel_unavailable(k, cpu);
		char isa[128];

		cpu_isa_names(k->isa, isa, sizeof isa);
		printf("%s\t%s\t%u\t%u\t%zu\t%s\t%s\t%s\t%s\t%s\n", k->name, kernel_kind_name(k->kind),
		       k->width, k->unroll, kernel_granule(k), isa,
		       k->fill == FILL_ZERO ? "zero" : "any", why ? "no" : "yes", why ? why : "",
		       k->desc);
	}
}

static void print_table(const struct cpu_info *cpu)
{
	size_t w = 4, avail = 0;

	for (size_t i = 0; i < kernel_count; i++)
		if (strlen(kernel_table[i].name) > w)
			w = strlen(kernel_table[i].name);
	printf("%-*s  %-5s  %5s  %6s  %7s  %-22s  %s\n", (int)w, "name", "kind", "width", "unroll",
	       "granule", "isa", "available");
	for (size_t i = 0; i < kernel_count; i++) {
		const struct kernel *k = &kernel_table[i];
		const char *why = cpu_kernel_unavailable(k, cpu);
		char isa[128];

		cpu_isa_names(k->isa, isa, sizeof isa);
		printf("%-*s  %-5s  %5u  %6u  %7zu  %-22s  %s%s\n", (int)w, k->name,
		       kernel_kind_name(k->kind), k->width, k->unroll, kernel_granule(k),
		       isa[0] ? isa : "-", why ? "no: " : "yes", why ? why : "");
		avail += !why;
	}
	printf("%zu kernels, %zu available on this CPU (%s, %s)\n", kernel_count, avail, cpu->brand,
	       cpu->codename);
}

int cmd_list(int argc, char **argv)
{
	struct cpu_info cpu;
	int tsv = 0;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--tsv")) {
			tsv = 1;
		} else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			puts("usage: storebench list [--tsv]\n"
			     "Lists every store kernel: kind, bytes per store, unroll, bytes per loop\n"
			     "iteration (granule), required ISA, and whether this CPU can run it (and why\n"
			     "not).  --tsv: tab-separated with one header line, plus fill and description.");
			return 0;
		} else {
			fprintf(stderr, "storebench list: unknown option '%s' (try --help)\n", argv[i]);
			return 2;
		}
	}
	cpu_detect(&cpu);
	if (tsv)
		print_tsv(&cpu);
	else
		print_table(&cpu);
	return fflush(stdout) ? 1 : 0;
}
