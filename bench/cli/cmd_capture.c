/*
 * cmd_capture.c — `storebench capture [-o FILE] -- COMMAND...`: the sizes of the memset calls a
 * program makes, as a size distribution (bench/config/size_dist.h's pairs format).
 * Plain C.  The counting is libstorebench-capture.so's (bench/capture/memset_capture.c),
 * preloaded into the command and every process it starts; this side runs the command, outlives
 * a Ctrl-C that stops it, adds up the processes' counts and writes them once, whole.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <dirent.h>

#include "commands.h"
#include "size_dist.h"
#include "version.h"

static const char usage[] =
	"usage: storebench capture [-o | --output FILE] -- COMMAND [ARGS...]\n"
	"Runs COMMAND with libstorebench-capture.so preloaded and writes the size of every memset\n"
	"call it and the processes it starts made through the dynamic linker (memset, the\n"
	"__memset_chk of _FORTIFY_SOURCE builds, bzero) to FILE, as SIZE COUNT lines under a\n"
	"header saying what ran (default: <command>-memset.dist here; an existing file is never\n"
	"overwritten).  The program runs as it would: the real memset does every call.  Not\n"
	"counted: glibc's own calls from inside glibc, memsets the compiler inlined, static and\n"
	"setuid programs (the dynamic linker preloads nothing there).  Each program writes its\n"
	"counts at exit, before an exec and on SIGINT or SIGTERM; one killed otherwise (SIGKILL)\n"
	"or ended by _exit leaves none.  A Ctrl-C stops the command, not the capture.  `storebench list --distributions`\n"
	"describes the bundled distributions the same way.\n"
	"Exit status: the command's (128 + N when signal N ended it), 2 when nothing could be\n"
	"captured or written.\n";

/* The library beside the binary (the build tree) or in ../lib/storebench (installed). */
static bool find_library(char *out, size_t len)
{
	static const char *const where[] = { "/libstorebench-capture.so",
					     "/../lib/storebench/libstorebench-capture.so" };
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
	char *slash;

	if (n <= 0)
		return false;
	exe[n] = '\0';
	slash = strrchr(exe, '/');
	if (!slash)
		return false;
	*slash = '\0';
	for (size_t i = 0; i < sizeof where / sizeof where[0]; i++)
		if ((size_t)snprintf(out, len, "%s%s", exe, where[i]) < len && access(out, R_OK) == 0)
			return true;
	return false;
}

static pid_t child;

/* SIGINT, SIGTERM or SIGHUP to this process: passed on to the command, whose end we wait for. */
static void pass_on(int sig)
{
	if (child > 0)
		kill(child, sig);
}

/* Run argv with the library preloaded and STOREBENCH_CAPTURE=prefix; its wait status, or -1. */
static int run_command(char **argv, const char *lib, const char *prefix)
{
	struct sigaction sa = { .sa_handler = pass_on }, old[3];
	const int sigs[3] = { SIGINT, SIGTERM, SIGHUP };
	int status = -1;

	sigemptyset(&sa.sa_mask);
	for (int i = 0; i < 3; i++)
		sigaction(sigs[i], &sa, &old[i]);
	child = fork();
	if (child == 0) {
		const char *was = getenv("LD_PRELOAD");
		char *preload = NULL;

		for (int i = 0; i < 3; i++)
			sigaction(sigs[i], &old[i], NULL);
		if (asprintf(&preload, "%s%s%s", lib, was && *was ? ":" : "", was ? was : "") < 0 ||
		    setenv("LD_PRELOAD", preload, 1) || setenv("STOREBENCH_CAPTURE", prefix, 1))
			_exit(127);
		execvp(argv[0], argv);
		fprintf(stderr, "storebench capture: cannot run %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	if (child < 0) {
		fprintf(stderr, "storebench capture: cannot start %s: %s\n", argv[0], strerror(errno));
	} else {
		while (waitpid(child, &status, 0) < 0 && errno == EINTR)
			;
	}
	for (int i = 0; i < 3; i++)
		sigaction(sigs[i], &old[i], NULL);
	return status;
}

/* One size and how many calls had it, from every process's file. */
struct tally {
	uint64_t size, calls;
};

static int by_size(const void *a, const void *b)
{
	const struct tally *x = a, *y = b;

	return (x->size > y->size) - (x->size < y->size);
}

/* The library's note of calls its table of large sizes had no room for (memset_capture.c). */
#define LOST_NOTE "# calls of sizes the table had no room for: "

/* Every "SIZE COUNT" line of the files prefix.<pid>.<start> in dir, added up per size, into
 * *out (sorted); how many programs wrote one into *procs, the calls their notes say went
 * uncounted into *lost.  false when out of memory. */
static bool gather(const char *dir, struct tally **out, size_t *n, unsigned *procs,
		   uint64_t *lost)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t cap = 0, m = 0;
	struct tally *t = NULL;

	*procs = 0;
	*lost = 0;
	if (!d)
		return false;
	while ((e = readdir(d))) {
		char path[PATH_MAX], line[128];
		unsigned long long size, calls;
		FILE *f;

		if (strncmp(e->d_name, "counts.", 7))
			continue;
		snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;
		++*procs;
		while (fgets(line, sizeof line, f)) {
			if (!strncmp(line, LOST_NOTE, strlen(LOST_NOTE))) {
				*lost += strtoull(line + strlen(LOST_NOTE), NULL, 10);
				continue;
			}
			if (sscanf(line, "%llu %llu", &size, &calls) != 2)
				continue;
			if (m == cap) {
				struct tally *g = realloc(t, (cap = cap ? 2 * cap : 1024) * sizeof *g);

				if (!g) {
					fclose(f);
					closedir(d);
					free(t);
					return false;
				}
				t = g;
			}
			t[m++] = (struct tally){ size, calls };
		}
		fclose(f);
	}
	closedir(d);
	if (m) /* qsort wants an array, even of none */
		qsort(t, m, sizeof *t, by_size);
	*n = 0;
	for (size_t i = 0; i < m; i++) {
		if (*n && t[*n - 1].size == t[i].size)
			t[*n - 1].calls += t[i].calls;
		else
			t[(*n)++] = t[i];
	}
	*out = t;
	return true;
}

/* The counting files and their folder, gone. */
static void clean(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	while (d && (e = readdir(d))) {
		char path[PATH_MAX];

		if (!strncmp(e->d_name, "counts.", 7)) {
			snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
			unlink(path);
		}
	}
	if (d)
		closedir(d);
	rmdir(dir);
}

/* The distribution, headed by what made it, to path through a temporary file renamed into
 * place (never half a file; never over an existing one).  false with a line on stderr. */
static bool write_capture(const char *path, char **argv, const struct tally *t, size_t n,
			  unsigned procs, uint64_t calls, uint64_t lost, int status)
{
	char tmp[PATH_MAX + 16], when[32];
	time_t now = time(NULL);
	FILE *f;
	bool ok;

	strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
	snprintf(tmp, sizeof tmp, "%s.partial", path);
	f = fopen(tmp, "wx");
	if (!f) {
		fprintf(stderr, "storebench capture: cannot write %s: %s\n", tmp, strerror(errno));
		return false;
	}
	fprintf(f, "# storebench size distribution: the memset calls of `");
	for (char **a = argv; *a; a++)
		fprintf(f, "%s%s", a == argv ? "" : " ", *a);
	fprintf(f, "` through the dynamic linker\n# captured %s by storebench %s: %u program%s, "
		"%llu calls, %zu sizes; the command's wait status %d\n# SIZE COUNT\n", when,
		STOREBENCH_VERSION, procs, procs == 1 ? "" : "s", (unsigned long long)calls, n,
		status);
	if (lost)
		fprintf(f, "# not counted: %llu calls of sizes past the room of the library's table "
			"of sizes from 64 KiB up\n", (unsigned long long)lost);
	for (size_t i = 0; i < n; i++)
		fprintf(f, "%llu %llu\n", (unsigned long long)t[i].size,
			(unsigned long long)t[i].calls);
	ok = !ferror(f);
	ok &= fclose(f) == 0;
	if (ok && link(tmp, path) != 0) {
		fprintf(stderr, "storebench capture: cannot write %s: %s\n", path, strerror(errno));
		ok = false;
	} else if (!ok) {
		fprintf(stderr, "storebench capture: cannot write %s\n", tmp);
	}
	unlink(tmp);
	return ok;
}

/* What the capture holds: its calls and their sizes' quantiles, on stderr. */
static void describe(const char *path)
{
	struct size_dist d;
	char err[256];

	if (!size_dist_load(path, &d, err, sizeof err)) {
		fprintf(stderr, "storebench capture: %s\n", err);
		return;
	}
	fprintf(stderr, "storebench capture: sizes p50 %llu, p90 %llu, p99 %llu, max %llu bytes; "
		"mean %.0f\n", (unsigned long long)size_dist_quantile(&d, 0.5),
		(unsigned long long)size_dist_quantile(&d, 0.9),
		(unsigned long long)size_dist_quantile(&d, 0.99),
		(unsigned long long)d.size[d.n - 1], size_dist_mean(&d));
	size_dist_free(&d);
}

int cmd_capture(int argc, char **argv)
{
	char lib[PATH_MAX], dir[] = "/tmp/storebench-capture.XXXXXX", prefix[64], out[PATH_MAX];
	const char *path = NULL;
	struct tally *t = NULL;
	unsigned procs = 0;
	uint64_t calls = 0, lost = 0;
	size_t n = 0;
	int i = 1, status;
	bool ok;

	for (; i < argc && strcmp(argv[i], "--"); i++) {
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			fputs(usage, stdout);
			return 0;
		}
		if ((!strcmp(argv[i], "-o") || !strcmp(argv[i], "--output")) && i + 1 < argc) {
			path = argv[++i];
			continue;
		}
		fprintf(stderr, "storebench capture: unknown argument '%s' (the command goes after "
			"--)\n%s", argv[i], usage);
		return 2;
	}
	if (i + 1 >= argc) {
		fprintf(stderr, "storebench capture: no command to run after --\n%s", usage);
		return 2;
	}
	argv += i + 1;
	if (!path) {
		const char *base = strrchr(argv[0], '/');

		snprintf(out, sizeof out, "%s-memset.dist", base ? base + 1 : argv[0]);
		path = out;
	}
	if (access(path, F_OK) == 0) {
		fprintf(stderr, "storebench capture: %s exists; give another with -o\n", path);
		return 2;
	}
	if (!find_library(lib, sizeof lib)) {
		fprintf(stderr, "storebench capture: libstorebench-capture.so is neither beside this "
			"binary nor in ../lib/storebench (build it: cmake --build build)\n");
		return 2;
	}
	if (!mkdtemp(dir)) {
		fprintf(stderr, "storebench capture: cannot make %s: %s\n", dir, strerror(errno));
		return 2;
	}
	snprintf(prefix, sizeof prefix, "%s/counts", dir);
	status = run_command(argv, lib, prefix);
	ok = status != -1 && gather(dir, &t, &n, &procs, &lost);
	clean(dir);
	for (size_t k = 0; k < n; k++)
		calls += t[k].calls;
	if (ok && !procs && WIFEXITED(status) && WEXITSTATUS(status) == 127)
		return 127; /* it never ran: the child said why */
	if (ok && !calls && !procs && WIFSIGNALED(status)) {
		fprintf(stderr, "storebench capture: %s ended by signal %d before any program wrote "
			"its counts (a SIGKILL leaves none)\n", argv[0], WTERMSIG(status));
		ok = false;
	} else if (ok && !calls) {
		fprintf(stderr, "storebench capture: %s made no memset call through the dynamic "
			"linker (%u program%s wrote counts: a static or setuid program preloads "
			"nothing)\n", argv[0], procs, procs == 1 ? "" : "s");
		ok = false;
	}
	if (ok && lost)
		fprintf(stderr, "storebench capture: %llu calls of sizes from 64 KiB up found the "
			"library's table full and were not counted\n", (unsigned long long)lost);
	ok = ok && write_capture(path, argv, t, n, procs, calls, lost, status);
	free(t);
	if (!ok)
		return 2;
	fprintf(stderr, "storebench capture: %llu calls of %zu sizes from %u program%s: %s\n",
		(unsigned long long)calls, n, procs, procs == 1 ? "" : "s", path);
	describe(path);
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 2;
}
