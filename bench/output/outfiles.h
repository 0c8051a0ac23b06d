/*
 * outfiles.h — where a run's CSV and JSON go, created exclusively: no result is overwritten.
 * Plain C, POSIX.  Default: results/<machine>/<UTC time>.csv with the JSON beside it; the machine
 * id comes from the CPU (codename, else family-model) and the short host name.
 * Each file is opened once (O_EXCL) and written through that descriptor until the end, so a path
 * swapped for a symlink mid-run is never followed; a file is only removed, or replaced by a
 * rewrite, while its name still holds the inode this run created.
 */
#ifndef STOREBENCH_OUTFILES_H
#define STOREBENCH_OUTFILES_H

#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>
#include <time.h>

#include "cpu.h"

/* One result file: its names, the descriptor this run created it with and that inode. */
struct outfile {
	char path[PATH_MAX]; /* as given (or built), relative to the caller's directory */
	char abs[PATH_MAX];  /* absolute, for the `storebench: csv|json PATH` lines */
	int fd;              /* the O_EXCL descriptor, -1 once closed */
	dev_t dev;           /* device of fd: outfiles_discard removes only this file... */
	ino_t ino;           /* ...and its inode, compared with what the name holds then */
	bool created;        /* this run created it (and has not removed it) */
};

struct outfiles {
	char machine[128];  /* results folder name (--machine or machine_id) */
	struct outfile csv; /* the CSV, written through the stream below */
	struct outfile json; /* the JSON, written by the shim on json.fd */
	FILE *csv_stream;    /* stdio stream on csv.fd */
	off_t csv_kept;      /* bytes of the CSV known complete (preamble, header, whole rows) */
	struct outfile prev; /* during a rewrite: the CSV at the asked name, until replaced */
	FILE *prev_stream;   /* its stream, NULL when no rewrite is under way */
	FILE *next_stream;   /* the new file's stream while outfiles_rewrite_begin sets it up */
	off_t prev_kept;     /* its kept length, restored if the rewrite is abandoned */
};

/* The default results folder name, "turin-buildhost": codename (or f1a-m02) + short host name. */
void machine_id(const struct cpu_info *cpu, char *buf, size_t len);

/*
 * Create both files (O_EXCL, never on descriptors 0-2).  csv/json may be NULL for the defaults;
 * now names the default files.  On failure prints one line, removes whatever it created and
 * returns the exit status (2: bad or clashing path, 1: the system refused); 0 on success.
 */
int outfiles_create(struct outfiles *of, const char *csv, const char *json, const char *machine,
		    const struct cpu_info *cpu, time_t now);

/*
 * Flush and fsync the CSV; on success everything written so far is kept.  On failure errno
 * says why and the CSV is cut back to what was kept before.
 */
bool outfiles_keep_csv(struct outfiles *of);

/* Cut the CSV back to its first `to` bytes (a kept length), dropping anything buffered. */
void outfiles_cut_csv(struct outfiles *of, off_t to);

/*
 * Rewrite the CSV without ever leaving less than a whole file at its name: rows go to a new
 * file beside it (<csv>.<pid>.tmp, O_EXCL) that starts with the CSV's first keep bytes (its
 * preamble and header); once the caller has kept it (outfiles_keep_csv), commit renames it over
 * the CSV, which a kill at any moment leaves as the old whole file or the new one.  Commit
 * refuses (EEXIST) when the name no longer holds this run's file; abort drops the new file and
 * goes back to the old.  false + errno on failure (begin leaves nothing behind).
 */
bool outfiles_rewrite_begin(struct outfiles *of, off_t keep);
bool outfiles_rewrite_commit(struct outfiles *of);
void outfiles_rewrite_abort(struct outfiles *of);

/* fsync and close both files; false (errno set, name in *failed) if either fails. */
bool outfiles_close(struct outfiles *of, const char **failed);

/* Remove both files, each only if its name still holds the inode this run created. */
void outfiles_discard(struct outfiles *of);

/* Remove path if it still names the file open on fd (the one this command created), never a
 * file put there since: the one rule run and load remove their files by. */
void outfiles_remove_own(int fd, const char *path);

/* The absolute form of path (its folder resolved, its last component as given) into out, for
 * the `storebench: csv PATH` lines; false with errno when it cannot be had. */
bool outfiles_absolute(const char *path, char *out, size_t len);

/* Arm (of) or disarm (NULL) removal of both files should anything call exit() meanwhile. */
void outfiles_guard(struct outfiles *of);

#endif
