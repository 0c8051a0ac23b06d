/*
 * outfiles_test.c — a run's two result files (bench/output/outfiles.c) in a scratch folder:
 * created exclusively, never over an existing result; cut back to what was kept; rewritten
 * through a file beside it that replaces the CSV only when committed; removed only while their
 * names still hold this run's files.  Plain C, POSIX.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "outfiles.h"
#include "test_util.h"

static char dir[] = "/tmp/outfiles_test.XXXXXX";
static char csv[PATH_MAX], json[PATH_MAX];

/* The file's text (at most 255 bytes), "" when it does not exist. */
static const char *text_of(const char *path)
{
	static char buf[256];
	FILE *f = fopen(path, "r");
	size_t n = f ? fread(buf, 1, sizeof buf - 1, f) : 0;

	if (f)
		fclose(f);
	buf[n] = '\0';
	return buf;
}

static bool exists(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0;
}

/* How many entries the scratch folder holds: no temporary file may stay behind. */
static int entries(void)
{
	char cmd[PATH_MAX + 32];
	FILE *p;
	int n = -1;

	snprintf(cmd, sizeof cmd, "ls -A '%s' | wc -l", dir);
	p = popen(cmd, "r");
	if (p && fscanf(p, "%d", &n) != 1)
		n = -1;
	if (p)
		pclose(p);
	return n;
}

static void create_keep_cut(struct outfiles *of)
{
	struct cpu_info cpu = { 0 };
	struct outfiles again;

	CHECK(outfiles_create(of, csv, json, "scratch", &cpu, 0) == 0, "create");
	CHECK(exists(csv) && exists(json), "both files exist");
	fputs("# key=value\nheader\n", of->csv_stream);
	CHECK(outfiles_keep_csv(of) && of->csv_kept == 19, "kept %lld bytes",
	      (long long)of->csv_kept);
	/* a second run at the same names is refused, and the first run's files stay */
	CHECK(outfiles_create(&again, csv, json, "scratch", &cpu, 0) == 2, "no second create");
	CHECK(!strcmp(text_of(csv), "# key=value\nheader\n"), "first CSV intact: '%s'",
	      text_of(csv));
	/* a row cut off before it was kept is gone, buffered or not */
	fputs("half a ro", of->csv_stream);
	fflush(of->csv_stream);
	fputs("w", of->csv_stream);
	outfiles_cut_csv(of, of->csv_kept);
	fputs("row 1\n", of->csv_stream);
	CHECK(outfiles_keep_csv(of), "keep row 1");
	CHECK(!strcmp(text_of(csv), "# key=value\nheader\nrow 1\n"), "cut then row: '%s'",
	      text_of(csv));
}

static void rewrite(struct outfiles *of)
{
	/* committed: the CSV is the preamble and header it started from, then the new rows */
	CHECK(outfiles_rewrite_begin(of, 19), "rewrite begin");
	fputs("row 1 again\nrow 2\n", of->csv_stream);
	CHECK(!strcmp(text_of(csv), "# key=value\nheader\nrow 1\n"),
	      "the old CSV stays whole until the commit: '%s'", text_of(csv));
	CHECK(outfiles_keep_csv(of) && outfiles_rewrite_commit(of), "rewrite commit");
	CHECK(!strcmp(text_of(csv), "# key=value\nheader\nrow 1 again\nrow 2\n"),
	      "rewritten: '%s'", text_of(csv));
	CHECK(entries() == 2, "%d entries after a commit, want the two files", entries());
	/* abandoned: the CSV stays as it was, and goes on taking rows */
	CHECK(outfiles_rewrite_begin(of, 19), "second rewrite begin");
	fputs("never\n", of->csv_stream);
	outfiles_rewrite_abort(of);
	CHECK(entries() == 2, "%d entries after an abort, want the two files", entries());
	fputs("row 3\n", of->csv_stream);
	CHECK(outfiles_keep_csv(of), "keep after abort");
	CHECK(!strcmp(text_of(csv), "# key=value\nheader\nrow 1 again\nrow 2\nrow 3\n"),
	      "after an abort: '%s'", text_of(csv));
}

/* Discard removes this run's files, never a file that took one of their names meanwhile. */
static void discard_only_own(struct outfiles *of)
{
	char moved[PATH_MAX + 8];
	FILE *f;

	snprintf(moved, sizeof moved, "%s.kept", csv);
	CHECK(rename(csv, moved) == 0, "move the CSV away");
	f = fopen(csv, "w");
	if (f) {
		fputs("someone else's\n", f);
		fclose(f);
	}
	outfiles_discard(of);
	CHECK(!exists(json), "the run's JSON removed");
	CHECK(!strcmp(text_of(csv), "someone else's\n"), "a file not the run's stays: '%s'",
	      text_of(csv));
	unlink(csv);
	unlink(moved);
}

int main(void)
{
	struct outfiles of;

	if (!mkdtemp(dir)) {
		perror("outfiles_test: mkdtemp");
		return 1;
	}
	snprintf(csv, sizeof csv, "%s/run.csv", dir);
	snprintf(json, sizeof json, "%s/run.json", dir);
	create_keep_cut(&of);
	rewrite(&of);
	discard_only_own(&of);
	CHECK(entries() == 0, "%d entries left", entries());
	rmdir(dir);
	return test_result("outfiles: exclusive, cut to what was kept, rewritten whole, removed "
			   "only while their own");
}
