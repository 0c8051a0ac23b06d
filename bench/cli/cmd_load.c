/*
 * cmd_load.c — `storebench load`: a steady memory load with a time series, as memtouch makes one
 * (to load a guest during live migration, or to measure what a neighbour's load costs): threads
 * dirty and read their own regions with one store kernel until stopped, and every --interval a
 * row says what they did.  Plain C.  The workers are bench/load/load_gen.c; this file reads the
 * options, writes the CSV as it goes and its summary at the end.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "commands.h"
#include "load_gen.h"
#include "machine.h"
#include "metadata.h"
#include "options.h"
#include "outfiles.h"
#include "placement.h"
#include "rw.h"
#include "signals.h"
#include "sizes.h"

static const char usage[] =
	"usage: storebench load [--kernel NAME] [--threads N] [--placement SPEC] [--mem SIZE]\n"
	"                       [--rw R] [--chunk SIZE] [--pages 4k|thp|hugetlb] [--fill BYTE]\n"
	"                       [--duration SEC] [--interval SEC] [--write-rate GB/s] [--once]\n"
	"                       [--csv FILE] [--machine ID]\n"
	"A steady memory load (memtouch's): each of --threads threads, pinned as --placement says\n"
	"(compact, spread or cpus:LIST; default compact), first touches its own --mem bytes (default\n"
	"1GiB) with the store kernel --kernel (default memset; `storebench list`), then walks them in\n"
	"--chunk calls (default 4KiB, a multiple of 64), --rw of them stores (default 100; a percent\n"
	"like 50.5 or read:write like 3:1, as run's --rw; spread evenly: 50 reads and writes\n"
	"alternately), the rest reads, until --duration seconds have passed\n"
	"(default: until SIGINT or SIGTERM).  --write-rate caps the stores of all threads together,\n"
	"in GB/s (1e9 bytes), so a migration test dirties memory at a known rate.  --once: the first\n"
	"touch only, its time reported, no steady load.\n"
	"Every --interval seconds (default 1) one CSV row: t_s, the interval, bytes read and written\n"
	"in it over all threads (from counters the workers add to: the rows add up to the totals),\n"
	"GB/s read, written and total, and the slowest thread's GB/s; written as it goes, so a\n"
	"killed load keeps every interval but the current one.  A stop (SIGINT, SIGTERM) writes the\n"
	"last, shorter interval (complete=0) and a summary (mean, min and max per interval) as # lines\n"
	"and on stderr.  Default file: results/<machine>/<UTC time>-load.csv; columns:\n"
	"results/README.md, Load time series.  scripts/plot draws it.\n";

/* The steady load's limits: an interval from 1 ms, a run up to a year, a rate up to 10 TB/s. */
#define LOAD_INTERVAL_MIN 0.001
#define LOAD_DURATION_MAX (365.0 * 86400)
#define LOAD_RATE_MAX 10000.0

struct load_options {
	const char *kernel, *placement, *csv, *machine;
	unsigned threads;
	uint64_t mem, chunk;
	struct rw_ratio rw;  /* share of chunks stored, run's --rw grammar (75, 50.5, 3:1) */
	enum page_policy pages;
	unsigned fill;
	double duration;     /* seconds; 0: until a signal */
	double interval;     /* seconds per row */
	double write_rate;   /* GB/s over all threads; 0: unlimited */
	bool once;
};

static int bad(const char *opt, const char *value, const char *want)
{
	fprintf(stderr, "storebench load: %s '%s': %s\n", opt, value, want);
	return 2;
}

static bool size_value(const char *s, uint64_t *out)
{
	struct list_grammar g = { .units = true, .min = 1, .max = SIZE_LIMIT };
	struct u64_list l = { 0 };
	char err[128];
	bool ok = u64_list_parse(s, &g, &l, err, sizeof err) && l.n == 1;

	if (ok)
		*out = l.v[0];
	u64_list_free(&l);
	return ok;
}

/* One option at argv[*i]: 0 consumed, 1 help printed, 2 bad (one stderr line). */
static int option(int argc, char **argv, int *i, struct load_options *o)
{
	const char *a = argv[*i], *eq = strchr(a, '='), *v;
	char name[32];
	uint64_t u;

	if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
		fputs(usage, stdout);
		return 1;
	}
	if (!strcmp(a, "--once")) {
		o->once = true;
		return 0;
	}
	static const char *const with_value[] = { "--kernel", "--threads", "--placement", "--mem",
						  "--rw", "--chunk", "--pages", "--fill", "--duration",
						  "--interval", "--write-rate", "--csv", "--machine" };
	bool known = false;

	snprintf(name, sizeof name, "%.*s", eq ? (int)(eq - a) : (int)strlen(a), a);
	for (size_t k = 0; k < sizeof with_value / sizeof with_value[0]; k++)
		known |= !strcmp(name, with_value[k]);
	if (!known) {
		fprintf(stderr, "storebench load: unknown option '%s' (try --help)\n", a);
		return 2;
	}
	v = eq ? eq + 1 : *i + 1 < argc ? argv[++*i] : NULL;
	if (!v) {
		fprintf(stderr, "storebench load: %s needs a value (try --help)\n", name);
		return 2;
	}
	if (!strcmp(name, "--kernel"))
		o->kernel = v;
	else if (!strcmp(name, "--placement"))
		o->placement = v;
	else if (!strcmp(name, "--csv") && (!*v || strlen(v) >= 4096))
		/* as run: bad input, exit 2, before any file is tried */
		return bad(name, *v ? "..." : v, *v ? "a path of 4096 bytes or more" :
						     "want a file name");
	else if (!strcmp(name, "--csv"))
		o->csv = v;
	else if (!strcmp(name, "--machine"))
		return folder_name_ok(v, MACHINE_ID_MAX) ? (o->machine = v, 0)
			: bad(name, v, "want a folder name of 1.." OPTIONS_STR(MACHINE_ID_MAX)
				       " characters from A-Z a-z 0-9 . _ -, not . or ..");
	else if (!strcmp(name, "--threads"))
		return size_value(v, &u) && u <= 4096 ? (o->threads = (unsigned)u, 0)
						       : bad(name, v, "want a count, 1..4096");
	else if (!strcmp(name, "--mem"))
		return size_value(v, &o->mem) ? 0 : bad(name, v, "want a size, e.g. 1GiB");
	else if (!strcmp(name, "--chunk"))
		/* whole lines, as run's --chunk: a streaming kernel stores whole 64-byte lines */
		return size_value(v, &o->chunk) && o->chunk % 64 == 0 ? 0 :
			bad(name, v, "want a size that is a multiple of 64, e.g. 4KiB");
	else if (!strcmp(name, "--rw")) {
		char err[200];
		size_t n;

		/* one ratio, by run's --rw rule: a percent with up to two decimals or R:W */
		if (!rw_parse_list(v, &o->rw, 1, &n, err, sizeof err))
			return 0;
		fprintf(stderr, "storebench load: %s\n", err);
		return 2;
	}
	else if (!strcmp(name, "--pages")) {
		for (int p = PAGES_4K; p <= PAGES_HUGETLB; p++)
			if (!strcmp(v, page_policy_name[p])) {
				o->pages = (enum page_policy)p;
				return 0;
			}
		return bad(name, v, "want 4k, thp or hugetlb");
	} else if (!strcmp(name, "--fill"))
		return byte_parse(v, &o->fill) ? 0 : bad(name, v, "want a byte, 0..255 or 0x00..0xff");
	else if (!strcmp(name, "--duration"))
		return number_parse(v, LOAD_INTERVAL_MIN, LOAD_DURATION_MAX, false, &o->duration)
			       ? 0 : bad(name, v, "want seconds, 0.001 up to a year");
	else if (!strcmp(name, "--interval"))
		return number_parse(v, LOAD_INTERVAL_MIN, 3600, false, &o->interval)
			       ? 0 : bad(name, v, "want seconds, 0.001..3600");
	else if (!strcmp(name, "--write-rate"))
		return number_parse(v, 1e-6, LOAD_RATE_MAX, false, &o->write_rate)
			       ? 0 : bad(name, v, "want GB/s above 0, at most 10000");
	return 0;
}

/* The CSV at o->csv, or results/<machine>/<UTC>-load.csv; created exclusively, never on 0-2. */
static FILE *create_csv(const struct load_options *o, const struct machine *m, time_t now,
			char *path, size_t len)
{
	char id[128], stamp[32];
	int fd = -1;

	if (o->machine)
		snprintf(id, sizeof id, "%s", o->machine);
	else
		machine_id(&m->cpu, id, sizeof id);
	strftime(stamp, sizeof stamp, "%Y%m%dT%H%M%SZ", gmtime(&now));
	if (o->csv) {
		snprintf(path, len, "%s", o->csv);
		fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	} else if ((mkdir("results", 0755) == 0 || errno == EEXIST) &&
		   (snprintf(path, len, "results/%s", id), mkdir(path, 0755) == 0 || errno == EEXIST)) {
		for (int n = 1; fd < 0 && n < 100; n++) {
			if (n == 1)
				snprintf(path, len, "results/%s/%s-load.csv", id, stamp);
			else
				snprintf(path, len, "results/%s/%s-load-%d.csv", id, stamp, n);
			fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
			if (fd < 0 && errno != EEXIST)
				break;
		}
	}
	while (fd >= 0 && fd <= 2) { /* a closed stdio descriptor: keep results off it */
		int up = fcntl(fd, F_DUPFD_CLOEXEC, 3);

		close(fd);
		fd = up;
	}
	if (fd < 0) {
		fprintf(stderr, "storebench load: cannot create CSV file '%s': %s%s\n", path,
			strerror(errno), errno == EEXIST ? " (results are never overwritten)" : "");
		return NULL;
	}
	return fdopen(fd, "w");
}

/* What the rows add up to, for the summary. */
struct series {
	size_t rows;                        /* complete intervals */
	double wmin, wmax, wsum, rmin, rmax, rsum; /* GB/s per complete interval */
	uint64_t read, written;             /* bytes over every row, the last partial one too */
};

/* One interval's row, flushed; false when it did not reach the file whole (errno says why). */
static bool row(FILE *f, struct series *s, double t, double dt, const struct load_count *prev,
		const struct load_count *now, unsigned threads, bool complete)
{
	uint64_t rd = 0, wr = 0;
	double min = INFINITY;
	unsigned slow = 0;

	for (unsigned i = 0; i < threads; i++) {
		uint64_t b = now[i].read - prev[i].read + now[i].written - prev[i].written;

		rd += now[i].read - prev[i].read;
		wr += now[i].written - prev[i].written;
		if ((double)b / dt / 1e9 < min) {
			min = (double)b / dt / 1e9;
			slow = i;
		}
	}
	fprintf(f, "%.6f,%.6f,%llu,%llu,%.4f,%.4f,%.4f,%.4f,%u,%d\n", t, dt,
		(unsigned long long)rd, (unsigned long long)wr, rd / dt / 1e9, wr / dt / 1e9,
		(rd + wr) / dt / 1e9, min, slow, complete);
	/* the row is on disk before the next interval: a killed load keeps it */
	if (fflush(f) || ferror(f))
		return false;
	s->read += rd;
	s->written += wr;
	if (!complete)
		return true;
	double rg = rd / dt / 1e9, wg = wr / dt / 1e9;

	if (!s->rows++) {
		s->rmin = s->rmax = rg;
		s->wmin = s->wmax = wg;
	}
	s->rsum += rg;
	s->wsum += wg;
	s->rmin = fmin(s->rmin, rg);
	s->rmax = fmax(s->rmax, rg);
	s->wmin = fmin(s->wmin, wg);
	s->wmax = fmax(s->wmax, wg);
	return true;
}

static void preamble(FILE *f, const struct load_options *o, const struct machine *m,
		     const struct kernel *k, const struct load_kernel *lk, const struct placement *pl,
		     int argc, char **argv, time_t now)
{
	char stamp[32], cmd[4096] = "storebench", rw[16];
	size_t used = strlen(cmd);

	for (int i = 0; i < argc && used + 2 < sizeof cmd; i++)
		used += (size_t)snprintf(cmd + used, sizeof cmd - used, " %s", argv[i]);
	strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
	metadata_build_id(f, "# ");
	metadata_machine(f, "# ", m);
	metadata_build_flags(f, "# ");
	metadata_kv(f, "# ", "utc_time", "%s", stamp);
	metadata_kv(f, "# ", "command_line", "%s", cmd);
	metadata_kv(f, "# ", "load", "%s", "time series of storebench load (results/README.md)");
	metadata_kv(f, "# ", "load_kernel", "%s", k->name);
	metadata_kv(f, "# ", "load_read_kernel", "%s", lk->name);
	metadata_kv(f, "# ", "load_threads", "%u", o->threads);
	metadata_kv(f, "# ", "load_placement", "%s", pl->spec);
	fputs("# load_cpus=", f);
	for (unsigned i = 0; i < o->threads; i++)
		fprintf(f, "%s%d", i ? "," : "", pl->cpu[i]);
	fputc('\n', f);
	metadata_kv(f, "# ", "load_mem_bytes", "%llu", (unsigned long long)o->mem);
	metadata_kv(f, "# ", "load_chunk_bytes", "%llu", (unsigned long long)o->chunk);
	metadata_kv(f, "# ", "load_rw_ratio", "%s", rw_ratio_format(&o->rw, rw, sizeof rw));
	metadata_kv(f, "# ", "load_pages", "%s", page_policy_name[o->pages]);
	metadata_kv(f, "# ", "load_fill_byte", "%u", o->fill);
	metadata_kv(f, "# ", "load_interval_s", "%g", o->interval);
	metadata_kv(f, "# ", "load_duration_s", "%g", o->duration);
	metadata_kv(f, "# ", "load_write_rate_gbps", "%g", o->write_rate);
	fputs("t_s,interval_s,read_bytes,write_bytes,read_gbps,write_gbps,total_gbps,"
	      "thread_min_gbps,thread_min,complete\n", f);
	fflush(f);
}

/* CLOCK_MONOTONIC in ns: the clock clock_nanosleep's deadlines are on (mono_ns is the RAW one,
 * which runs at another rate, so the sampler keeps to this one alone). */
static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* Sleep until deadline (CLOCK_MONOTONIC ns); false when a stop signal came first. */
static bool sleep_until(uint64_t deadline)
{
	struct timespec ts = { (time_t)(deadline / 1000000000u), (long)(deadline % 1000000000u) };

	while (!signals_pending()) {
		int e = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);

		if (!e)
			return !signals_pending();
		if (e != EINTR)
			return true;
	}
	return false;
}

static void summary(FILE *f, const struct series *s, const struct load_count *total,
		    unsigned threads, double steady_s, double touch_s, const struct load_options *o)
{
	uint64_t rd = 0, wr = 0;

	for (unsigned i = 0; i < threads; i++) {
		rd += total[i].read;
		wr += total[i].written;
	}
	fprintf(f, "# first_touch_s=%.6f\n# first_touch_gbps=%.4f\n", touch_s,
		(double)o->mem * threads / touch_s / 1e9);
	fprintf(f, "# summary_intervals=%zu\n# summary_steady_s=%.6f\n", s->rows, steady_s);
	fprintf(f, "# summary_read_bytes=%llu\n# summary_write_bytes=%llu\n",
		(unsigned long long)s->read, (unsigned long long)s->written);
	fprintf(f, "# workers_read_bytes=%llu\n# workers_write_bytes=%llu\n",
		(unsigned long long)rd, (unsigned long long)wr);
	if (s->rows)
		fprintf(f, "# summary_write_gbps_mean=%.4f\n# summary_write_gbps_min=%.4f\n"
			   "# summary_write_gbps_max=%.4f\n# summary_read_gbps_mean=%.4f\n"
			   "# summary_read_gbps_min=%.4f\n# summary_read_gbps_max=%.4f\n",
			s->wsum / s->rows, s->wmin, s->wmax, s->rsum / s->rows, s->rmin, s->rmax);
	if (steady_s > 0)
		fprintf(f, "# write_rate_achieved_gbps=%.4f\n", wr / steady_s / 1e9);
	fflush(f);
	fprintf(stderr, "storebench load: first touch %.3f s (%.2f GB/s); %zu intervals over %.1f s",
		touch_s, (double)o->mem * threads / touch_s / 1e9, s->rows, steady_s);
	if (s->rows)
		fprintf(stderr, ": write GB/s mean %.2f (min %.2f, max %.2f), read %.2f (%.2f, %.2f)",
			s->wsum / s->rows, s->wmin, s->wmax, s->rsum / s->rows, s->rmin, s->rmax);
	if (o->write_rate > 0 && steady_s > 0)
		fprintf(stderr, "; write rate asked %.3f, achieved %.3f GB/s", o->write_rate,
			wr / steady_s / 1e9);
	fputc('\n', stderr);
}

/* Close f and remove path if the name still holds the file this command created. */
static void discard(FILE *f, const char *path)
{
	outfiles_remove_own(fileno(f), path);
	fclose(f);
}

/*
 * A write failed (a full disk, a file size limit): f is closed and the file cut back to its
 * kept bytes (the preamble and whole rows), as run does; exit status 1 after one line.
 */
static int cut_back(FILE *f, const char *path, off_t kept, int e)
{
	int fd = dup(fileno(f));

	fclose(f); /* may write part of what is still buffered: cut after it */
	if (fd >= 0) {
		if (ftruncate(fd, kept))
			e = e ? e : errno;
		close(fd);
	}
	fprintf(stderr, "storebench load: %s: %s; the file keeps the rows written whole\n", path,
		strerror(e ? e : EIO));
	return 1;
}

static int measure(FILE *f, const struct load_options *o, const struct load_config *c,
		   const char *path)
{
	char err[256];
	struct load_gen *g = load_start(c, err, sizeof err);
	struct load_count *prev, *now;
	struct series s = { 0 };
	uint64_t t0, last, interval = (uint64_t)(o->interval * 1e9);
	bool stalled = false; /* the last interval was stretched by a stall */
	off_t kept = ftello(f); /* bytes known whole: the preamble, then each row written */
	char abs[4096];
	int sig, werr = 0;

	if (!g) {
		/* nothing measured: no file, as run leaves none (a header alone is no result) */
		discard(f, path);
		sig = signals_pending();
		fprintf(stderr, "storebench load: %s%s\n", err, sig ? "; no file written" : "");
		return sig ? 128 + sig : 1;
	}
	prev = calloc(o->threads, sizeof *prev);
	now = calloc(o->threads, sizeof *now);
	if (!prev || !now) {
		fprintf(stderr, "storebench load: out of memory\n");
		load_stop(g);
		load_free(g);
		free(prev);
		free(now);
		return 1;
	}
	t0 = last = now_ns();
	for (uint64_t k = 1; !o->once; k++) {
		uint64_t due = t0 + k * interval, end = t0 + (uint64_t)(o->duration * 1e9);
		bool ends = o->duration > 0 && end <= due;

		if (!sleep_until(ends ? end : due))
			break;
		load_sample(g, now);
		uint64_t t = now_ns();
		/* a stall (SIGSTOP, a host that took the CPU) stretched it past the next deadline */
		bool late = t >= due + interval;

		/* complete: a whole --interval (the last one of a --duration may be shorter), from
		 * one deadline kept to the next: not one a stall stretched, nor the rest of the
		 * interval after it */
		if (!row(f, &s, (double)(t - t0) / 1e9, (double)(t - last) / 1e9, prev, now,
			 o->threads, (!ends || end == due) && !late && !stalled)) {
			werr = errno ? errno : EIO;
			break;
		}
		kept = ftello(f);
		stalled = late;
		memcpy(prev, now, o->threads * sizeof *now);
		last = t;
		if (ends)
			break;
		/* the deadlines missed meanwhile are skipped, never caught up with rows of nothing */
		while (t0 + (k + 1) * interval <= t)
			k++;
	}
	load_stop(g);
	load_sample(g, now); /* the workers' own totals */
	uint64_t t = now_ns();

	if (!werr && !o->once && t > last && memcmp(prev, now, o->threads * sizeof *now)) {
		if (row(f, &s, (double)(t - t0) / 1e9, (double)(t - last) / 1e9, prev, now,
			o->threads, false))
			kept = ftello(f);
		else
			werr = errno ? errno : EIO;
	}
	if (!werr) {
		summary(f, &s, now, o->threads, o->once ? 0 : (double)(t - t0) / 1e9,
			load_first_touch_s(g), o);
		if (fflush(f) || ferror(f))
			werr = errno ? errno : EIO;
	}
	load_free(g);
	free(prev);
	free(now);
	sig = signals_pending();
	if (werr)
		return cut_back(f, path, kept, werr);
	if (fclose(f)) {
		fprintf(stderr, "storebench load: %s: %s\n", path, strerror(errno));
		return 1;
	}
	/* absolute, as run says it: scripts take the file from this line (README) */
	fprintf(stderr, "storebench: csv %s\n", outfiles_absolute(path, abs, sizeof abs) ? abs : path);
	return sig ? 128 + sig : 0;
}

int cmd_load(int argc, char **argv)
{
	struct load_options o = { .kernel = "memset", .placement = "compact", .threads = 1,
				  .mem = 1ull << 30, .chunk = 4096, .rw = { 1, 1, "100" }, .pages = PAGES_4K,
				  .fill = 0xa5, .interval = 1 };
	struct machine m = { 0 };
	struct placement pl = { 0 };
	const struct kernel *k;
	const struct load_kernel *lk;
	char err[256], path[4096] = "";
	const char *why;
	time_t now = time(NULL);
	FILE *f;
	int rc;

	for (int i = 1; i < argc; i++) {
		rc = option(argc, argv, &i, &o);
		if (rc)
			return rc == 1 ? 0 : rc;
	}
	if (o.chunk > o.mem) {
		fprintf(stderr, "storebench load: --chunk %llu is larger than --mem %llu: a thread's "
				"region holds whole chunks\n", (unsigned long long)o.chunk,
			(unsigned long long)o.mem);
		return 2;
	}
	/* --once times the first touch and stops: a duration or a rate would be ignored */
	if (o.once && (o.duration > 0 || o.write_rate > 0)) {
		fprintf(stderr, "storebench load: --once times the first touch only; %s does not apply "
				"to it (drop one of them)\n", o.duration > 0 ? "--duration" : "--write-rate");
		return 2;
	}
	if (o.mem % o.chunk)
		fprintf(stderr, "storebench load: note: --mem %llu is %llu whole chunks of %llu bytes: "
				"%llu bytes a thread\n", (unsigned long long)o.mem,
			(unsigned long long)(o.mem / o.chunk), (unsigned long long)o.chunk,
			(unsigned long long)(o.mem / o.chunk * o.chunk));
	o.mem = o.mem / o.chunk * o.chunk;
	k = kernel_find(o.kernel);
	if (!k)
		return bad("--kernel", o.kernel, "no such kernel (storebench list)");
	if (kernel_store_at(k, o.chunk) == NULL)
		return bad("--kernel", o.kernel, "built for fixed call sizes only; give one as --chunk");
	rc = machine_load(&m, "storebench load");
	if (rc)
		return rc;
	why = kernel_unavailable(k, &m.cpu);
	lk = load_kernel_best(&m.cpu);
	if (why) {
		machine_free(&m);
		return bad("--kernel", o.kernel, why);
	}
	if (!placement_order(m.topo, o.placement, &pl, err, sizeof err)) {
		fprintf(stderr, "storebench load: --placement '%s': %s\n", o.placement, err);
		placement_free(&pl);
		machine_free(&m);
		return 2;
	}
	if (pl.ncpus < o.threads) {
		fprintf(stderr, "storebench load: --threads %u: only %zu CPUs are allowed here by "
				"--placement '%s' (want 1..%zu)\n", o.threads, pl.ncpus, o.placement,
			pl.ncpus);
		placement_free(&pl);
		machine_free(&m);
		return 2;
	}
	/* every thread's region, counted before the first byte is mapped or a file exists */
	if (!buffer_memory_fits((unsigned long long)o.threads * buffer_footprint(o.mem, o.pages),
				o.pages, err, sizeof err)) {
		fprintf(stderr, "storebench load: --threads %u x --mem %llu: %s\n", o.threads,
			(unsigned long long)o.mem, err);
		placement_free(&pl);
		machine_free(&m);
		return 2;
	}
	f = create_csv(&o, &m, now, path, sizeof path);
	if (!f) {
		placement_free(&pl);
		machine_free(&m);
		return errno == EEXIST ? 2 : 1;
	}
	preamble(f, &o, &m, k, lk, &pl, argc, argv, now);
	if (fflush(f) || ferror(f)) {
		int e = errno ? errno : EIO;

		discard(f, path);
		fprintf(stderr, "storebench load: %s: %s; no file written\n", path, strerror(e));
		placement_free(&pl);
		machine_free(&m);
		return 1;
	}
	signals_install();
	struct load_config c = {
		.k = k, .store = kernel_store_at(k, o.chunk), .read = lk->fn, .threads = o.threads,
		.cpu = pl.cpu, .node = pl.node, .pages = o.pages, .mem_bytes = o.mem,
		.chunk_bytes = o.chunk, .write_parts = o.rw.write_parts, .total_parts = o.rw.total_parts, .fill = (int)o.fill,
		.write_rate = o.write_rate * 1e9, .once = o.once, .stopped = signals_pending,
	};
	rc = measure(f, &o, &c, path);
	placement_free(&pl);
	machine_free(&m);
	return rc;
}
