/*
 * info_json.c — JSON form of `storebench info`: every key=value as a string, and "topology" with
 * packages, NUMA nodes (memory), caches with the CPUs of each instance, cores (SMT siblings).
 * Plain C, no ISA.  CPU sets are Linux CPU-list strings ("0-7,192-199"), as sysfs and hwloc write.
 */
#include "info_json.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "cpulist.h"

static void json_string(FILE *out, const char *s, size_t n)
{
	fputc('"', out);
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == '"' || c == '\\')
			fprintf(out, "\\%c", c);
		else if (c < 0x20 || c == 0x7f)
			fprintf(out, "\\u%04x", c);
		else
			fputc(c, out);
	}
	fputc('"', out);
}

/* The OS numbers of the PUs for which pick(pu, arg) holds, as a CPU list string. */
static void json_cpus(FILE *out, const struct topology *t, bool (*pick)(const struct topo_pu *, long),
		      long arg, unsigned *scratch, char *buf, size_t len)
{
	size_t n = 0;

	for (size_t i = 0; i < t->npus; i++)
		if (pick(&t->pu[i], arg))
			scratch[n++] = t->pu[i].os;
	cpulist_format(scratch, n, buf, len);
	json_string(out, buf, strlen(buf));
}

static bool in_package(const struct topo_pu *pu, long p) { return pu->package == (unsigned)p; }
static bool in_node(const struct topo_pu *pu, long os) { return pu->node == os; }
static bool in_core(const struct topo_pu *pu, long c) { return pu->core == (unsigned)c; }
static bool is_allowed(const struct topo_pu *pu, long unused) { (void)unused; return pu->allowed; }

/* Instance i of cache kind k, packed into one long for the picker. */
#define CACHE_ARG(k, i) ((long)(i) * TOPO_KINDS + (k))
static bool in_cache(const struct topo_pu *pu, long arg)
{
	return pu->cache[arg % TOPO_KINDS] == (int)(arg / TOPO_KINDS);
}

static void topology_json(FILE *out, const struct topology *t)
{
	static const int by_level[] = { TOPO_L1D, TOPO_L1I, TOPO_L2, TOPO_L3 };
	/* the longest list: every other CPU of the machine, "0,2,4,..." */
	size_t len = 12 * (t->npus + 1);
	unsigned *scratch = calloc(t->npus + 1, sizeof *scratch);
	char *buf = malloc(len);

	if (!scratch || !buf) {
		fputs("null", out);
		free(scratch);
		free(buf);
		return;
	}
	fputs("{\"source\": ", out);
	if (t->source)
		json_string(out, t->source, strlen(t->source));
	else
		fputs("null", out);
	fputs(", \"backend\": ", out);
	json_string(out, t->backend, strlen(t->backend));
	fprintf(out, ", \"cache_source\": \"%s\", \"pus\": %zu, \"smt_threads_per_core\": %u",
		t->cache_source, t->npus, t->smt_width);
	fputs(", \"allowed_cpus\": ", out);
	json_cpus(out, t, is_allowed, 0, scratch, buf, len);
	fputs(",\n  \"packages\": [", out);
	for (unsigned p = 0; p < t->packages; p++) {
		fprintf(out, "%s{\"index\": %u, \"cpus\": ", p ? ", " : "", p);
		json_cpus(out, t, in_package, p, scratch, buf, len);
		fputc('}', out);
	}
	fputs("],\n  \"numa_nodes\": [", out);
	for (size_t k = 0; k < t->nnodes; k++) {
		fprintf(out, "%s{\"os_index\": %u, \"cpus\": ", k ? ", " : "", t->node[k].os);
		json_cpus(out, t, in_node, t->node[k].os, scratch, buf, len);
		if (t->node[k].memory_bytes)
			fprintf(out, ", \"memory_bytes\": %llu}", t->node[k].memory_bytes);
		else
			fputs(", \"memory_bytes\": null}", out);
	}
	fputs("],\n  \"caches\": [", out);
	for (size_t o = 0, first = 1; o < sizeof by_level / sizeof by_level[0]; o++) {
		int k = by_level[o];
		const struct topo_level *lv = &t->cache[k];

		if (!lv->count)
			continue;
		fprintf(out, "%s\n    {\"level\": %u, \"type\": \"%s\", \"instances\": [", first ? "" : ",",
			lv->level, lv->type);
		first = 0;
		for (size_t i = 0; i < lv->count; i++) {
			fprintf(out, "%s{\"size_bytes\": %zu, \"cores\": %u, \"cpus\": ", i ? ", " : "",
				lv->inst[i].size_bytes, lv->inst[i].cores);
			json_cpus(out, t, in_cache, CACHE_ARG(k, i), scratch, buf, len);
			fputc('}', out);
		}
		fputs("]}", out);
	}
	fputs("],\n  \"cores\": [", out);
	for (unsigned c = 0; c < t->cores; c++) {
		fputs(c ? ", " : "", out);
		json_cpus(out, t, in_core, c, scratch, buf, len);
	}
	fputs("]}", out);
	free(scratch);
	free(buf);
}

void info_json(FILE *out, const char *kv, const struct machine *m)
{
	bool first = true;

	fputs("{", out);
	for (const char *line = kv; *line;) {
		const char *eq = strchr(line, '='), *end = strchr(line, '\n');

		if (!end)
			end = line + strlen(line);
		if (eq && eq < end) {
			fputs(first ? "\n  " : ",\n  ", out);
			first = false;
			json_string(out, line, (size_t)(eq - line));
			fputs(": ", out);
			json_string(out, eq + 1, (size_t)(end - eq - 1));
		}
		line = *end ? end + 1 : end;
	}
	fputs(",\n  \"topology\": ", out);
	if (m->topo)
		topology_json(out, m->topo);
	else
		fputs("null", out);
	fputs("\n}\n", out);
}
