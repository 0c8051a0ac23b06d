/*
 * run_levels.c — run's --levels (run_levels.h): read the kept levels, scan what they lack, keep
 * the result.  Plain C.  The scan's sizes reach 8 x the reported last-level share (from 256 MiB
 * to 1 GiB a thread), far enough past a level reported too small or too large to see DRAM, and
 * never more memory than a quarter of what is available.
 */
#include "run_levels.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "buffer.h"
#include "kernels.h"
#include "level_scan.h"
#include "outfiles.h"
#include "signals.h"

#define SCAN_TOP_MIN (256ull << 20)
#define SCAN_TOP_MAX (1ull << 30)
#define SCAN_TOP_LLC_MULTIPLE 8
#define SCAN_FIRST_BYTES 4096
/* The scan's buffers take at most this part of MemAvailable. */
#define SCAN_MEM_SHARE 0.25

/* The scan's store kernel: the widest temporal one with four stores a loop this CPU runs (the
 * strategy whose curve the classes most need to be flat in); the scan's first line names it. */
static const struct kernel *scan_store(const struct cpu_info *cpu)
{
	static const char *const names[] = { "avx512_t_u4", "avx2_t_u4", "sse2_t_u4", "scalar_t_u4" };

	for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
		const struct kernel *k = kernel_find(names[i]);

		if (k && !kernel_unavailable(k, cpu))
			return k;
	}
	return NULL;
}

/* The reported last level's share at this count: L3, else L2, else L1d. */
static uint64_t reported_llc(const struct level_source *src)
{
	for (int l = LEVEL_L3; l >= LEVEL_L1D; l--)
		if (src->reported.bytes[l])
			return src->reported.bytes[l];
	return 0;
}

/* The command line with tabs and line breaks as spaces: it is one field of the file. */
static void one_line(char *dst, size_t len, const char *src)
{
	snprintf(dst, len, "%s", src);
	for (char *s = dst; *s; s++)
		if (*s == '\t' || *s == '\n' || *s == '\r')
			*s = ' ';
}

/* Scan the CPUs of a into e.  0, 1 (failed), or 128 + a signal. */
static int scan(const struct cmdline *cl, const struct cpu_info *cpu,
		const struct scaled_axes *a, const char *cpus, struct levels_entry *e)
{
	const struct kernel *k = scan_store(cpu);
	struct level_scan s = { .threads = a->threads, .cpu = a->ts.cpu, .node = a->ts.node,
				.first_bytes = SCAN_FIRST_BYTES, .store = k ? k->fn : NULL,
				.stopped = signals_pending };
	uint64_t top = SCAN_TOP_LLC_MULTIPLE * reported_llc(&a->levels);
	double room = SCAN_MEM_SHARE * (double)meminfo("MemAvailable");
	char err[200];
	time_t now = time(NULL);

	top = top < SCAN_TOP_MIN ? SCAN_TOP_MIN : top > SCAN_TOP_MAX ? SCAN_TOP_MAX : top;
	while (room > 0 && top > SCAN_TOP_MIN / 4 &&
	       (double)a->threads * (double)buffer_footprint(top, PAGES_THP) > room)
		top /= 2;
	s.top_bytes = top;
	memset(e, 0, sizeof *e);
	e->threads = a->threads;
	snprintf(e->cpus, sizeof e->cpus, "%s", cpus);
	strftime(e->utc, sizeof e->utc, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
	one_line(e->command, sizeof e->command, cl->text);
	if (room > 0 && (double)a->threads * (double)buffer_footprint(top, PAGES_THP) > room) {
		/* kept as it is: the reported levels stand, and no later run tries again */
		snprintf(e->found.why, sizeof e->found.why, "not scanned: %u x %llu MiB is more than "
			 "a quarter of MemAvailable", a->threads, (unsigned long long)(top >> 20));
		return 0;
	}
	fprintf(stderr, "storebench run: measuring the cache levels at %u thread%s (CPUs %s, loads "
			"and %s stores up to %llu MiB each; once for this machine) ...\n", a->threads,
		a->threads == 1 ? "" : "s", cpus, k ? k->name : "no", (unsigned long long)(top >> 20));
	if (!level_scan_run(&s, &e->curve, err, sizeof err)) {
		if (signals_pending())
			return 128 + signals_pending();
		fprintf(stderr, "storebench run: the cache level scan at %u threads failed: %s\n",
			a->threads, err);
		return 1;
	}
	effective_find(&e->curve, &a->levels.reported, &e->found);
	return 0;
}

/* This machine's kept levels into m->levels, scanned where o's counts lack them (all: refresh). */
static int measured(const struct cmdline *cl, struct machine *m, const struct run_config *o,
		    bool refresh)
{
	char id[128], path[4096], fingerprint[512], err[300];
	int lock = -1, rc = 0;
	bool kept, changed = false;

	machine_id(&m->cpu, id, sizeof id);
	levels_fingerprint(&m->cpu, fingerprint, sizeof fingerprint);
	kept = levels_path(id, path, sizeof path);
	if (kept) {
		lock = levels_lock(path);
		if (levels_read(path, fingerprint, &m->levels, err, sizeof err)) {
			fprintf(stderr, "storebench run: note: %s: %s; measuring again\n", path, err);
			snprintf(m->levels.path, sizeof m->levels.path, "%s", path);
			snprintf(m->levels.fingerprint, sizeof m->levels.fingerprint, "%s", fingerprint);
		}
	} else {
		snprintf(m->levels.fingerprint, sizeof m->levels.fingerprint, "%s", fingerprint);
		fprintf(stderr, "storebench run: note: no HOME, XDG_CACHE_HOME or "
				"STOREBENCH_LEVELS_DIR: the levels measured now are not kept\n");
	}
	for (size_t i = 0; !rc && i < o->threads.n; i++) {
		const struct scaled_axes *a = &o->at[i];
		char cpus[sizeof m->levels.e->cpus];
		struct levels_entry e;

		if (!scaled_cpus(&a->ts, cpus, sizeof cpus) ||
		    (!refresh && levels_lookup(&m->levels, cpus)))
			continue;
		rc = scan(cl, &m->cpu, a, cpus, &e);
		if (!rc && !levels_put(&m->levels, &e)) {
			fprintf(stderr, "storebench run: out of memory\n");
			rc = 1;
		}
		changed |= !rc;
	}
	if (changed && kept && !levels_write(&m->levels, err, sizeof err))
		fprintf(stderr, "storebench run: note: the measured levels are not kept: %s\n", err);
	if (lock >= 0)
		close(lock);
	return rc;
}

int run_levels(const struct cmdline *cl, struct machine *m, const struct run_config *o)
{
	const char *spec = o->levels_spec;
	bool replayed = m->topology_file || m->cpuid_file;
	char err[300] = "";

	if (!strcmp(spec, "reported"))
		return 0;
	if (strcmp(spec, "auto") && strcmp(spec, "measure")) {
		if (!levels_read(spec, NULL, &m->levels, err, sizeof err) && m->levels.n)
			return 0;
		if (!m->levels.n && !err[0])
			snprintf(err, sizeof err, "holds no measured levels (an empty file?)");
		fprintf(stderr, "storebench run: --levels '%s': %s (want auto, measure, reported or "
				"a levels file)\n", spec, err);
		return 2;
	}
	if (replayed && !strcmp(spec, "measure")) {
		fprintf(stderr, "storebench run: --levels measure: a replayed machine is never "
				"measured (give --levels FILE, levels kept from it)\n");
		return 2;
	}
	return replayed ? 0 : measured(cl, m, o, !strcmp(spec, "measure"));
}

bool levels_replaced(const struct run_config *o)
{
	for (size_t i = 0; i < o->threads.n; i++)
		if (o->at[i].levels.replaced)
			return true;
	return false;
}

static void shares_text(char *buf, size_t len, const struct level_shares *s, unsigned mask)
{
	size_t at = 0;

	buf[0] = 0;
	for (int l = LEVEL_L1D; l < LEVEL_DRAM && at < len; l++)
		if (mask & 1u << l)
			at += (size_t)snprintf(buf + at, len - at, "%s%s %llu KiB", at ? ", " : "",
					       level_name[l],
					       (unsigned long long)(s->bytes[l] >> 10));
}

void run_levels_notes(const struct run_config *o)
{
	for (size_t i = 0; i < o->threads.n; i++) {
		const struct level_source *src = &o->at[i].levels;
		char was[160], now[160];

		if (!src->measured)
			continue;
		if (src->measured->found.why[0]) {
			fprintf(stderr, "storebench run: note: at %u thread%s no level was measured "
					"(%s): the reported ones stand\n",
				o->at[i].threads, o->at[i].threads == 1 ? "" : "s",
				src->measured->found.why);
			continue;
		}
		if (!src->replaced)
			continue;
		shares_text(was, sizeof was, &src->reported, src->replaced);
		shares_text(now, sizeof now, &(struct level_shares){ {
				    src->measured->found.bytes[0], src->measured->found.bytes[1],
				    src->measured->found.bytes[2] } }, src->replaced);
		fprintf(stderr, "storebench run: note: at %u thread%s a thread's share is %s as "
				"measured (%s), not %s as reported: sizes and classes use the measured\n",
			o->at[i].threads, o->at[i].threads == 1 ? "" : "s", now,
			src->measured->utc, was);
	}
}
