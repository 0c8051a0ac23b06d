/*
 * levels_file.h — measured cache levels kept per machine, so a run pays for the scan once.
 * Plain C, no ISA.  One text file a machine (tab-separated lines, '#' comments) in
 * $STOREBENCH_LEVELS_DIR, else $XDG_CACHE_HOME/storebench, else ~/.cache/storebench: the
 * machine's fingerprint, then one entry per set of CPUs scanned (its levels, latencies, UTC time
 * and the command that measured it) and that entry's curve (bytes:load ns:store ns a line each
 * size).  A file whose fingerprint is not this machine's (another CPU, other reported caches,
 * another boot: a guest may wake on another host) is measured again.  The same format, given as
 * --levels FILE, stands in for a replayed machine.
 */
#ifndef STOREBENCH_LEVELS_FILE_H
#define STOREBENCH_LEVELS_FILE_H

#include <stdbool.h>
#include <stddef.h>

#include "cpu.h"
#include "effective.h"

/* A levels file larger than this is not one (a few KiB a thread count). */
#define LEVELS_FILE_MAX_BYTES (1u << 20)

struct levels_entry {
	unsigned threads;	     /* threads scanned together, one per CPU of cpus */
	char cpus[256];		     /* their CPUs as a cpulist: the entry's key */
	char utc[24];		     /* when it was measured, 2026-12-06T01:02:03Z */
	char command[512];	     /* the command line that measured it */
	struct effective_shares found; /* the levels found (found.why: why none) */
	struct latency_curve curve;  /* what was measured */
};

struct levels_file {
	char path[4096];	     /* where it was read or goes; "" when nowhere */
	char fingerprint[512];	     /* the machine it describes */
	size_t n;		     /* entries */
	struct levels_entry *e;
};

/* This machine's file for machine_id into buf: false when no folder is known (no HOME). */
bool levels_path(const char *machine_id, char *buf, size_t len);

/* What must match for a file to describe this machine: CPU identity, reported caches, CPUs
 * online, the boot. */
void levels_fingerprint(const struct cpu_info *cpu, char *buf, size_t len);

/*
 * Read path into lf.  fingerprint: the machine it must describe (a file of another is read as
 * empty), NULL for a file the user names.  0: read (or missing: empty); 2 with err: not a
 * regular file, too large, or not a levels file.
 */
int levels_read(const char *path, const char *fingerprint, struct levels_file *lf, char *err,
		size_t errlen);

/* The entry of exactly these CPUs (a cpulist), NULL when none. */
const struct levels_entry *levels_lookup(const struct levels_file *lf, const char *cpus);

/* Add e, or replace the entry of its CPUs.  false: out of memory. */
bool levels_put(struct levels_file *lf, const struct levels_entry *e);

/* Write lf to lf->path through a temporary file renamed over it.  false with err. */
bool levels_write(const struct levels_file *lf, char *err, size_t errlen);

/* Hold path's lock (a sibling .lock file) so two runs do not scan at once: an fd to close, -1
 * when none could be had (the scan goes on unlocked). */
int levels_lock(const char *path);

void levels_free(struct levels_file *lf);

#endif
